import { CAP_MARGIN } from '../grid/decide';
import type { CollectOptions } from '../messaging/protocol';
import type { MapProvider } from '../providers/types';
import { renewLease } from '../queue';
import { unknownPageFailure } from './judge';
import { saysCrowded, siteTotalTrust } from './site-total';
import type { Cell, CellError, Observation } from '../domain/sweep';
import { combinePages } from './pages';
import { COLLECT_TIMEOUT_MS, LEASE_MARGIN_MS, type DriverDeps } from './driver-deps';

/**
 * Visits of sites that list a search over several pages (Naver, Kakao): each page turn a paced
 * request of its own, in the host's lane, with the lease renewed; the first page prepared as the
 * site needs (Kakao's controls), the pages combined by pages.ts.
 */

/**
 * 'lost': the cell is no longer this loop's (its lease ran out and another loop took it);
 * 'stopped': the sweep is not running any more. Either way nothing of the visit is kept.
 */
export type VisitCut = 'lost' | 'stopped';

export type PagedVisit = { observation: Observation } | Omit<CellError, 'url'> | VisitCut;

/**
 * A request of a visit after its page load (a page turn, a control pressed): it waits its turn in
 * the host's pacing lane like a load, and is not made once the sweep stopped running (paused by
 * the user, or by another worker that met a captcha; stopped; failed) or the cell is no longer
 * this loop's. The lease is renewed for what follows the request.
 */
export async function pacedRequest<T>(deps: DriverDeps, provider: MapProvider, cell: Cell, holder: string, request: () => Promise<T>): Promise<T | VisitCut> {
  const release = await deps.pacer.acquire(provider.laneUrl);
  try {
    if ((await deps.store.getSweep(cell.sweepId))?.status !== 'running') return 'stopped';
    const renewed = await renewLease(deps.store, { cellId: cell.id, holder, now: deps.now(), leaseMs: COLLECT_TIMEOUT_MS + LEASE_MARGIN_MS });
    if (!renewed) return 'lost';
    return await request();
  } finally {
    release();
  }
}

/**
 * A list whose first page needs some of the page's own controls pressed before it can be read
 * (provider.firstPageControls): each press makes the site search again, so each is a paced
 * request; the page is waited for outside the lane. After the last press the page is waited for
 * too: a collection at once could read the list from before the press.
 */
export async function prepareFirstPage(
  deps: DriverDeps,
  provider: MapProvider,
  cell: Cell,
  tabId: number,
  holder: string,
  options: CollectOptions,
): Promise<'ready' | VisitCut> {
  const firstPage = deps.page.firstPage;
  const controls = provider.firstPageControls ?? 0;
  if (!firstPage || controls === 0) return 'ready';
  for (let pressed = 0; !(await firstPage.ready(tabId, options, COLLECT_TIMEOUT_MS)); pressed++) {
    // A page that still asks after every control was pressed: the collection says what is off.
    if (pressed === controls) break;
    const press = await pacedRequest(deps, provider, cell, holder, () => firstPage.press(tabId));
    if (press === 'lost' || press === 'stopped') return press;
    if (!press.clicked) break;
  }
  return 'ready';
}

/**
 * A paged list (Naver, Kakao) is walked to its end inside one visit: the page's own next
 * control is pressed, as a person would, and the new page read. Every page is a request to the
 * site, so each is a paced request (pacedRequest: its turn in the host's lane, the lease renewed,
 * and no turn once the sweep is paused, stopped or failed). The pages then count as one
 * observation (utils/sweep/pages.ts).
 */
export async function walkPages(
  deps: DriverDeps,
  provider: MapProvider,
  cell: Cell,
  tabId: number,
  holder: string,
  first: Observation,
  options: CollectOptions,
  /** The cell would be split if crowded: a crowded list's other pages may then go unread. */
  splittable: () => Promise<boolean>,
): Promise<PagedVisit> {
  // A visit's list starts on its first page: a list that opened on a later page (the site kept
  // the page of an earlier search, a control pressed twice) would end without the pages before.
  if (first.pageKind === 'results' && first.pager && first.pager.page !== 1) {
    return { kind: 'navigation', message: `The list opened on page ${first.pager.page}, not on its first page.`, at: deps.now() };
  }
  const pages = [first];
  // One page more than the cap needs: a site that offers pages past its cap shows it as capped.
  const maxPages = provider.pageSize ? Math.ceil(provider.planner.cap / provider.pageSize) + 1 : 1;
  const crowdedAt = provider.planner.cap - CAP_MARGIN;
  let trusted: boolean | undefined;
  let last = first;
  while (last.pageKind === 'results' && last.pager?.more && pages.length < maxPages) {
    if (provider.siteTotal && saysCrowded(last.siteTotal, crowdedAt)) {
      // The page counts more matches than a list can hold: the cell will be split whatever the
      // remaining pages show (utils/sweep/site-total.ts), where the provider's count is believed.
      // A cell that cannot be split keeps what its list holds (saturated): every page is read then,
      // whatever the count says, so a count (page content) never makes the sweep collect less.
      trusted ??= (await splittable()) && (provider.siteTotal === 'as-capped' || siteTotalTrust(await deps.store.listCells(cell.sweepId, 'done')).trusted);
      if (trusted) {
        const observation = combinePages(pages);
        return {
          observation: {
            ...observation,
            capHit: true,
            stopReason: 'cap',
            warnings: [
              ...observation.warnings,
              `site-total: the page counts ${last.siteTotal} matches, more than a list holds; split without reading its other pages`,
            ],
          },
        };
      }
    }
    const nextPage = deps.page.nextPage;
    if (!nextPage) return { kind: 'internal', message: 'This browser glue cannot turn the pages of a list.', at: deps.now() };
    const turn = await pacedRequest(deps, provider, cell, holder, () => nextPage(tabId));
    if (turn === 'lost' || turn === 'stopped') return turn;
    if (!turn.clicked) return { kind: 'navigation', message: `The list's next-page control did not respond on page ${last.pager.page}.`, at: deps.now() };
    const asked = last.pager.page + 1;
    last = await deps.page.collect(tabId, { ...options, expectPage: asked }, COLLECT_TIMEOUT_MS);
    // A page that did not show after the turn (its request failed, or the list kept the old
    // page) leaves the visit unfinished: a retry of the cell. Cards shown and none read is the
    // extractor's, as on page 1 (judge.ts). A block page pauses the sweep like any other (through the judge).
    if (last.pageKind === 'unknown') return { ...unknownPageFailure(last, `Page ${asked} of the list`), at: deps.now() };
    // Page n+1 and no other after page n: a turn that skipped a page (or went back) would let
    // the list end without the pages between, and the cell be proven on a part of its list.
    if (!last.pager || last.pager.page !== asked) {
      return {
        kind: 'navigation',
        message: `The list's next-page control showed ${last.pager ? `page ${last.pager.page}` : 'no page number'} instead of page ${asked}.`,
        at: deps.now(),
      };
    }
    pages.push(last);
  }
  return { observation: combinePages(pages) };
}
