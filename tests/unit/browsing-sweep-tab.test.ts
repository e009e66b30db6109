// @vitest-environment happy-dom
/**
 * A page in a tab a sweep drives is the sweep's, never the person's browsing, even before the
 * sweep asked it to collect (its start page, a page still loading): the content script asks the
 * background, which knows the sweep's tabs (utils/sweep/controller.ts isSweepTab), and collects
 * nothing until it has heard "not a sweep tab".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { WxtBrowser } from 'wxt/browser';
import { startBrowsing } from '../../utils/content/browsing-wiring';
import type { BrowsingReader } from '../../utils/content/browsing';
import { BROWSING_ENABLED_KEY } from '../../utils/config/storage-keys';
import { backgroundAnswersSweepTab } from '../helpers/background-answers';
import { makeListing } from '../helpers/store-records';

/** A page showing one place card, read once. */
function onePlaceReader(): BrowsingReader {
  let read = false;
  return {
    readNew() {
      if (read) return { cards: [], places: [] };
      read = true;
      return { cards: [makeListing('c1')], places: [] };
    },
  };
}

function sentListings(): unknown[] {
  const sent: unknown[] = [];
  fakeBrowser.runtime.onMessage.addListener(((message: { type?: string; data?: unknown[] }) => {
    if (message?.type !== 'browsingListings') return undefined;
    sent.push(...(message.data ?? []));
    return Promise.resolve({ res: undefined });
  }) as never);
  return sent;
}

const settle = () => new Promise((r) => setTimeout(r, 1500));

describe('collect while browsing asks the background whose tab it is', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    await fakeBrowser.storage.local.set({ [BROWSING_ENABLED_KEY]: true });
  });
  afterEach(() => fakeBrowser.reset());

  it('not a sweep tab: what the person sees is collected', async () => {
    backgroundAnswersSweepTab(fakeBrowser, false);
    const sent = sentListings();
    const c = startBrowsing(window, fakeBrowser as unknown as WxtBrowser, onePlaceReader(), () => false);
    await settle();
    c.stop();
    expect(sent).toHaveLength(1);
  });

  it("a sweep's tab: nothing is collected, though the page was never asked to collect", async () => {
    backgroundAnswersSweepTab(fakeBrowser, true);
    const sent = sentListings();
    const c = startBrowsing(window, fakeBrowser as unknown as WxtBrowser, onePlaceReader(), () => false);
    await settle();
    c.stop();
    expect(sent).toEqual([]);
  });

  it('no answer from the background: nothing is collected', async () => {
    const sent = sentListings();
    const c = startBrowsing(window, fakeBrowser as unknown as WxtBrowser, onePlaceReader(), () => false);
    await settle();
    c.stop();
    expect(sent).toEqual([]);
  });
});
