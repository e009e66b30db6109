/**
 * The answers Kakao's page got for its list (map.daum's search, B4): which one is the page of the
 * list on screen, the ads it names that a card on screen shows, and the organic places of a
 * visit's pages on which the copies agree. Page content: each only adds what the page shows.
 */
import type { WcongRect } from '../../geo/wcongnamul';
import { listingFromPlace } from '../../listing/from-provider-place';
import type { Listing } from '../../domain/listing';
import { KAKAO_SELECTORS } from './list-dom';
import type { MapDaumPage } from './mapdaum';
import type { KakaoExchange } from './network';
import { agreedRecords } from './observe';
import { parseMapDaumUrl } from './urls';

/** The newest readable answer for a page of the list (its request's `page`). */
export function answerFor(exchanges: readonly KakaoExchange[], page: number): MapDaumPage | null {
  for (let i = exchanges.length - 1; i >= 0; i--) {
    const e = exchanges[i]!;
    if (e.result.kind === 'ok' && parseMapDaumUrl(e.url)?.page === page) return e.result;
  }
  return null;
}

/**
 * Ads (B2: cards with no name link; map.daum's `sourceId: "ad"`): listed flagged sponsored, only
 * when an ad card on screen shows the name the answer gives the ad (the answer alone never adds
 * a place), and only when the same place is not listed organically on this page.
 */
export function adListings(doc: Document, answer: MapDaumPage | null, organicKeys: ReadonlySet<string>): Listing[] {
  if (!answer || answer.ads === 0) return [];
  const adTexts = Array.from(doc.querySelectorAll(KAKAO_SELECTORS.items))
    .filter((li) => !li.querySelector('.head_item .tit_name .link_name'))
    .map((li) => (li.querySelector('.tit_name')?.textContent ?? '').replace(/\s+/g, ' ').trim());
  const out: Listing[] = [];
  for (const p of answer.places) {
    if (!p.sponsored || organicKeys.has(p.key)) continue;
    if (!adTexts.some((t) => t.includes(p.name))) continue;
    out.push(listingFromPlace(p, 'card'));
  }
  return out;
}

/**
 * The organic places of every answer to this rect (the visit's pages so far) on which the
 * copies agree (observe.ts agreedRecords), with this page's own listings: what the rect checks
 * look at once the list is complete. They only ever warn.
 */
export function visitPlaces(exchanges: readonly KakaoExchange[], rect: WcongRect, organic: readonly Listing[]): Listing[] {
  const byKey = new Map(organic.map((l) => [l.key, l]));
  const toRect = exchanges.filter((e) => {
    const r = parseMapDaumUrl(e.url)?.rect;
    return !!r && r.x1 === rect.x1 && r.y1 === rect.y1 && r.x2 === rect.x2 && r.y2 === rect.y2;
  });
  for (const p of agreedRecords(toRect).agreed.values()) if (!byKey.has(p.key)) byKey.set(p.key, listingFromPlace(p, 'page-data'));
  return [...byKey.values()];
}
