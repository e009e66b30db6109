/**
 * Filters (issue 40, utils/filters): which places pass. Korean and English category words on the
 * site's own category text and list, names left out, the numbers, website, phone and closed
 * status; and the rule the passes rely on: a field nobody has read yet never drops a place.
 */
import { describe, expect, it } from 'vitest';
import { NO_FILTER, type PlaceFilter } from '../../utils/config/settings';
import type { StoredListing } from '../../utils/domain/listing';
import { describeFilter, fails, filterFileWords, isActive, judgePlace, passes } from '../../utils/filters';
import { storedListing } from '../helpers/listings';

const filter = (over: Partial<PlaceFilter>): PlaceFilter => ({ ...NO_FILTER, ...over });

/** A place read from a list card: no sources, so a null website or phone is not known. */
const card = (over: Partial<StoredListing> = {}): StoredListing => storedListing(1, { website: null, phone: null, ...over });
/** A place read from the site's place panel: its nulls are the site's own "none". */
const panel = (over: Partial<StoredListing> = {}): StoredListing => card({ sources: { category: 'panel', address: 'panel' }, ...over });

describe('category words: the site’s own text, Korean by substring, Latin by whole word', () => {
  const table: [string, Partial<StoredListing>, Partial<PlaceFilter>, boolean][] = [
    ['Korean word in a Korean category', { category: '카페' }, { categories: ['카페'] }, true],
    ['Korean word inside a compound (북카페)', { category: '북카페' }, { categories: ['카페'] }, true],
    ['Korean word in the categories list only', { category: '음식점', categories: ['음식점', '카페,디저트'] }, { categories: ['카페'] }, true],
    ['Korean word not there', { category: '한식' }, { categories: ['카페'] }, false],
    ['English word, other case', { category: 'Coffee Shop' }, { categories: ['coffee shop'] }, true],
    ['English word, full-width letters typed', { category: 'Cafe' }, { categories: ['ＣＡＦＥ'] }, true],
    ['English word, accent on the site’s side', { category: 'Café' }, { categories: ['cafe'] }, true],
    ['English whole word only: bar is not Barber', { category: 'Barber shop' }, { categories: ['bar'] }, false],
    ['English whole word in a phrase: Wine bar', { category: 'Wine bar' }, { categories: ['bar'] }, true],
    ['English word next to Hangul still a word', { category: '카페cafe' }, { categories: ['cafe'] }, true],
    ['any of several words (Korean or English)', { category: 'Bakery' }, { categories: ['카페', 'bakery'] }, true],
    ['excluded category (Korean substring)', { category: '커피전문점 프랜차이즈' }, { excludeCategories: ['프랜차이즈'] }, false],
    [
      'excluded category (English whole word) not matched by a longer word',
      { category: 'Convenience stores' },
      { excludeCategories: ['convenience store'] },
      true,
    ],
    [
      'kept and excluded: excluded wins',
      { category: '카페', categories: ['카페', '프랜차이즈'] },
      { categories: ['카페'], excludeCategories: ['프랜차이즈'] },
      false,
    ],
  ];
  it.each(table)('%s', (_, place, f, expected) => {
    expect(passes(card(place), filter(f))).toBe(expected);
    expect(fails(card(place), filter(f))).toBe(!expected);
  });

  it('a place with no category text is unknown for category words, never dropped for them', () => {
    for (const f of [filter({ categories: ['카페'] }), filter({ excludeCategories: ['카페'] })]) {
      const verdict = judgePlace(card({ category: null, categories: [] }), f);
      expect(verdict).toEqual({ result: 'unknown', failed: [], unknown: [f.categories.length ? 'category' : 'excludeCategory'] });
      expect(passes(card({ category: null }), f)).toBe(true);
    }
  });
});

describe('names left out', () => {
  it.each([
    ['스타벅스 광화문점', ['스타벅스'], false],
    ['STARBUCKS Reserve', ['Starbucks'], false],
    ['Starbucksy Bakery', ['starbucks'], true],
    ['이디야커피', ['스타벅스', 'Starbucks'], true],
    ['메가MGC커피', ['mgc'], false],
  ] as const)('%s with %j left out passes: %s', (name, words, expected) => {
    expect(passes(card({ name }), filter({ excludeNames: [...words] }))).toBe(expected);
  });
});

describe('numbers: known below fails, unknown passes', () => {
  it.each([
    ['rating above', { rating: 4.5 }, { minRating: 4 }, 'pass'],
    ['rating equal', { rating: 4 }, { minRating: 4 }, 'pass'],
    ['rating below', { rating: 3.9 }, { minRating: 4 }, 'fail'],
    ['rating not shown', { rating: null, reviews: null }, { minRating: 4 }, 'unknown'],
    ['no reviews at all: no rating, known', { rating: null, reviews: 0 }, { minRating: 4 }, 'fail'],
    ['reviews enough', { reviews: 10 }, { minReviews: 10 }, 'pass'],
    ['reviews too few', { reviews: 9 }, { minReviews: 10 }, 'fail'],
    ['reviews not read', { reviews: null }, { minReviews: 10 }, 'unknown'],
    ['one known failure beats an unknown', { rating: null, reviews: 3 }, { minRating: 4, minReviews: 10 }, 'fail'],
  ] as const)('%s', (_, place, f, expected) => {
    const verdict = judgePlace(card(place), filter(f));
    expect(verdict.result).toBe(expected);
    expect(passes(card(place), filter(f))).toBe(expected !== 'fail');
  });
});

