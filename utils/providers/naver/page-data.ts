/**
 * The isolated world's half of the pcmap hook (network-hook.ts): the list page's own GraphQL (and
 * allSearch) answers, copied from the page's world, read into ProviderPlace field sets keyed by
 * place, and joined to the cards the DOM showed.
 *
 * Trust rule (in full in utils/listing/merge-fields.ts): what comes through here is page content,
 * as trustworthy as the DOM's text and no more. Each item passes the valibot shape below and the
 * same field readers as the Apollo state (fields.ts); it may then only fill fields of a place whose
 * id the DOM showed on this page and that the embedded state did not describe. It never adds a
 * place, never changes what the page counts (cards, pages, the end, the cap) and never judges a
 * sweep. An item whose name contradicts the card's for the same id, or two copies of one place
 * that disagree, are dropped and counted.
 */
import * as v from 'valibot';
import type { Listing } from '../../domain/listing';
import { SOURCED_FIELDS } from '../../domain/listing';
import type { ProviderPlace } from '../../domain/place';
import { placeFromAllSearchItem } from './allsearch';
import { parseJsonBody } from './allsearch';
import { placeFromListItem } from './apollo';
import { detectNaverBlock } from './block';
import { cleanText, isRecord, TEXT_LIMITS } from './fields';
import type { NaverHookMessage } from './network-hook';
import { PIN_TOLERANCE_DEG } from '../../listing/contradiction';

// ---------------------------------------------------------------------------------------------
// Shapes (A6 for GraphQL list items, A5 for allSearch items). Loose objects: Naver adds fields
// freely; every field read is declared here with its type and bound, and one present with a wrong
// type or past its bound refuses the item, as a forged or changed item should be.
// ---------------------------------------------------------------------------------------------

const Id = v.union([v.pipe(v.string(), v.regex(/^s?[1-9]\d{4,11}$/)), v.pipe(v.number(), v.integer(), v.minValue(10_000), v.maxValue(999_999_999_999))]);
const Text = (max: number) => v.nullish(v.pipe(v.string(), v.maxLength(max)));
/** `"126.9716020"` or a number; the range is checked on the pair (fields.ts parseCoordinates). */
const Coordinate = v.nullish(v.union([v.pipe(v.string(), v.maxLength(24)), v.number()]));
/** `"1,022"`, `3559`, `"4.49"`, `"999+"`: read by fields.ts, which returns null for what it cannot vouch for. */
const Figure = v.nullish(v.union([v.pipe(v.string(), v.maxLength(20)), v.number()]));
const Category = v.nullish(
  v.union([v.pipe(v.string(), v.maxLength(TEXT_LIMITS.category)), v.pipe(v.array(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.category))), v.maxLength(8))]),
);

/** One item of a GraphQL list answer (getPlacesList `businesses.items[]`, getRestaurants `restaurants.items[]`). */
export const GraphqlListItem = v.looseObject({
  id: Id,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(TEXT_LIMITS.name)),
  category: Category,
  x: Coordinate,
  y: Coordinate,
  roadAddress: Text(TEXT_LIMITS.address),
  address: Text(TEXT_LIMITS.address),
  commonAddress: Text(TEXT_LIMITS.address),
  fullAddress: Text(TEXT_LIMITS.address),
  phone: Text(TEXT_LIMITS.phone),
  virtualPhone: Text(TEXT_LIMITS.phone),
  bookingUrl: Text(TEXT_LIMITS.url),
  naverBookingUrl: Text(TEXT_LIMITS.url),
  homePage: Text(TEXT_LIMITS.url),
  visitorReviewCount: Figure,
  visitorReviewScore: Figure,
  adId: v.nullish(v.union([v.pipe(v.string(), v.maxLength(200)), v.number()])),
  adDescription: Text(500),
});

