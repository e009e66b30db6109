import type { CollectOptions } from '../../messaging/protocol';
import { extractKakaoList, findBoundsControl, KAKAO_SELECTORS, nextPagerAction, pageLinkSelector } from './list-dom';
import { pagesBefore, visit, type KakaoCollectEnv, type Mark } from './collect';

/**
 * Getting a Kakao visit's first page ready (naver-kakao-notes B3): which of the page's own
 * controls is still needed ("현 지도 내 장소검색", "장소 더보기", page 1), pressed one at a time in the
 * driver's turn of the host's lane, and the next page's button. Nothing here navigates.
 */

/** The page's own controls a visit may press before its first page can be read, in this order. */
export type KakaoControl = 'bounds' | 'more' | 'page-1';

/**
 * What one document's sweep visit pressed to get its first page ready. Every cell's search is a
 * page load of its own URL, hence a new document: the content script keeps one per document.
 * Each control is pressed at most once a visit (a tick that does not stay ticked is reported by
 * the collection, not pressed again).
 */
export interface KakaoPreparation {
  pressed: Set<KakaoControl>;
  /** The newest press and the page just before it: its answer is what the next ready check waits for. */
  last: { control: KakaoControl; before: Mark } | null;
}

export function kakaoPreparation(): KakaoPreparation {
  return { pressed: new Set(), last: null };
}

/**
 * Waits (up to `settleMs`) until the page shows what its load or the visit's newest press
 * brought, then says whether a control must still be pressed before page 1 can be read. Never
 * presses anything itself, so it runs outside the pacing lane.
 */
export async function kakaoFirstPageReady(
  env: KakaoCollectEnv,
  options: Pick<CollectOptions, 'settleMs' | 'maxMs'>,
  prep: KakaoPreparation,
): Promise<{ ready: boolean }> {
  const v = visit(env, 0);
  const until = env.now() + Math.min(options.settleMs, options.maxMs);
  const last = prep.last;
  if (!last) await v.waitFor(() => v.decisive(), until);
  // The press's search answered (with a rect or without: a request that carries none is told by the collection).
  else if (last.control === 'bounds') await v.waitFor(() => v.failedSince(last.before) || (v.requestsSince(last.before) > 0 && v.consistent(1)), until);
  else await v.waitFor(() => v.changedSince(last.before, last.control === 'page-1' ? 1 : null), until);
  if (!v.stopped()) await v.quiet(until);
  return { ready: nextControl(v, prep) === null };
}

/**
 * Presses the one control the page needs next (kakaoFirstPageReady said it is not ready). The
 * site searches again: the driver calls this only in its turn of the host's lane, and the answer
 * resolves once that search is over (searchOver), so the turn ends after it, as a page load's does.
 */
export async function pressKakaoControl(env: KakaoCollectEnv, prep: KakaoPreparation): Promise<{ clicked: boolean }> {
  const v = visit(env, 0);
  const next = nextControl(v, prep);
  const el = next?.element ?? null;
  if (!next || !el) return { clicked: false };
  const before = v.mark();
  prep.last = { control: next.control, before };
  prep.pressed.add(next.control);
  el.click();
  await searchOver(env, v, before);
  return { clicked: true };
}

/** pressNextPage in a sweep visit: resolves once the search the turn made is over (searchOver). */
export async function pressKakaoNextPage(env: KakaoCollectEnv): Promise<{ clicked: boolean }> {
  const v = visit(env, 0);
  const before = v.mark();
  const pressed = pressNextPage(env.doc);
  if (pressed.clicked) await searchOver(env, v, before);
  return pressed;
}

/** The longest a press waits for the search it made; a page that re-renders without one is not held longer. */
export const SEARCH_OVER_MS = 5000;

/**
 * Until the browser lists a search sent since `before` as finished (resource timing lists a
 * request when it ends), or an answer failed, or a block: the press's turn in the lane lasts
 * as long as its request, so the next request of the host starts a whole delay after it ended.
 */
export async function searchOver(env: KakaoCollectEnv, v: ReturnType<typeof visit>, before: Mark): Promise<void> {
  await v.waitFor(() => v.requestsSince(before) > 0 || v.failedSince(before), env.now() + SEARCH_OVER_MS);
}

/**
 * The control still to press before page 1 can be read, or null (ready, or stopped by a block).
 * "현 지도 내 장소검색": a toggle that is off, or a button with no state while the newest search
 * carries no rect (pressing it is what searches the map shown); each at most once a visit.
 */
export function nextControl(v: ReturnType<typeof visit>, prep: KakaoPreparation): { control: KakaoControl; element: HTMLElement | null } | null {
  if (v.stopped()) return null;
  const list = v.read();
  const bounds = list.bounds;
  const boundsNeeded = (bounds.kind === 'toggle' && !bounds.on) || (bounds.kind === 'action' && !v.newestRequest()?.rect);
  if (boundsNeeded && !prep.pressed.has('bounds')) return { control: 'bounds', element: findBoundsControl(v.doc).element };
  if (list.pager.moreVisible && !prep.pressed.has('more')) return { control: 'more', element: v.doc.querySelector<HTMLElement>(KAKAO_SELECTORS.more) };
  const one = list.pager.pagerVisible && list.pager.current !== 1 ? list.pager.pages.find((p) => p.page === 1) : undefined;
  if (one && !prep.pressed.has('page-1')) return { control: 'page-1', element: v.doc.querySelector<HTMLElement>(pageLinkSelector(one.slot)) };
  return null;
}

/**
 * Press the list's own control for the next page (nextPagerAction: the next page link of the
 * block, or "다음" to the next block; "장소 더보기" if the list is still in preview). What page it
 * opens is `current + 1`; the next `collect` with `expectPage` waits for it.
 */
export function pressNextPage(doc: Document): { clicked: boolean } {
  const list = extractKakaoList(doc);
  const action = nextPagerAction(list.pager, pagesBefore(list.pager.current + 1));
  if (!action) return { clicked: false };
  const el = doc.querySelector<HTMLElement>(action.selector);
  if (!el) return { clicked: false };
  el.click();
  return { clicked: true };
}
