import type { Listing } from '../../domain/listing';
import { appStateFromDocument } from './app-state';
import { checkPin, makeListing, TEXT_LIMITS, unwrapLink, type ResolvedIds } from './fields';
import { resolveIds } from './ids';
import { boundedText, cleanText, isStarLabel, parseParenthesisedCount, parseRatingLabel, parseReviewCount } from './labels';
import { parsePlaceUrl } from './urls';

/**
 * The single-place panel (spec §1.6): shown after a single-result redirect, or when a place
 * is opened from the list.
 */

/**
 * The panel: a `div[role=main]` holding a name heading and no feed. It must carry the
 * place's name as aria-label, unless the URL is a place URL (then any main with an h1).
 */
export function findPlacePanel(doc: ParentNode, url?: string | null): Element | null {
  const placeUrl = !!url && /\/maps\/place\//.test(url);
  for (const main of doc.querySelectorAll('[role="main"]')) {
    if (main.querySelector('[role="feed"]')) continue;
    if (!nameHeading(main)) continue;
    if (main.hasAttribute('aria-label') || placeUrl) return main;
  }
  return null;
}

/**
 * The place the panel shows, or null when there is no panel, it is still swapping to
 * another place, or nothing identifies it.
 *
 * Ids come from, in order: the page URL (`pageUrl`, else `doc.location`), the page's
 * APP_INITIALIZATION_STATE when it names the same place, or the one feature id the panel's
 * own links mention.
 */
export function extractPlacePanel(doc: Document, pageUrl?: string | null): Listing | null {
  const url = pageUrl ?? doc.location?.href ?? null;
  const panel = findPlacePanel(doc, url);
  const heading = panel ? nameHeading(panel) : null;
  if (!panel || !heading) return null;
  const name = boundedText(heading.textContent, TEXT_LIMITS.name);
  if (!name) return null;
  // The aria-label switches to the new name only once the panel has finished swapping;
  // before that the heading may still show the previous place.
  const label = panel.getAttribute('aria-label');
  if (label !== null && cleanText(label) !== name) return null;

  const where = locate(doc, panel, name, url);
  if (!where) return null;
  const rating = readPanelRating(panel, heading);
  return makeListing(
    where.ids,
    {
      name,
      category: boundedText(panel.querySelector('button[jsaction*=".category"], button.DkEaL')?.textContent, TEXT_LIMITS.category),
      address: readItem(panel.querySelector('[data-item-id="address"]'), TEXT_LIMITS.address),
      phone: readPhone(panel),
      website: unwrapLink(panel.querySelector('a[data-item-id="authority"][href]')?.getAttribute('href')),
      rating: rating.rating,
      reviews: rating.reviews,
      lat: where.lat,
      lng: where.lng,
      sponsored: false,
    },
    'panel',
  );
}

function nameHeading(panel: Element): Element | null {
  const preferred = panel.querySelector('h1.DUwDvf');
  if (preferred && cleanText(preferred.textContent)) return preferred;
  for (const h1 of panel.querySelectorAll('h1')) {
    if (h1.closest('[role="feed"]') || h1.getAttribute('aria-label') === 'Sponsored') continue;
    if (cleanText(h1.textContent)) return h1;
  }
  return null;
}

interface Location {
  ids: ResolvedIds;
  lat: number | null;
  lng: number | null;
}

function locate(doc: Document, panel: Element, name: string, url: string | null): Location | null {
  const fromUrl = url ? parsePlaceUrl(url) : null;
  // The state describes the page as first loaded: only trust it for the place it names.
  const state = appStateFromDocument(doc);
  const stateMatches = !!state && !!state.name && sameName(state.name, name);
  const statePin = stateMatches ? checkPin(state.lat, state.lng) : null;

  if (fromUrl?.key && fromUrl.cid) {
    const pin = checkPin(fromUrl.lat, fromUrl.lng) ?? statePin;
    return {
      ids: { key: fromUrl.key, cid: fromUrl.cid, featureId: fromUrl.featureId, placeId: fromUrl.placeId },
      lat: pin?.lat ?? null,
      lng: pin?.lng ?? null,
    };
  }
  if (stateMatches) return { ids: state.ids, lat: statePin?.lat ?? null, lng: statePin?.lng ?? null };

  const linked = soleLinkedFeatureId(panel);
  const ids = linked ? resolveIds({ featureId: linked }) : null;
  return ids ? { ids, lat: null, lng: null } : null;
}

