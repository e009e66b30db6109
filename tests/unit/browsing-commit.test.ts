import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createPageDriver } from '../../utils/browser/page-driver';
import { openStore } from '../../utils/store';
import { createController } from '../../utils/sweep/controller';
import { createPacer } from '../../utils/queue/pacing';
import { normaliseSettings } from '../../utils/config/settings';
import { BROWSING_STATS_KEY, readTotals, unresolvedFailure } from '../../utils/config/storage-keys';
import { freshFactory, makeListing } from './store-fixtures';

async function controllerAt(clock: { t: number }) {
  const store = await openStore({ factory: freshFactory(), name: 'browsing-commit' });
  const sleep = async () => {};
  const controller = createController({
    browser: fakeBrowser,
    store,
    pacer: createPacer({ now: () => clock.t, sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) }),
    page: createPageDriver(
      fakeBrowser,
      { collect: async () => Promise.reject(new Error('no page')), nextPage: async () => Promise.reject(new Error('no page')) },
      sleep,
    ),
    now: () => clock.t,
    sleep,
    random: () => 0,
    newId: () => 'new',
    settings: async () => normaliseSettings(undefined),
    attention: () => {},
  });
  return { store, controller };
}

const totals = async () => readTotals((await fakeBrowser.storage.local.get(BROWSING_STATS_KEY))[BROWSING_STATS_KEY]);

describe('browsing commits in the background', () => {
  it('a failed commit rejects (the tab keeps the batch), is counted and shown until a commit succeeds', async () => {
    const clock = { t: 1_000 };
    const { store, controller } = await controllerAt(clock);
    await controller.commitBrowsing(7, [makeListing('1')]);
    expect(await totals()).toMatchObject({ seen: 1, added: 1, failed: 0, lastSavedAt: 1_000 });

    store.close(); // every write now fails, as with a broken or full disk
    clock.t = 2_000;
    await expect(controller.commitBrowsing(7, [makeListing('2')])).rejects.toThrow();
    const failed = await totals();
    expect(failed).toMatchObject({ seen: 1, added: 1, failed: 1 });
    expect(unresolvedFailure(failed)?.at).toBe(2_000);

    // The tab's retry goes through (a store that works again): the warning goes.
    const again = await controllerAt(clock);
    clock.t = 3_000;
    await again.controller.commitBrowsing(7, [makeListing('2')]);
    const after = await totals();
    expect(after).toMatchObject({ added: 2, failed: 1, lastSavedAt: 3_000 });
    expect(unresolvedFailure(after)).toBeNull();
  });
});