/** One item of allSearch's `result.place.list[]`. */
export const AllSearchItem = v.looseObject({
  id: Id,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(TEXT_LIMITS.name)),
  display: Text(TEXT_LIMITS.name * 2),
  category: Category,
  address: Text(TEXT_LIMITS.address),
  roadAddress: Text(TEXT_LIMITS.address),
  tel: Text(TEXT_LIMITS.phone),
  telDisplay: Text(TEXT_LIMITS.phone),
  virtualTel: Text(TEXT_LIMITS.phone),
  x: Coordinate,
  y: Coordinate,
  homePage: Text(TEXT_LIMITS.url),
  naverBookingUrl: Text(TEXT_LIMITS.url),
  placeReviewCount: Figure,
  adId: v.nullish(v.union([v.pipe(v.string(), v.maxLength(200)), v.number()])),
});

/** A list in an answer: `{total, items[]}` (at most a few hundred items: a page is 50, display ≤ 100). */
const ItemList = v.looseObject({
  total: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1e7))),
  items: v.pipe(v.array(v.unknown()), v.maxLength(500)),
});

/** GraphQL list roots (A6): `businesses`, `restaurants`, `places`, …, possibly as `{businesses: {total, items}}`. */
const GRAPHQL_ROOTS = ['businesses', 'restaurants', 'places', 'hospitals', 'accommodations', 'attractions', 'nxPlaces'] as const;

export interface AnswerRead {
  kind: 'ok' | 'blocked' | 'malformed';
  /** Items that passed the shape and the field readers (organic and ads). */
  places: ProviderPlace[];
  /** Items refused by the shape, or without a readable id or name. */
  refused: number;
}

/** The items of one GraphQL answer (a JSON array of operation results, or one result). */
export function readGraphqlAnswer(body: string, status: number | null = null): AnswerRead {
  const parsed = parseJsonBody(body);
  if (detectNaverBlock({ status: status === 405 ? 429 : status, text: parsed?.text ?? '', json: parsed?.json }))
    return { kind: 'blocked', places: [], refused: 0 };
  const json = parsed?.json;
  const answers = Array.isArray(json) ? json.slice(0, 20) : [json];
  const lists: unknown[][] = [];
  for (const answer of answers) {
    const data = isRecord(answer) && isRecord(answer.data) ? answer.data : null;
    if (!data) continue;
    for (const root of GRAPHQL_ROOTS) {
      let list = data[root];
      if (isRecord(list) && isRecord(list.businesses)) list = list.businesses;
      const read = v.safeParse(ItemList, list);
      if (read.success) lists.push(read.output.items);
    }
  }
  if (lists.length === 0) return { kind: 'malformed', places: [], refused: 0 };
  return readItems(lists.flat(), GraphqlListItem, (item) => placeFromListItem(item));
}

/** The items of one allSearch answer (`result.place.list[]`). */
export function readAllSearchAnswer(body: string, status: number | null = null): AnswerRead {
  const parsed = parseJsonBody(body);
  if (detectNaverBlock({ status, text: parsed?.text ?? '', json: parsed?.json })) return { kind: 'blocked', places: [], refused: 0 };
  const json = parsed?.json;
  const result = isRecord(json) && isRecord(json.result) ? json.result : null;
  if (result && (result.place === null || result.place === undefined)) return { kind: 'ok', places: [], refused: 0 };
  const place = result && isRecord(result.place) ? result.place : null;
  const list = place && Array.isArray(place.list) && place.list.length <= 500 ? place.list : null;
  if (!list) return { kind: 'malformed', places: [], refused: 0 };
  return readItems(list, AllSearchItem, (item) => placeFromAllSearchItem(item));
}

function readItems<S extends v.GenericSchema<unknown, Record<string, unknown>>>(
  items: unknown[],
  schema: S,
  read: (item: Record<string, unknown>) => ProviderPlace | string,
): AnswerRead {
  const places: ProviderPlace[] = [];
  let refused = 0;
  for (const item of items) {
    const checked = v.safeParse(schema, item);
    const place = checked.success ? read(checked.output as Record<string, unknown>) : 'shape';
    if (typeof place === 'string') refused++;
    else places.push(place);
  }
  return { kind: 'ok', places, refused };
}

// ---------------------------------------------------------------------------------------------
// The store: what the page's answers said, per place, for this document.
// ---------------------------------------------------------------------------------------------