describe('website and phone: a card never says "none"', () => {
  it.each([
    ['has website, card with one', card({ website: 'https://a.kr/' }), { website: 'has' }, 'pass'],
    ['has website, card without: unknown', card(), { website: 'has' }, 'unknown'],
    ['has website, panel without: known none', panel(), { website: 'has' }, 'fail'],
    ['no website, card with one', card({ website: 'https://a.kr/' }), { website: 'none' }, 'fail'],
    ['no website, card without: unknown', card(), { website: 'none' }, 'unknown'],
    ['no website, panel without', panel(), { website: 'none' }, 'pass'],
    ['has phone, card with one', card({ phone: '02-123-4567' }), { phone: 'has' }, 'pass'],
    ['has phone, only another number', panel({ otherPhones: ['010-1234-5678'] }), { phone: 'has' }, 'pass'],
    ['has phone, card without: unknown', card(), { phone: 'has' }, 'unknown'],
    ['has phone, panel without', panel(), { phone: 'has' }, 'fail'],
  ] as const)('%s', (_, place, f, expected) => {
    expect(judgePlace(place, filter(f)).result).toBe(expected);
  });

  it("a site's complete record (the context, wired from the providers) makes its nulls known", () => {
    const pageData = card({ sources: { category: 'page-data' } });
    const f = filter({ website: 'has' });
    expect(judgePlace(pageData, f).result).toBe('unknown');
    expect(judgePlace(pageData, f, { completeSources: (p) => (p === 'google' ? ['page-data', 'panel'] : []) }).result).toBe('fail');
    expect(judgePlace({ ...pageData, provider: 'naver' }, f, { completeSources: (p) => (p === 'google' ? ['page-data', 'panel'] : []) }).result).toBe(
      'unknown',
    );
  });
});

describe('open only', () => {
  it.each([
    ['closed for good', 'permanently', false],
    ['closed for now', 'temporarily', false],
    ['an open status', null, true],
    ['no status seen (unknown)', undefined, true],
  ] as const)('%s passes: %s', (_, closed, expected) => {
    const place = card(closed === undefined ? {} : { closed });
    expect(passes(place, filter({ status: 'open-only' }))).toBe(expected);
    expect(passes(place, NO_FILTER)).toBe(true);
  });
});

describe('active, described, named', () => {
  it('no filter is inactive and passes everything; any criterion makes it active', () => {
    expect(isActive(NO_FILTER)).toBe(false);
    expect(passes(card({ rating: 0, reviews: 0, closed: 'permanently' }), NO_FILTER)).toBe(true);
    for (const over of [
      { categories: ['x'] },
      { excludeCategories: ['x'] },
      { excludeNames: ['x'] },
      { minRating: 1 },
      { minReviews: 1 },
      { website: 'none' },
      { phone: 'has' },
      { status: 'open-only' },
    ] as Partial<PlaceFilter>[]) {
      expect(isActive(filter(over)), JSON.stringify(over)).toBe(true);
    }
  });

  it('says what it is in one line, and in a file-name slug', () => {
    const f = filter({ categories: ['카페', 'cafe'], excludeNames: ['스타벅스'], minRating: 4, minReviews: 10, website: 'none' });
    expect(describeFilter(f)).toBe('category: 카페, cafe; not name: 스타벅스; rating ≥ 4; reviews ≥ 10; no website');
    expect(describeFilter(filter({ excludeCategories: ['편의점'], phone: 'has', status: 'open-only', website: 'has' }))).toBe(
      'not category: 편의점; has website; has phone; open only',
    );
    expect(describeFilter(NO_FILTER)).toBe('none');
    expect(filterFileWords(f)).toBe('filtered-카페-cafe-x-스타벅스-r4-rv10-noweb');
    expect(filterFileWords(filter({ minRating: 4.5 }))).toBe('filtered-r4_5');
    expect(filterFileWords(filter({ categories: ['a/b: "c"'] }))).toBe('filtered-a-b-c');
    expect(filterFileWords(NO_FILTER)).toBe('');
  });

  it('a long filter’s slug is cut within 64 bytes with a hash that tells two filters apart', () => {
    const a = filter({ categories: Array.from({ length: 20 }, (_, i) => `카테고리${i}`) });
    const b = filter({ categories: Array.from({ length: 20 }, (_, i) => `카테고리${i + 1}`) });
    const [sa, sb] = [filterFileWords(a), filterFileWords(b)];
    expect(new TextEncoder().encode(sa).length).toBeLessThanOrEqual(64);
    expect(sa).toMatch(/^filtered-카테고리0-.*-[0-9a-z]+$/);
    expect(sa).not.toBe(sb);
    expect(sa).toMatch(/^[\p{L}\p{N}_-]+$/u);
  });
});
