/**
 * In-process place details (issue 16): a sweep over the replica's search semantics whose cards
 * say what the replica's cards say (the street only, no phone on one card in five:
 * client/search-page.js cardShowsPhone, no hours, no address parts), then the details pass
 * against the replica's own place pages (tests/replica/pages.ts placePageHtml), parsed by
 * happy-dom's DOMParser and read by the shipped reader (utils/providers/google/place-details.ts).
 * No timers: sleep advances a fake clock.
 */
import type { Listing } from '../../utils/domain/listing';
import type { PlacePageDriver } from '../../utils/details/runner';
import { readGooglePlace } from '../../utils/providers/google/place-details';
import { parsePlaceUrl } from '../../utils/providers/google/urls';
import { openStore, type Store } from '../../utils/store';
import { runWorker } from '../../utils/sweep/driver';
import { createPacer, type Pacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import type { Observation, Sweep, SweepSettings } from '../../utils/domain/sweep';
import { clientRenderer } from '../replica/client-renderer';
import { placePageUrl as replicaPlaceUrl } from '../replica/hrefs';
import { placePageHtml } from '../replica/pages';
import type { ReplicaPlace, World } from '../replica/world';
import { seededRandom } from './random';
import { createSimPageDriver } from './sim-page-driver';

/** Whether the replica's card for `place` prints its phone (the page script's own rule). */
export function cardShowsPhone(place: ReplicaPlace): boolean {
  const P: unknown[] = [];
  P[10] = place.featureId;
  return clientRenderer().cardShowsPhone(P);
}

/** A listing as the replica's card gives it: the street, the phone on four cards in five, no hours or parts. */
export function asCard(l: Listing, world: World): Listing {
  const place = l.cid ? world.byCid.get(l.cid) : undefined;
  if (!place) return l;
  return { ...l, address: place.address.street, phone: cardShowsPhone(place) ? l.phone : null };
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export function fakeClock(start = 1_000_000): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms) => {
      t += Math.max(0, ms);
      await Promise.resolve();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

let dbCounter = 0;

export interface CardSweep {
  store: Store;
  sweep: Sweep;
  clock: ReturnType<typeof fakeClock>;
  settings: SweepSettings;
}

/** A whole Google sweep in-process whose cards are the replica's (asCard), with the place-details setting on. */
export async function cardSweep(world: World, areaText: string, keywordsText: string, settings: Partial<SweepSettings> = {}): Promise<CardSweep> {
  const clock = fakeClock();
  const random = seededRandom(1);
  const store = await openStore({ name: `details-sim-${++dbCounter}-${Date.now()}` });
  const all = { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0, placeDetails: true, ...settings } as SweepSettings;
  const viewport = { width: 1280, height: 800, panelWidth: 408 };
  const sim = createSimPageDriver(world, { viewport, switches: { signedIn: true, sparseZoomOut: false }, random });
  const page = {
    ...sim,
    async collect(tabId: number, options: Parameters<typeof sim.collect>[1], timeoutMs: number): Promise<Observation> {
      const o = await sim.collect(tabId, options, timeoutMs);
      return { ...o, listings: o.listings.map((l) => asCard(l, world)) };
    },
  };
  const plan = planSweep({ areaText, keywordsText, settings: all, viewport, origin: null }, 'details-sim', clock.now());
  if (!plan.ok) throw new Error(plan.error.message);
  await store.createSweep(plan.sweep, plan.cells);
  const pacer = createPacer({ now: clock.now, sleep: clock.sleep, random, timing: () => all });
  await runWorker({ store, page, pacer, now: clock.now, sleep: clock.sleep, random, attention: () => {} }, plan.sweep.id, 1);
  return { store, sweep: (await store.getSweep(plan.sweep.id))!, clock, settings: all };
}

export interface ReplicaPlacePages extends PlacePageDriver {
  readonly loads: string[];
  /** Page loads under way at once, at most (per host). */
  readonly maxConcurrent: number;
}

/**
 * The replica's place pages: `/maps?cid=` rewritten to the canonical place URL (as the replica
 * server's page script does), the panel and APP_INITIALIZATION_STATE rendered by
 * placePageHtml, read by readGooglePlace. `fail(url, n)` makes the n-th load (1-based) of a URL fail.
 */
export function replicaPlacePages(world: World, clock: Clock, opts: { fail?: (url: string, n: number) => boolean; loadMs?: number } = {}): ReplicaPlacePages {
  const current = new Map<number, string>();
  const loads: string[] = [];
  const count = new Map<string, number>();
  let active = 0;
  let maxConcurrent = 0;
  return {
    loads,
    get maxConcurrent() {
      return maxConcurrent;
    },
    async load(tabId, url) {
      active++;
      maxConcurrent = Math.max(maxConcurrent, active);
      try {
        loads.push(url);
        const n = (count.get(url) ?? 0) + 1;
        count.set(url, n);
        await clock.sleep(opts.loadMs ?? 1000);
        if (opts.fail?.(url, n)) throw new Error('net::ERR_CONNECTION_RESET');
        const cid = parsePlaceUrl(url).cid;
        const place = cid ? world.byCid.get(cid) : undefined;
        const final = place ? replicaPlaceUrl(place) : url;
        current.set(tabId, final);
        return { url: final };
      } finally {
        active--;
      }
    },
    async exists() {
      return true;
    },
    async collectPlace(tabId) {
      const url = current.get(tabId);
      const cid = url ? parsePlaceUrl(url).cid : null;
      const place = cid ? world.byCid.get(cid) : undefined;
      if (!url || !place) return null;
      const html = placePageHtml({ place, view: { lat: place.lat, lng: place.lng, zoom: 17 }, variant: 'a', signedIn: true, canonicalUrl: null });
      return readGooglePlace(new DOMParser().parseFromString(html, 'text/html'), url);
    },
  };
}

export function simPacer(clock: Clock, settings: Pick<SweepSettings, 'delayMs' | 'jitterMs'>, random = seededRandom(2)): Pacer {
  return createPacer({ now: clock.now, sleep: clock.sleep, random, timing: () => settings });
}

/** Per field, the share of `listings` that know it (%, one decimal). */
export function completeness(listings: readonly Listing[]): Record<'phone' | 'website' | 'fullAddress' | 'hours' | 'categories', number> {
  const pct = (f: (l: Listing) => boolean) => Math.round((1000 * listings.filter(f).length) / Math.max(1, listings.length)) / 10;
  return {
    phone: pct((l) => !!l.phone),
    website: pct((l) => !!l.website),
    fullAddress: pct((l) => !!l.addressParts),
    hours: pct((l) => !!l.hours || (l.openingHours?.length ?? 0) > 0),
    categories: pct((l) => (l.categories?.length ?? 0) > 0),
  };
}

/** The same for the ground truth's places. */
export function truthCompleteness(places: readonly ReplicaPlace[]): Record<'phone' | 'website' | 'fullAddress' | 'hours' | 'categories', number> {
  const pct = (f: (p: ReplicaPlace) => boolean) => Math.round((1000 * places.filter(f).length) / Math.max(1, places.length)) / 10;
  return {
    phone: pct((p) => p.phone !== null),
    website: pct((p) => p.website !== null),
    fullAddress: pct(() => true),
    hours: pct((p) => p.hours !== null),
    categories: pct((p) => p.categories.length > 0),
  };
}
