/**
 * The baseline of the overhead figure: a plain Playwright script, no extension, that opens a
 * search URL and scrolls the results list to its end as a person does (the mouse wheel over the
 * list, a pause of 0.5–1.5× the sweep's scroll pause between turns), stopping where the list
 * says it ends, at the site's 120 results, or on a single place or a "can't find" page.
 */
import type { Page } from 'playwright-core';
import { RESULTS_CAP } from '../../utils/providers/google/scroll';

export interface PlainVisit {
  url: string;
  outcome: 'end' | 'cap' | 'place' | 'not-found' | 'stalled';
  cards: number;
  ms: number;
}

interface PageState {
  kind: 'feed' | 'place' | 'not-found' | 'loading';
  cards: number;
  end: boolean;
}

/** Growth stops for this long: give up on the list (as the extension's scroll does after 8 s). */
const STALL_MS = 8000;

export async function visitLikeAPerson(page: Page, url: string, scrollPauseMs: number, random: () => number): Promise<PlainVisit> {
  const start = Date.now();
  const done = (outcome: PlainVisit['outcome'], cards: number): PlainVisit => ({ url, outcome, cards, ms: Date.now() - start });
  await page.goto(url);
  let state = await readState(page);
  while (state.kind === 'loading') {
    if (Date.now() - start > 30_000) return done('stalled', 0);
    await page.waitForTimeout(50);
    state = await readState(page);
  }
  if (state.kind === 'place') {
    // The single-result redirect: the person waits for the place page to finish loading.
    await page.waitForLoadState('load');
    return done('place', 1);
  }
  if (state.kind === 'not-found') return done('not-found', 0);

  await page.locator('[role="feed"]').hover();
  let cards = state.cards;
  let grewAt = Date.now();
  for (;;) {
    if (state.end) return done('end', state.cards);
    if (state.cards >= RESULTS_CAP) return done('cap', state.cards);
    if (state.cards > cards) {
      cards = state.cards;
      grewAt = Date.now();
    }
    if (Date.now() - grewAt > STALL_MS) return done('stalled', state.cards);
    await page.mouse.wheel(0, 20_000);
    await page.waitForTimeout(scrollPauseMs * (0.5 + random()));
    state = await readState(page);
  }
}

/** What a person sees: the list (organic cards, the end line), a place, "can't find", or not yet. */
async function readState(page: Page): Promise<PageState> {
  try {
    return await page.evaluate(`(() => {
      if (location.pathname.startsWith('/maps/place')) return { kind: 'place', cards: 1, end: false };
      const main = document.querySelector('[role="main"]');
      if (main && /can.t find/i.test(main.textContent || '')) return { kind: 'not-found', cards: 0, end: false };
      const feed = document.querySelector('[role="feed"]');
      if (!feed) return { kind: 'loading', cards: 0, end: false };
      const cards = [...feed.querySelectorAll('[role="article"]')].filter((c) => !c.querySelector('[aria-label="Sponsored"]')).length;
      const end = /reached the end of the list/i.test((feed.parentElement || feed).textContent || '');
      return { kind: cards > 0 || end ? 'feed' : 'loading', cards, end };
    })()`);
  } catch {
    // The page is replacing itself (the single-result redirect): not readable yet.
    return { kind: 'loading', cards: 0, end: false };
  }
}
