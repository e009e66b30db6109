/**
 * Whether a place passes a filter. Pure.
 *
 * **A filter never drops a place for a field nobody has read yet; the paid passes find out.**
 * Each test of a filter answers pass, fail or unknown: a rating the page did not show, a review
 * count not read, a website or phone that is null on a record that never carries them (a card,
 * a list answer) is unknown, and unknown is not failure. A place fails only on what is known:
 * so a filtered sweep's place details, contacts and reviews passes still visit the places whose
 * fields they are there to read, and an export drops only what the stored data rules out.
 *
 * When a null website or phone is the site's own "none": the place was read from the site's
 * complete record of it (a source that `FilterContext.completeSources` names for its site:
 * wire it with each provider's `placePages.completeSources`; without it, only the place panel
 * or page, source 'panel', counts).
 */
import type { PlaceFilter } from '../config/settings';
import type { Listing } from '../domain/listing';
import type { ProviderId } from '../domain/place';
import { anyOccurs, wordMatcher, type WordMatcher } from './words';

export type FilterTest = 'category' | 'excludeCategory' | 'excludeName' | 'rating' | 'reviews' | 'website' | 'phone' | 'status';

export type TestResult = 'pass' | 'fail' | 'unknown';

export interface FilterVerdict {
  /** 'unknown' when nothing known fails and some test could not be told. */
  result: TestResult;
  /** The tests that failed (the place is left out for these). */
  failed: FilterTest[];
  /** The tests the place's stored fields cannot answer yet. */
  unknown: FilterTest[];
}

export interface FilterContext {
  /** The listing sources that mean a site's complete record of a place (its nulls are the site's "none"). */
  completeSources?(provider: ProviderId): readonly string[];
  /** Whether the site's place page lists a place's categories (Google's), so a listing without that list has not read it. */
  pageListsCategories?(provider: ProviderId): boolean;
}

/** The place's fields a filter reads. */
export type FilterableListing = Pick<Listing, 'provider' | 'name' | 'category' | 'rating' | 'reviews' | 'website' | 'phone'> &
  Partial<Pick<Listing, 'categories' | 'closed' | 'sources' | 'otherPhones'>>;

const PANEL_ONLY: readonly string[] = ['panel'];

/** Whether the filter leaves any place out at all. */
export function isActive(f: PlaceFilter): boolean {
  return (
    f.categories.length > 0 ||
    f.excludeCategories.length > 0 ||
    f.excludeNames.length > 0 ||
    (f.minRating ?? 0) > 0 ||
    (f.minReviews ?? 0) > 0 ||
    f.website !== 'any' ||
    f.phone !== 'any' ||
    f.status !== 'any'
  );
}

/** A filter's words made matchers once, for many places (compile once, judge each place). */
interface Compiled {
  filter: PlaceFilter;
  categories: WordMatcher[];
  excludeCategories: WordMatcher[];
  excludeNames: WordMatcher[];
}

const compiled = new WeakMap<PlaceFilter, Compiled>();

function compile(f: PlaceFilter): Compiled {
  let c = compiled.get(f);
  if (!c) {
    c = {
      filter: f,
      categories: f.categories.map(wordMatcher),
      excludeCategories: f.excludeCategories.map(wordMatcher),
      excludeNames: f.excludeNames.map(wordMatcher),
    };
    compiled.set(f, c);
  }
  return c;
}

/** The site's own category texts: the category and every category it lists. */
function categoryTexts(l: FilterableListing): string[] {
  const all = [...(l.category ? [l.category] : []), ...(l.categories ?? [])];
  return all.filter((c) => typeof c === 'string' && c.trim() !== '');
}

/** Whether the record the listing was read from says so when it has no website or phone. */
function fromCompleteRecord(l: FilterableListing, ctx: FilterContext | undefined): boolean {
  const complete = ctx?.completeSources?.(l.provider) ?? PANEL_ONLY;
  return Object.values(l.sources ?? {}).some((s) => s !== undefined && (complete.includes(s) || s === 'panel'));
}

const has = (v: unknown) => typeof v === 'string' && v.trim() !== '';

/** Every test of the filter on one place: what failed, what could not be told. */
export function judgePlace(l: FilterableListing, f: PlaceFilter, ctx?: FilterContext): FilterVerdict {
  const c = compile(f);
  const failed: FilterTest[] = [];
  const unknown: FilterTest[] = [];
  const record = (test: FilterTest, r: TestResult) => {
    if (r === 'fail') failed.push(test);
    else if (r === 'unknown') unknown.push(test);
  };

  const categories = categoryTexts(l);
  if (c.categories.length > 0) {
    // Its main category alone, where the place page lists more: a miss may be in the list nobody read yet.
    const unread = !(l.categories && l.categories.length > 0) && (ctx?.pageListsCategories?.(l.provider) ?? false);
    record('category', categories.length === 0 ? 'unknown' : anyOccurs(c.categories, categories) ? 'pass' : unread ? 'unknown' : 'fail');
  }
  if (c.excludeCategories.length > 0)
    record('excludeCategory', categories.length === 0 ? 'unknown' : anyOccurs(c.excludeCategories, categories) ? 'fail' : 'pass');
  if (c.excludeNames.length > 0) record('excludeName', anyOccurs(c.excludeNames, [l.name ?? '']) ? 'fail' : 'pass');

  const minRating = f.minRating ?? 0;
  if (minRating > 0) {
    // A place the site says has no reviews has no rating either: known, and below any minimum.
    const rating = typeof l.rating === 'number' && Number.isFinite(l.rating) ? l.rating : l.reviews === 0 ? 0 : null;
    record('rating', rating === null ? 'unknown' : rating >= minRating ? 'pass' : 'fail');
  }
  const minReviews = f.minReviews ?? 0;
  if (minReviews > 0) {
    const reviews = typeof l.reviews === 'number' && Number.isFinite(l.reviews) ? l.reviews : null;
    record('reviews', reviews === null ? 'unknown' : reviews >= minReviews ? 'pass' : 'fail');
  }

  if (f.website !== 'any' || f.phone !== 'any') {
    const complete = fromCompleteRecord(l, ctx);
    if (f.website !== 'any') {
      const known: boolean | null = has(l.website) ? true : complete ? false : null;
      record('website', known === null ? 'unknown' : known === (f.website === 'has') ? 'pass' : 'fail');
    }
    if (f.phone === 'has') {
      const known: boolean | null = has(l.phone) || (l.otherPhones ?? []).some(has) ? true : complete ? false : null;
      record('phone', known === null ? 'unknown' : known ? 'pass' : 'fail');
    }
  }

  // `closed` absent: no status seen (unknown); null: an open status that says neither.
  if (f.status === 'open-only') record('status', l.closed === undefined ? 'unknown' : l.closed ? 'fail' : 'pass');

  return { result: failed.length > 0 ? 'fail' : unknown.length > 0 ? 'unknown' : 'pass', failed, unknown };
}

/**
 * True when the place passes every test the stored data can answer (some may be unknown yet):
 * the place is kept, counted, exported and worth the paid passes.
 */
export function passes(l: FilterableListing, f: PlaceFilter, ctx?: FilterContext): boolean {
  if (!isActive(f)) return true;
  return judgePlace(l, f, ctx).result !== 'fail';
}

/** A known field rules the place out: `!passes`. */
export function fails(l: FilterableListing, f: PlaceFilter, ctx?: FilterContext): boolean {
  return !passes(l, f, ctx);
}
