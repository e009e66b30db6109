/**
 * A saved search runs on the site it was saved for: the dashboard's form names it, the
 * background refuses a new one without it, and a run's sweep is that site's. A record an older
 * version stored without a site runs on Google, as it always did.
 */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { PageDriver } from '../../utils/browser/page-driver';
import { emptyDraft, parseDraft } from '../../utils/dashboard/saved-search-form';
import { createScheduleCommands } from '../../utils/schedule/commands';
import { getSavedSearch, listSavedSearches } from '../../utils/schedule/saved-searches';
import { createScheduler } from '../../utils/schedule/scheduler';
import type { SavedSearch } from '../../utils/domain/saved-search';
import { openStore, type Store } from '../../utils/store';
import { createController } from '../../utils/sweep/controller';
import { createPacer } from '../../utils/queue/pacing';
import { normaliseSettings } from '../../utils/config/settings';
import { AREA, SEOUL } from './schedule-fixtures';
import { freshFactory } from './store-fixtures';

/** A page whose loads never end: the run's sweep is created, and nothing is visited. */
const idlePage: PageDriver = {
  load: () => new Promise(() => {}),
  async collect() {
    throw new Error('not reached');
  },
  async viewport() {
    return { width: 1280, height: 800, panelWidth: 408 };
  },
  async exists() {
    return true;
  },
};

let n = 0;
async function background() {
  const store = await openStore({ factory: freshFactory(), name: `saved-site-${++n}` });
  const now = () => 10_000;
  const sleep = () => new Promise<void>((r) => setTimeout(r, 0));
  const controller = createController({
    browser: fakeBrowser,
    store,
    pacer: createPacer({ now, sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) }),
    page: idlePage,
    now,
    sleep,
    random: () => 0,
    newId: () => `id${++n}`,
    settings: async () => normaliseSettings({}),
    attention: () => {},
  });
  const scheduler = createScheduler({ store, alarms: fakeBrowser.alarms, now, tzOffset: SEOUL, startSweep: controller.startSavedSearch });
  const commands = createScheduleCommands({ store, scheduler, newId: () => 'ss1', now });
  return { store, controller, commands };
}

async function runSite(store: Store, start: (s: SavedSearch, sweepId: string) => Promise<unknown>, search: SavedSearch) {
  await start(search, `run-of-${search.id}`);
  return (await store.getSweep(`run-of-${search.id}`))?.provider;
}

const draft = { ...emptyDraft(), name: '카페', keywordsText: '카페', areaText: AREA };

describe('a saved search and its site', () => {
  it('made in the dashboard for Naver, runs on Naver', async () => {
    const { store, controller, commands } = await background();
    const parsed = parseDraft({ ...draft, provider: 'naver' });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(await commands.saveSearch(parsed.input)).toEqual({ ok: true, id: 'ss1' });
    const saved = (await getSavedSearch(store, 'ss1'))!;
    expect(saved.provider).toBe('naver');
    expect(await runSite(store, controller.startSavedSearch, saved)).toBe('naver');
  });

  it('is refused without a site, and nothing is stored', async () => {
    const { store, commands } = await background();
    const input = { name: '카페', areaText: AREA, keywordsText: '카페', repeat: 'daily' as const, hour: 9, weekday: 1, thresholdDays: 14 };
    // As a message from another context may come: the type says a site, the message has none.
    const reply = await commands.saveSearch(input as Parameters<typeof commands.saveSearch>[0]);
    expect(reply).toMatchObject({ ok: false, error: { code: 'saved-search-provider' } });
    expect(await listSavedSearches(store)).toEqual([]);
    expect(parseDraft(draft)).toMatchObject({ ok: false, error: { code: 'saved-search-provider' } });
  });

  it('stored by an older version without a site, runs on Google as it always did', async () => {
    const { store, controller } = await background();
    const legacy: SavedSearch = {
      id: 'old',
      name: 'cafe',
      areaText: AREA,
      keywordsText: 'cafe',
      repeat: 'daily',
      hour: 9,
      weekday: 1,
      thresholdDays: 14,
      createdAt: 1,
      lastRunAt: null,
      lastSuccessfulRunAt: null,
      lastNewPlaceAt: null,
    };
    await store.transact(['savedSearches'], 'readwrite', (tx) => tx.objectStore('savedSearches').put(legacy));
    expect(await runSite(store, controller.startSavedSearch, (await getSavedSearch(store, 'old'))!)).toBe('google');
  });
});
