import type { Listing } from '../../domain/listing';
import { mergeListingFields } from '../../listing/merge-fields';
import { contradiction, type Contradiction } from '../../listing/contradiction';

/**
 * Joining page data (places read from the site's own JSON: search responses copied from the
 * page's world, the place page's state) to the listings the DOM showed on the same page.
 *
 * The trust rule (utils/listing/merge-fields.ts): page data is page content. It fills fields
 * of a place the DOM showed, never adds a place, and is dropped, whole, when it contradicts
 * the DOM about that place. The judge and the audit never see page data except the count
 * of records dropped here.
 */

export interface PageDataJoin {
  /** The DOM's listings, in order, each filled from its page data where that agreed. */
  listings: Listing[];
  /** Listings that gained from page data. */
  filled: number;
  /** Page-data records dropped: they contradicted the DOM, or their copies contradicted each other. */
  dropped: number;
  reasons: Partial<Record<Contradiction | 'copies disagree', number>>;
}

/** What page data the content script holds for a page: one record per key, or a conflict. */
export interface PageDataLookup {
  get(key: string): Listing | 'conflict' | undefined;
}

/**
 * Each DOM listing (sponsored ones too: they are dropped later, and must not be counted twice)
 * filled from the page's record for its key. Every contradicting record is counted once per
 * page, however many cards show its place.
 */
export function joinPageData(dom: readonly Listing[], data: PageDataLookup): PageDataJoin {
  const reasons: PageDataJoin['reasons'] = {};
  const droppedKeys = new Set<string>();
  let filled = 0;
  const listings = dom.map((listing) => {
    const record = data.get(listing.key);
    if (record === undefined) return listing;
    const why = record === 'conflict' ? 'copies disagree' : contradiction(listing, record);
    if (why !== null) {
      if (!droppedKeys.has(listing.key)) reasons[why] = (reasons[why] ?? 0) + 1;
      droppedKeys.add(listing.key);
      return listing;
    }
    if (listing.sponsored) return listing;
    filled++;
    // The DOM's name, ids, pin and link stay: page data only adds to what the page showed.
    const merged = mergeListingFields(listing, record as Listing);
    return { ...merged, name: listing.name, url: listing.url, lat: listing.lat ?? merged.lat, lng: listing.lng ?? merged.lng, sponsored: listing.sponsored };
  });
  return { listings, filled, dropped: droppedKeys.size, reasons };
}

/** A lookup over a list of records (the place page's state; tests). Two differing copies of one key are a conflict. */
export function pageDataLookup(records: readonly Listing[]): PageDataLookup {
  const store = createPageDataStore();
  for (const r of records) store.add(r);
  return store;
}

/** The first lookup that knows a key answers for it. */
export function firstOf(...lookups: PageDataLookup[]): PageDataLookup {
  return { get: (key) => lookups.map((l) => l.get(key)).find((r) => r !== undefined) };
}

export interface PageDataStore extends PageDataLookup {
  /** Keeps the first record per key; a later copy that differs marks the key as a conflict. */
  add(record: Listing): void;
  readonly size: number;
}

/** More places than any page shows: past it, someone is flooding us and later records are ignored. */
export const MAX_PAGE_DATA = 5000;

export function createPageDataStore(limit = MAX_PAGE_DATA): PageDataStore {
  const records = new Map<string, Listing | 'conflict'>();
  return {
    add(record) {
      const seen = records.get(record.key);
      if (seen === undefined) {
        if (records.size < limit) records.set(record.key, record);
        return;
      }
      // Two copies of one place that say different things: a forged one among them, or the
      // page changed its mind. Neither is believed.
      if (seen !== 'conflict' && !sameRecord(seen, record)) records.set(record.key, 'conflict');
    },
    get: (key) => records.get(key),
    get size() {
      return records.size;
    },
  };
}

function sameRecord(a: Listing, b: Listing): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
