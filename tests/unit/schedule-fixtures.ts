// Shared set-up for the schedule and health tests (not a test file itself).
import type { Listing } from '../../utils/domain/listing';
import type { SavedSearchInput } from '../../utils/schedule/saved-searches';
import type { SavedSearch } from '../../utils/domain/saved-search';
import type { StartOutcome } from '../../utils/schedule/scheduler';
import { openStore, type Store } from '../../utils/store';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { freshFactory, makeListing } from './store-fixtures';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const MINUTE = 60_000;

/** Seoul: UTC+9 all year (no daylight saving), so local times below are easy to check by hand. */
export const SEOUL = (): number => 540;

/** The instant of a Seoul wall-clock time, counted from Sunday 1 March 2026 00:00 (day 0). */
export function seoul(day: number, hour = 0, minute = 0): number {
  return Date.UTC(2026, 2, 1 + day, hour, minute) - 9 * HOUR;
}

export const AREA = '37.560,126.975,37.566,126.985';

export function searchInput(overrides: Partial<SavedSearchInput> = {}): SavedSearchInput {
  return {
    name: 'Cafes near City Hall',
    provider: 'google',
    areaText: AREA,
    keywordsText: 'cafe',
    repeat: 'daily',
    hour: 9,
    weekday: 1,
    thresholdDays: 10,
    ...overrides,
  };
}

/** A store on its own in-memory IndexedDB, and a way to open it again as a restarted worker would. */
export async function restartableStore(): Promise<{ store: Store; reopen(): Promise<Store> }> {
  const factory = freshFactory();
  const name = 'mapsweep';
  const store = await openStore({ factory, name });
  return { store, reopen: () => openStore({ factory, name }) };
}

/**
 * startSweep as the controller does it: plan from the saved search's text and create the sweep
 * with the given id (createSweep refuses an existing id). Counts the sweeps it created.
 */
export function sweepStarter(getStore: () => Store, now: () => number) {
  const created: string[] = [];
  const startSweep = async (search: SavedSearch, sweepId: string): Promise<StartOutcome> => {
    const plan = planSweep(
      {
        areaText: search.areaText,
        keywordsText: search.keywordsText,
        settings: { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0, dedicatedWindow: true },
        viewport: { width: 1280, height: 800, panelWidth: 408 },
        origin: null,
      },
      sweepId,
      now(),
    );
    if (!plan.ok) return { ok: false, error: { code: plan.error.code, message: plan.error.message } };
    await getStore().createSweep(plan.sweep, plan.cells);
    created.push(sweepId);
    return { ok: true };
  };
  return { startSweep, created };
}

export function cafe(cid: string, overrides: Partial<Listing> = {}): Listing {
  return makeListing(cid, {
    name: `Cafe ${cid}`,
    category: 'Cafe',
    address: `${cid} Sejong-daero, Jung District, Seoul`,
    phone: `02-1000-${cid.padStart(4, '0')}`,
    rating: 4.2,
    reviews: 12,
    lat: 37.563,
    lng: 126.98,
    ...overrides,
  });
}