function sameName(a: string, b: string): boolean {
  return cleanText(a).toLowerCase() === cleanText(b).toLowerCase();
}

/**
 * Panel links (booking, menu) carry the panel's own `!1s0x…:0x…` in their source URL.
 * Only one distinct id counts: two would mean links to other places.
 */
function soleLinkedFeatureId(panel: Element): string | null {
  const found = new Set<string>();
  for (const a of panel.querySelectorAll('a[href*="0x"]')) {
    let href = a.getAttribute('href') ?? '';
    try {
      href = decodeURIComponent(href);
    } catch {
      // keep the raw href
    }
    for (const m of href.matchAll(/!1s(0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16})/gi)) found.add(m[1]!.toLowerCase());
  }
  return found.size === 1 ? [...found][0]! : null;
}

/** `div.F7nice` reads "4.7(8,713)"; its star image says "4.7 stars". */
function readPanelRating(panel: Element, heading: Element): { rating: number | null; reviews: number | null } {
  const f7nice = panel.querySelector('.F7nice');
  const box = f7nice ?? headerWithStars(heading, panel);
  if (!box) return { rating: null, reviews: null };
  // "4.7 stars", "별표 4.7개", "4,7 étoiles": the star image in any language.
  const stars = [...box.querySelectorAll('[role="img"][aria-label]')].find((img) => isStarLabel(img.getAttribute('aria-label')));
  const fromLabel = stars ? parseRatingLabel(stars.getAttribute('aria-label')) : null;
  // Only F7nice's text is rating-and-count alone; a wider header also holds the name.
  const fromText = f7nice ? parseRatingLabel(f7nice.textContent) : null;
  const rating = fromLabel?.rating ?? fromText?.rating ?? null;
  let reviews = fromText?.reviews ?? fromLabel?.reviews ?? null;
  for (const el of box.querySelectorAll('[aria-label], span')) {
    if (reviews !== null) break;
    if (el === stars || el.childElementCount > 0) continue;
    reviews = parseParenthesisedCount(el.textContent) ?? parseReviewCount(el.getAttribute('aria-label'));
  }
  return { rating, reviews };
}

/** Without F7nice: the nearest block around the heading (up to 3 levels) with a star image. */
function headerWithStars(heading: Element, panel: Element): Element | null {
  let el: Element | null = heading.parentElement;
  for (let depth = 0; el && el !== panel && depth < 3; depth++, el = el.parentElement) {
    if ([...el.querySelectorAll('[role="img"][aria-label]')].some((img) => isStarLabel(img.getAttribute('aria-label')))) return el;
  }
  return null;
}

/** An info row's text (`div.Io6YTe`), else its own text, else its aria-label after "Address: ". */
function readItem(item: Element | null, max: number): string | null {
  if (!item) return null;
  return (
    boundedText(item.querySelector('.Io6YTe')?.textContent, max) ??
    boundedText(item.textContent, max) ??
    boundedText((item.getAttribute('aria-label') ?? '').replace(/^[^:]*:\s*/, ''), max)
  );
}

function readPhone(panel: Element): string | null {
  const item = panel.querySelector('[data-item-id^="phone:tel:"]');
  if (!item) return null;
  return readItem(item, TEXT_LIMITS.phone) ?? boundedText(item.getAttribute('data-item-id')?.slice('phone:tel:'.length), TEXT_LIMITS.phone);
}