/** What the answers copied since the last `take()` amounted to. */
export interface PageDataTally {
  /** Answers read (GraphQL or allSearch), blocked and malformed ones included. */
  answers: number;
  blocked: number;
  malformed: number;
  /** Items refused by the shape check or the field readers. */
  refusedItems: number;
  /** Messages that claimed to be the hook's and were refused (wrong window, origin or envelope). */
  refusedMessages: number;
  /** Places whose copies disagreed (name or pin): neither is believed. */
  conflicts: number;
  /** Organic places first described since the last take. */
  keys: string[];
}

export interface NaverPageData {
  /** One copied answer (already checked for its envelope and its window by the caller). */
  accept(message: NaverHookMessage): void;
  /** A message that claimed to be the hook's and was not accepted. */
  refuse(): void;
  /** The organic place the answers describe for `key`; 'conflict' when copies disagreed. */
  get(key: string): ProviderPlace | 'conflict' | undefined;
  /** Answers accepted so far (for a quiet wait). */
  received(): number;
  /** Counts since the previous take (the first: since the document started), then reset. */
  take(): PageDataTally;
}

/** More places than any list shows in one document: past it, someone is flooding us. */
export const MAX_PAGE_DATA_PLACES = 5000;

export function createNaverPageData(limit = MAX_PAGE_DATA_PLACES): NaverPageData {
  const places = new Map<string, ProviderPlace | 'conflict'>();
  let received = 0;
  let tally = emptyTally();
  return {
    accept(m) {
      received++;
      tally.answers++;
      const read = m.kind === 'graphql' ? readGraphqlAnswer(m.body, m.status) : readAllSearchAnswer(m.body, m.status);
      if (read.kind === 'blocked') tally.blocked++;
      if (read.kind === 'malformed') tally.malformed++;
      tally.refusedItems += read.refused;
      for (const place of read.places) {
        // Ads are the DOM's and the state's to describe (adBusinesses): an answer item is an organic result.
        if (place.sponsored) continue;
        const seen = places.get(place.key);
        if (seen === undefined) {
          if (places.size >= limit) continue;
          places.set(place.key, place);
          tally.keys.push(place.key);
        } else if (seen !== 'conflict' && !samePlace(seen, place)) {
          places.set(place.key, 'conflict');
          tally.conflicts++;
        }
      }
    },
    refuse() {
      tally.refusedMessages++;
    },
    get: (key) => places.get(key),
    received: () => received,
    take() {
      const t = tally;
      tally = emptyTally();
      return t;
    },
  };
}

function emptyTally(): PageDataTally {
  return { answers: 0, blocked: 0, malformed: 0, refusedItems: 0, refusedMessages: 0, conflicts: 0, keys: [] };
}

/** Two copies describe the same place: the same name and, when both give one, the same pin. */
function samePlace(a: ProviderPlace, b: ProviderPlace): boolean {
  if (comparableName(a.name) !== comparableName(b.name)) return false;
  if (a.lat !== null && a.lng !== null && b.lat !== null && b.lng !== null) {
    return Math.abs(a.lat - b.lat) <= PIN_TOLERANCE_DEG && Math.abs(a.lng - b.lng) <= PIN_TOLERANCE_DEG;
  }
  return true;
}

/**
 * A name as compared: cleaned as every Naver text is, NFC, case and spacing ignored. Stricter on
 * spacing than utils/listing/contradiction.ts: two copies of Naver's own data differ at most in
 * spacing (the list and the place state write "카페 모모" and "카페모모" alike).
 */
export function comparableName(name: string): string {
  return (cleanText(name, TEXT_LIMITS.name * 2) ?? '').normalize('NFC').toLocaleLowerCase().replace(/\s+/g, '');
}

// ---------------------------------------------------------------------------------------------
// The join: page data fills the fields a card (without state data) lacks.
// ---------------------------------------------------------------------------------------------

/** Fields page data may fill where the card has none; the card's id, name and ad flag always stay (its category too, when it shows one). */
const FILLABLE = ['address', 'roadAddress', 'phone', 'virtualPhone', 'bookingUrl', 'website', 'reviews', 'rating'] as const;

export interface PageDataJoin {
  /** The places, in order, each filled from the page data where that agreed. */
  places: ProviderPlace[];
  /** Keys of places that gained from page data. */
  filled: Set<string>;
  /** Places whose page data was dropped: it contradicted the card, or its copies disagreed. */
  dropped: number;
  reasons: { name?: number; conflict?: number };
}

