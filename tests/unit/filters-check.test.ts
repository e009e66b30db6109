/**
 * Filters as input (issue 40): the options' check refuses bad input whole with a reason a person
 * can act on (nothing is saved), and the settings read any stored filter back into range, so a
 * sweep copies a filter that reads.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, FILTER_LIMITS, NO_FILTER, normaliseFilter, normaliseSettings, type PlaceFilter } from '../../utils/config/settings';
import { checkFilter, isActive } from '../../utils/filters';
import { renderText } from '../../utils/i18n/text';
import { MESSAGES } from '../../scripts/locales';

/** Render a check's Text with the English table, as the options page does with t(). */
const english = (key: string, ...params: (string | number)[]) =>
  (MESSAGES[key]?.[0] ?? `!${key}`).replace(/\$(\d)/g, (_, n) => String(params[Number(n) - 1] ?? ''));
const korean = (key: string, ...params: (string | number)[]) =>
  (MESSAGES[key]?.[1] ?? `!${key}`).replace(/\$(\d)/g, (_, n) => String(params[Number(n) - 1] ?? ''));

function refused(raw: unknown): { message: string; en: string; ko: string } {
  const r = checkFilter(raw);
  if (r.ok) throw new Error(`accepted: ${JSON.stringify(r.filter)}`);
  return { message: r.message, en: renderText(r.text, english, String), ko: renderText(r.text, korean, String) };
}

describe('checkFilter: what the options page saves', () => {
  it('reads the form as typed: comma-separated words (Korean commas too), numbers as text, the choices', () => {
    const r = checkFilter({
      categories: ' 카페,  cafe ,, Coffee   shop、베이커리 ',
      excludeCategories: '',
      excludeNames: '스타벅스，Starbucks, starbucks',
      minRating: '4.5',
      minReviews: '10',
      website: 'none',
      phone: 'has',
      status: 'open-only',
    });
    expect(r).toEqual({
      ok: true,
      filter: {
        categories: ['카페', 'cafe', 'Coffee shop', '베이커리'],
        excludeCategories: [],
        excludeNames: ['스타벅스', 'Starbucks'],
        minRating: 4.5,
        minReviews: 10,
        website: 'none',
        phone: 'has',
        status: 'open-only',
      },
    });
  });

  it('empty boxes and zero are no filter at all', () => {
    const r = checkFilter({ categories: ' , ,', excludeNames: '', minRating: '', minReviews: '0', website: 'any', phone: 'any', status: 'any' });
    expect(r.ok && r.filter).toEqual({ ...NO_FILTER });
    expect(r.ok && isActive(r.filter)).toBe(false);
    expect(checkFilter({})).toEqual({ ok: true, filter: { ...NO_FILTER } });
  });

  it.each([
    ['more than 50 words', { categories: Array.from({ length: 51 }, (_, i) => `w${i}`).join(',') }, /Categories to keep: at most 50 words \(51 given\)/],
    ['a word over 60 characters', { excludeNames: `ok, ${'가'.repeat(61)}` }, /Names to leave out: a word may have at most 60 characters \("가{20}…" has 61\)/],
    ['a rating above 5', { minRating: '5.5' }, /Lowest rating: a number from 0 to 5/],
    ['a negative rating', { minRating: -1 }, /Lowest rating: a number from 0 to 5/],
    ['a rating that is not a number', { minRating: 'four' }, /Lowest rating/],
    ['reviews not whole', { minReviews: '10.5' }, /Fewest reviews: a whole number from 0 to 1,000,000/],
    ['reviews too many', { minReviews: 2_000_000 }, /Fewest reviews/],
    ['an unknown choice', { website: 'maybe' }, /Website: one of any, has, none/],
    ['a word both kept and left out', { categories: '카페, Cafe', excludeCategories: 'ＣＡＦＥ' }, /"Cafe" is both a category to keep and one to leave out/],
    ['words that are not text', { categories: [1, 2] }, /Categories to keep: write the words separated by commas/],
    ['not an object', 'rating 4', /The filters could not be read/],
  ] as const)('refuses %s with its reason, in English and Korean', (_, raw, reason) => {
    const r = refused(raw);
    expect(r.message).toMatch(reason);
    // The translated text is whole: no key shown, no placeholder left.
    for (const text of [r.en, r.ko]) {
      expect(text).not.toMatch(/!|\$\d|filter_error/);
      expect(text.length).toBeGreaterThan(8);
    }
  });

  it('"1,000" fewest reviews is a thousand (it was read as 1); a rating of "4,500" is refused; a word of marks only is refused', () => {
    const reviews = checkFilter({ minReviews: '1,000' });
    expect(reviews.ok && reviews.filter.minReviews).toBe(1000);
    expect(checkFilter({ minRating: '4,500' }).ok).toBe(false);
    const rating = checkFilter({ minRating: '4,5' });
    expect(rating.ok && rating.filter.minRating).toBe(4.5);
    // A word that folds to nothing matches nothing: keeping it would leave out every place.
    for (const word of ['\u0301', '\u200b', '\u200d\u0301', '\u3164', '\u115f', '\uffa0', '\u2800', '-', '·'])
      expect(checkFilter({ categories: word }).ok, JSON.stringify(word)).toBe(false);
    // A count is whole digits, or digits grouped by three: "1.000", "1,0000", "10,00" are refused, never read as 1 or 10.
    for (const count of ['1.000', '1,0000', '10,00', '2.5']) expect(checkFilter({ minReviews: count }).ok, count).toBe(false);
  });

  it('takes exactly 50 words of 60 characters', () => {
    const words = Array.from({ length: FILTER_LIMITS.words }, (_, i) => `${i}`.padStart(FILTER_LIMITS.wordChars, 'x'));
    const r = checkFilter({ categories: words.join(', ') });
    expect(r.ok && r.filter.categories).toEqual(words);
  });
});

describe('settings: the filters setting', () => {
  it('is inactive by default, and a sweep’s copy of the settings carries it', () => {
    expect(DEFAULT_SETTINGS.filters).toEqual(NO_FILTER);
    expect(isActive(normaliseSettings(undefined).filters)).toBe(false);
    const f: PlaceFilter = { ...NO_FILTER, categories: ['카페'], minRating: 4 };
    expect(normaliseSettings({ filters: f }).filters).toEqual(f);
    expect(normaliseSettings({ filters: f, delayMs: 3000 })).toMatchObject({ delayMs: 3000, filters: f });
  });

  it('reads an old or hand-edited filter back into range, never refusing it', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
    const read = normaliseFilter({
      categories: [...words(70)],
      excludeCategories: `a, , a, A, ${'z'.repeat(61)}`,
      excludeNames: [' x ', 7],
      minRating: 9,
      minReviews: 12.6,
      website: 'yes',
      phone: 'has',
      status: 'closed',
    });
    expect(read).toEqual({
      categories: words(50),
      excludeCategories: ['a'],
      excludeNames: [],
      minRating: 5,
      minReviews: 13,
      website: 'any',
      phone: 'has',
      status: 'any',
    });
    for (const bad of [null, 'x', 5, []]) expect(normaliseSettings({ filters: bad }).filters).toEqual(NO_FILTER);
    expect(normaliseFilter({ minRating: -2, minReviews: Number.NaN })).toMatchObject({ minRating: null, minReviews: null });
  });

  it('never hands out the shared default to be changed', () => {
    const a = normaliseSettings(undefined);
    (a.filters.categories as string[]).push('x');
    expect(normaliseSettings(undefined).filters.categories).toEqual([]);
    expect(DEFAULT_SETTINGS.filters.categories).toEqual([]);
  });
});
