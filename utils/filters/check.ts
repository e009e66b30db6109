/**
 * The options page's filters, checked before anything is saved. Pure.
 *
 * Input as a person gives it: word lists as comma-separated text (or lists), numbers as numbers
 * or the text of an input box ('' for no minimum), the three choices by name. Bad input is
 * refused whole with its reason, in English (`message`) and as a translatable Text (`text`,
 * scripts/locales.ts `filter_error_*`), and nothing changes; good input comes back as the
 * PlaceFilter to store (the same one normaliseFilter would read back).
 */
import { FILTER_CHOICES, FILTER_LIMITS, normaliseFilter, splitFilterWords, type PlaceFilter } from '../config/settings';
import { text, type Text } from '../i18n/text';
import { foldText } from './words';

export type FilterCheck = { ok: true; filter: PlaceFilter } | { ok: false; message: string; text: Text };

type WordField = 'categories' | 'excludeCategories' | 'excludeNames';
type ChoiceField = keyof typeof FILTER_CHOICES;

/** Each field's name in messages: English here, the same key's label in scripts/locales.ts. */
const FIELD: Record<WordField | ChoiceField | 'minRating' | 'minReviews', { en: string; key: string }> = {
  categories: { en: 'Categories to keep', key: 'filterFieldCategories' },
  excludeCategories: { en: 'Categories to leave out', key: 'filterFieldExcludeCategories' },
  excludeNames: { en: 'Names to leave out', key: 'filterFieldExcludeNames' },
  minRating: { en: 'Lowest rating', key: 'filterFieldMinRating' },
  minReviews: { en: 'Fewest reviews', key: 'filterFieldMinReviews' },
  website: { en: 'Website', key: 'optionFiltersWebsite' },
  phone: { en: 'Phone', key: 'optionFiltersPhone' },
  status: { en: 'Status', key: 'optionFiltersStatus' },
};

const refuse = (message: string, t: Text): FilterCheck => ({ ok: false, message, text: t });

/**
 * A number box's value: null for empty (no minimum), NaN for text that is no number. "1,000" is a
 * thousand grouped (a count's way), never one with a decimal comma: a count takes it as 1000, a
 * rating (at most 5) refuses it; "4,5" is a rating's decimal comma.
 */
function numberOf(value: unknown, kind: 'count' | 'rating'): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const s = value.trim().replace(/^＋|^\+/, '');
    if (s === '') return null;
    if (/^\d{1,3}(?:,\d{3})+$/.test(s)) return kind === 'count' ? Number(s.replace(/,/g, '')) : Number.NaN;
    // A count is whole digits ("1.000", "10,00" are no count a person means); a rating may have a decimal point or comma.
    if (kind === 'count') return /^\d+$/.test(s) ? Number(s) : Number.NaN;
    return /^\d+(?:[.,]\d+)?$|^\.\d+$/.test(s) ? Number(s.replace(',', '.')) : Number.NaN;
  }
  return Number.NaN;
}

function checkWords(field: WordField, value: unknown): string[] | FilterCheck {
  const name = FIELD[field];
  if (value === undefined || value === null) return [];
  const words = splitFilterWords(value);
  if (words === null) return refuse(`${name.en}: write the words separated by commas.`, text('filter_error_words', text(name.key)));
  if (words.length > FILTER_LIMITS.words) {
    return refuse(
      `${name.en}: at most ${FILTER_LIMITS.words} words (${words.length} given).`,
      text('filter_error_too_many_words', text(name.key), FILTER_LIMITS.words, words.length),
    );
  }
  const long = words.find((w) => w.length > FILTER_LIMITS.wordChars);
  if (long !== undefined) {
    const shown = `${long.slice(0, 20)}…`;
    return refuse(
      `${name.en}: a word may have at most ${FILTER_LIMITS.wordChars} characters ("${shown}" has ${long.length}).`,
      text('filter_error_word_too_long', text(name.key), FILTER_LIMITS.wordChars, shown, long.length),
    );
  }
  // A word of marks or invisible characters only matches nothing: it would leave out every place.
  // Hangul fillers (U+3164, U+115F, U+1160, U+FFA0) and the braille blank are letters to Unicode, and show nothing.
  const blank = words.find((w) => !/[\p{L}\p{N}]/u.test(foldText(w).replace(/[\u3164\u115f\u1160\uffa0\u2800]/g, '')));
  if (blank !== undefined) {
    return refuse(`${name.en}: a word must have letters or digits.`, text('filter_error_blank_word', text(name.key)));
  }
  return words;
}

/**
 * Check filters as given (`raw`: an object with any of PlaceFilter's fields, absent ones taken
 * as no filter): the filter to store, or the first problem with its reason.
 */
export function checkFilter(raw: unknown): FilterCheck {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return refuse('The filters could not be read.', text('filter_error_shape'));
  const given = raw as Record<string, unknown>;
  const lists: Partial<Record<WordField, string[]>> = {};
  for (const field of ['categories', 'excludeCategories', 'excludeNames'] as const) {
    const words = checkWords(field, given[field]);
    if (!Array.isArray(words)) return words;
    lists[field] = words;
  }
  // Kept and left out at once: no place could pass on that word, which is never what was meant.
  const excluded = new Set((lists.excludeCategories ?? []).map(foldText));
  const both = (lists.categories ?? []).find((w) => excluded.has(foldText(w)));
  if (both !== undefined) {
    return refuse(`"${both}" is both a category to keep and one to leave out.`, text('filter_error_conflict', both));
  }

  const rating = numberOf(given.minRating, 'rating');
  const [rLo, rHi] = FILTER_LIMITS.rating;
  if (rating !== null && !(Number.isFinite(rating) && rating >= rLo && rating <= rHi)) {
    return refuse(`${FIELD.minRating.en}: a number from ${rLo} to ${rHi}, or empty for none.`, text('filter_error_rating', rLo, rHi));
  }
  const reviews = numberOf(given.minReviews, 'count');
  const [vLo, vHi] = FILTER_LIMITS.reviews;
  if (reviews !== null && !(Number.isInteger(reviews) && reviews >= vLo && reviews <= vHi)) {
    return refuse(
      `${FIELD.minReviews.en}: a whole number from ${vLo} to ${vHi.toLocaleString('en')}, or empty for none.`,
      text('filter_error_reviews', vLo, vHi.toLocaleString('en')),
    );
  }
  for (const field of ['website', 'phone', 'status'] as const) {
    const value = given[field];
    const choices: readonly string[] = FILTER_CHOICES[field];
    if (value !== undefined && value !== null && !(typeof value === 'string' && choices.includes(value))) {
      return refuse(`${FIELD[field].en}: one of ${choices.join(', ')}.`, text('filter_error_choice', text(FIELD[field].key), choices.join(', ')));
    }
  }
  // Everything is in range: what normaliseFilter keeps is exactly what was given.
  return {
    ok: true,
    filter: normaliseFilter({ ...given, ...lists, minRating: rating, minReviews: reviews }),
  };
}
