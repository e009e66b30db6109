/**
 * Reading the human-facing text of Google Maps cards and panels: ratings, review counts,
 * info lines. Page text is hostile (any length, any characters), so every reader here
 * returns null rather than a guess.
 */

/** Icon glyphs of Google's symbol font live in the private-use area and end up in textContent. */
const PRIVATE_USE = /[\uE000-\uF8FF]/g;
// NBSP, narrow NBSP, thin space, zero-width characters and the like all become one plain space.
const SPACES = /[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g;

/** Icon glyphs removed, whitespace collapsed, trimmed. */
export function cleanText(text: string | null | undefined): string {
  if (!text) return '';
  return text.replace(PRIVATE_USE, '').replace(SPACES, ' ').trim();
}

/** Cleaned text, cut to `max` characters; null when nothing is left. */
export function boundedText(text: string | null | undefined, max: number): string | null {
  const s = cleanText(text);
  if (!s) return null;
  return s.length > max ? s.slice(0, max).trimEnd() : s;
}

/**
 * The parts of a card info line ("Dutch · · Leidsekruisstraat 21"). Google uses the middle
 * dot `·` and the dot operator `⋅`; parts left empty once icon glyphs are gone are dropped.
 */
export function splitInfoLine(text: string): string[] {
  return cleanText(text)
    .split(/[·⋅•]/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

export interface RatingLabel {
  rating: number;
  /** Null in the signed-out "limited view", where the label is a bare "4.9 stars". */
  reviews: number | null;
}

/**
 * A rating label in any of the shapes Google uses:
 * "4.5 stars 1,234 Reviews" (signed in), "4.9 stars" (limited view), " 4.7 stars ",
 * "4,5 Sterne 1.234 Rezensionen" (decimal comma, dot thousands), "4.7(8,713)" (card text).
 * The first number is the rating (0–5), the next one, if any, the review count.
 */
export function parseRatingLabel(label: string | null | undefined): RatingLabel | null {
  const text = cleanText(label);
  const m = /(\d{1,2})(?:[.,](\d{1,2}))?(?!\d)/.exec(text);
  if (!m) return null;
  const rating = Number(`${m[1]}.${m[2] ?? '0'}`);
  if (!Number.isFinite(rating) || rating < 0 || rating > 5) return null;
  const reviews = parseReviewCount(text.slice(m.index + m[0].length));
  return { rating, reviews };
}

const COMPACT = /(\d{1,3}(?:[.,]\d{1,2})?)\s*([kKmM])(?![a-zA-Z])/;
// Integer with optional thousands groups: "8,713", "1.234", "1 234", "1'234", "12345".
const GROUPED = /\d{1,3}(?:[,.\s'’]\d{3})+(?!\d)|\d+/;
const MAX_REVIEWS = 1e9;

/**
 * A review count from "(1,234)", "1,234 reviews", "1.2K" or "516 αξιολογήσεις".
 * Counts are integers, so "1.234" is one thousand two hundred thirty-four.
 */
export function parseReviewCount(text: string | null | undefined): number | null {
  const s = cleanText(text);
  if (!s) return null;
  const compact = COMPACT.exec(s);
  if (compact) {
    const base = Number(compact[1]!.replace(',', '.'));
    const factor = /k/i.test(compact[2]!) ? 1e3 : 1e6;
    return checkCount(Math.round(base * factor));
  }
  const m = GROUPED.exec(s);
  if (!m) return null;
  return checkCount(Number(m[0].replace(/\D/g, '')));
}

function checkCount(n: number): number | null {
  return Number.isSafeInteger(n) && n >= 0 && n <= MAX_REVIEWS ? n : null;
}

/** A review count written in parentheses, "(1,234)", as on cards and in the place header. */
export function parseParenthesisedCount(text: string | null | undefined): number | null {
  const m = /^\(([^()]{1,20})\)$/.exec(cleanText(text));
  return m ? parseReviewCount(m[1]) : null;
}

/** Price levels ("$$", "€20–30", "€100+") share the info line with category and address. */
export function isPriceText(text: string): boolean {
  const s = text.trim();
  return s.length <= 16 && /^\p{Sc}|\p{Sc}$/u.test(s);
}

/** A phone number as shown on cards: at least 6 digits and only phone punctuation. */
export function looksLikePhone(text: string): boolean {
  const s = cleanText(text);
  if (!/^\+?[\d\s().\-/]{6,}$/.test(s)) return false;
  const digits = s.replace(/\D/g, '').length;
  return digits >= 6 && digits <= 20;
}
