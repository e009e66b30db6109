import type { CollectOptions } from '../../messaging/protocol';
import { findCards, findContainer, readListDom } from './list-dom';
import { PAGE_SIZE } from './observe';
import type { Observation } from '../../domain/sweep';
import type { NaverCollectEnv } from './collect';

/**
 * Scrolling Naver's result list to its end, as a person would, within the collection's bounds:
 * the list's own scroll container (or the page), to its bottom, until nothing more loads.
 */

/**
 * Once the list shows as many organic cards as the page's own data says this page holds, the
 * list has to stay still only this long to count as settled, instead of the whole `stallMs`. The
 * data's `total` is what public tools page by ("until start + items ≥ total"), but it is page
 * content: a short grace still lets a total that undercounts show itself by growing.
 */
export const DATA_SETTLE_MS = 1500;

/**
 * Scroll the container to its end, again and again, with pauses drawn from 0.5–1.5 × the mean,
 * until the number of cards shown has not grown for `stallMs` (DATA_SETTLE_MS once the page's
 * data says all its cards show), a full page (50 organic) shows, or the collection's `maxMs`
 * (counted from its start) runs out.
 */
export async function scrollList(
  env: NaverCollectEnv,
  options: CollectOptions,
  start: number,
  expected: number | null,
): Promise<{ settled: boolean; stopReason: Observation['stopReason'] }> {
  let cards = -1;
  let lastGrowth = env.now();
  for (;;) {
    const dom = readListDom(env.doc);
    const now = env.now();
    if (dom.cardsShown > cards) {
      cards = dom.cardsShown;
      lastGrowth = now;
    }
    if (dom.organicShown >= PAGE_SIZE) return { settled: true, stopReason: 'end' };
    const stall = expected !== null && expected > 0 && dom.organicShown >= expected ? Math.min(options.stallMs, DATA_SETTLE_MS) : options.stallMs;
    if (now - lastGrowth >= stall) return { settled: true, stopReason: 'end' };
    if (now - start >= options.maxMs) return { settled: false, stopReason: 'stalled' };
    const target = scrollTarget(env.doc, dom.container);
    if (target) scrollToEnd(target);
    const raw = env.random();
    const r = Number.isFinite(raw) ? Math.min(Math.max(raw, 0), 1) : 0.5;
    const pause = options.scrollPauseMs * (0.5 + r);
    await env.sleep(Math.max(0, Math.min(pause, options.maxMs - (now - start))));
  }
}

/** `#_pcmap_list_scroll_container` (or m.place's), else the nearest scrollable ancestor of the cards. */
export function scrollTarget(doc: Document, container: Element | null): Element | null {
  const found = container ?? findContainer(doc);
  if (found) return found;
  const card = findCards(doc)[0];
  const view = doc.defaultView;
  for (let el = card?.parentElement ?? null; el && el !== doc.body; el = el.parentElement) {
    const overflow = view?.getComputedStyle(el).overflowY ?? '';
    if (/auto|scroll/.test(overflow) || el.scrollHeight > el.clientHeight + 1) return el;
  }
  return doc.scrollingElement;
}

/**
 * Scroll `el` to its end as a wheel would. The browser fires `scroll` itself when the position
 * changes; when it does not (already at the end while the next batch is on its way, or a DOM
 * without layout), the list's own listener is nudged with a `scroll` event of its own kind.
 */
export function scrollToEnd(el: Element): void {
  const before = el.scrollTop;
  el.scrollTop = el.scrollHeight;
  if (el.scrollTop === before || el.scrollHeight === 0) {
    const EventCtor = el.ownerDocument.defaultView?.Event ?? Event;
    el.dispatchEvent(new EventCtor('scroll'));
  }
}