/**
 * Each place the DOM showed (organic, read from its card because the state did not describe it:
 * `needs`) with the fields the page data gives for its id and the card lacks. A name that is not
 * the card's, or copies that disagreed, drop that place's page data (counted once per place).
 */
export function joinNaverPageData(places: readonly ProviderPlace[], needs: (p: ProviderPlace) => boolean, data: Pick<NaverPageData, 'get'>): PageDataJoin {
  const filled = new Set<string>();
  const droppedKeys = new Set<string>();
  const reasons: PageDataJoin['reasons'] = {};
  const out = places.map((place) => {
    if (place.sponsored || !needs(place)) return place;
    const record = data.get(place.key);
    if (record === undefined) return place;
    const why = record === 'conflict' ? 'conflict' : comparableName(record.name) !== comparableName(place.name) ? 'name' : null;
    if (why) {
      if (!droppedKeys.has(place.key)) reasons[why] = (reasons[why] ?? 0) + 1;
      droppedKeys.add(place.key);
      return place;
    }
    const r = record as ProviderPlace;
    const next: ProviderPlace = { ...place };
    let gained = false;
    for (const f of FILLABLE) {
      if (next[f] === null && r[f] !== null) {
        (next as unknown as Record<string, unknown>)[f] = r[f];
        gained = true;
      }
    }
    if (next.category === null && r.category !== null) {
      next.category = r.category;
      next.categoryPath = [...r.categoryPath];
      gained = true;
    }
    if (next.lat === null && next.lng === null && r.lat !== null && r.lng !== null) {
      next.lat = r.lat;
      next.lng = r.lng;
      gained = true;
    }
    if (gained) filled.add(place.key);
    return next;
  });
  return { places: out, filled, dropped: droppedKeys.size, reasons };
}

/**
 * The listing of a place read from its card, with the fields page data filled stamped 'page-data'
 * and the rest 'card' (`card` is the place as the card alone gave it).
 */
export function listingWithPageData(card: ProviderPlace, filled: ProviderPlace, toListing: (p: ProviderPlace, source: 'card') => Listing): Listing {
  const before = toListing(card, 'card');
  const after = toListing(filled, 'card');
  const sources = { ...after.sources };
  for (const f of SOURCED_FIELDS) {
    const a = (after as unknown as Record<string, unknown>)[f];
    if (a === undefined || a === null) continue;
    if (JSON.stringify(a) !== JSON.stringify((before as unknown as Record<string, unknown>)[f])) sources[f] = 'page-data';
  }
  return { ...after, sources };
}

/** The warnings an observation carries about the page data it used (counts only; they judge nothing). */
export function pageDataWarnings(join: PageDataJoin | null, tally: PageDataTally, shownKeys: ReadonlySet<string>): string[] {
  const w: string[] = [];
  if (join && join.dropped > 0) {
    const why = Object.entries(join.reasons)
      .map(([reason, n]) => `${n} ${reason}`)
      .join(', ');
    w.push(`naver-page-data-dropped: page data dropped for ${join.dropped} place(s): it contradicts the page (${why})`);
  }
  if (tally.refusedMessages > 0)
    w.push(`naver-page-data-refused: ${tally.refusedMessages} message(s) claiming to be the page's answers were refused (window, origin or shape)`);
  if (tally.refusedItems > 0) w.push(`naver-page-data-items-refused: ${tally.refusedItems} item(s) in the page's answers failed the shape check`);
  if (tally.conflicts > 0) w.push(`naver-page-data-conflict: ${tally.conflicts} place(s) described twice, differently`);
  if (tally.blocked > 0) w.push(`naver-page-data-blocked: ${tally.blocked} of the page's answers were a block`);
  if (tally.malformed > 0) w.push(`naver-page-data-malformed: ${tally.malformed} of the page's answers held no list`);
  const unused = tally.keys.filter((k) => !shownKeys.has(k)).length;
  if (unused > 0) w.push(`naver-page-data-unused: ${unused} place(s) in the page's answers that this page did not show (never added)`);
  return w;
}
