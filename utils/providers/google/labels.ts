/**
 * Reading the human-facing text of Google Maps cards and panels: ratings, review counts,
 * info lines. Page text is hostile (any length, any characters), so every reader here
 * returns null rather than a guess.
 */

import { cutText } from '../../listing/bounds';

/** Icon glyphs of Google's symbol font live in the private-use area and end up in textContent. */
const PRIVATE_USE = /[\uE000-\uF8FF]/g;
// NBSP, narrow NBSP, thin space, zero-width characters and the like all become one plain space.
const SPACES = /[\s\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+/g;

/** Icon glyphs removed, whitespace collapsed, trimmed. */
export function cleanText(text: string | null | undefined): string {
  if (!text) return '';
  return text.replace(PRIVATE_USE, '').replace(SPACES, ' ').trim();
}

/** Cleaned text, cut to `max` characters as every listing field is (cutText: whole characters, "…"); null when nothing is left. */
export function boundedText(text: string | null | undefined, max: number): string | null {
  const s = cleanText(text);
  return s ? cutText(s, max) : null;
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
 * "4,5 Sterne 1.234 Rezensionen" (decimal comma, dot thousands), "4.7(8,713)" (card text),
 * and in every interface language: "별표 4.5개 리뷰 1,234개", "5,0 étoiles 30 avis", "星 4.5 クチコミ 1,234 件".
 * The first number is the rating (0–5), the next one, if any, the review count; an
 * "out of 5" phrase ("5개 중", "5つ星のうち", "out of 5") is not a number of either.
 */
export function parseRatingLabel(label: string | null | undefined): RatingLabel | null {
  const text = cleanText(label).replace(OUT_OF_FIVE, ' ');
  const m = /(\d{1,2})(?:[.,](\d{1,2}))?(?!\d)/.exec(text);
  if (!m) return null;
  const rating = Number(`${m[1]}.${m[2] ?? '0'}`);
  if (!Number.isFinite(rating) || rating < 0 || rating > 5) return null;
  const reviews = parseReviewCount(text.slice(m.index + m[0].length));
  return { rating, reviews };
}

/** "out of 5" in the languages that say it around the rating ("Rated 4.5 out of 5", "5개 중 4.5개"). */
const OUT_OF_FIVE = /5\s*개\s*중|5\s*점\s*만점에|5\s*つ星のうち|\b(?:out of|sur|von|de|από|su)\s+5(?!\d|[.,]\d)/gi;

// "1.2K", "1,2 k", "1.2천" / "3.4만" (Korean), "1.2千" / "3.4万" (Japanese, Chinese 萬).
const COMPACT = /(\d{1,3}(?:[.,]\d{1,2})?)\s*([kKmM천만千万萬])(?![a-zA-Z])/;
const COMPACT_FACTOR: Record<string, number> = { k: 1e3, m: 1e6, 천: 1e3, 千: 1e3, 만: 1e4, 万: 1e4, 萬: 1e4 };
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
    const factor = COMPACT_FACTOR[compact[2]!.toLowerCase()]!;
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

/*
 * Google's own words the extractor recognises, in every interface language a sweep may ask for
 * (hl, settings.ts RESULT_LANGUAGES) and then some. Extraction never depends on the language:
 * each check below tries every language at once. Sources: English from the spec (§1.2, §1.3)
 * and the English captures; the Greek review count from the hl=el capture ("516 αξιολογήσεις");
 * the French "5,0" / "30 avis" from a French place page; the others are Google's translations
 * of the same strings as its interface shows them, unconfirmed by a capture here [?].
 */

/** The text below the last card: "You've reached the end of the list." */
export const END_OF_LIST_PATTERNS: readonly RegExp[] = [
  /reached the end of the list/i,
  /목록의\s*끝에\s*도달/, // 목록의 끝에 도달했습니다.
  /\bfin de la liste\b/i, // Vous êtes arrivé à la fin de la liste.
  /リストの(?:最後|終わり|末尾)/, // リストの最後に到達しました。
  /\bEnde der Liste\b/i, // Sie haben das Ende der Liste erreicht.
  /τέλος της λίστας/i, // Φτάσατε στο τέλος της λίστας.
  /\bfinal de la lista\b/i,
  /列表(?:的)?(?:末尾|结尾|底部)|清單(?:的)?(?:結尾|底部|末尾)/,
];

/** The no-results panel: "Google Maps can't find {q}". */
export const NOT_FOUND_PATTERNS: readonly RegExp[] = [
  /Google Maps can[’']t find/i,
  /Google\s*지도(?:에서)?.{0,160}?찾을\s*수\s*없습니다/, // Google 지도에서 '…'을(를) 찾을 수 없습니다.
  /Google\s*Maps ne (?:parvient pas à trouver|peut pas trouver|trouve pas)/i,
  /Google\s*マップ.{0,160}?見つかりません/, // Google マップで「…」が見つかりませんでした
  /Google\s*Maps kann .{0,160}?nicht finden/i,
  /Χάρτες Google δεν (?:μπορούν να βρουν|βρίσκουν)/i,
  /Google\s*Maps no (?:encuentra|puede encontrar)/i,
  /Google\s*(?:地图|地圖).{0,160}?(?:找不到|無法找到|无法找到)/,
];

/** The captcha page's explanation (the sorry page is also told by its URL and form). */
export const UNUSUAL_TRAFFIC_PATTERNS: readonly RegExp[] = [
  /unusual traffic from your computer network/i,
  /컴퓨터 네트워크에서 (?:비정상적인|평소와 다른) 트래픽/,
  /trafic exceptionnel (?:provenant|en provenance) de votre réseau/i,
  /ネットワークから通常と異なるトラフィック/,
  /ungewöhnlichen Datenverkehr/i,
];

/** The label of an ad card: exactly this text or aria-label, in a leaf element. */
export const SPONSORED_WORDS: ReadonlySet<string> = new Set(
  [
    'Sponsored',
    '광고',
    '스폰서',
    'Sponsorisé',
    'Sponsorisée',
    'Annonce',
    'スポンサー',
    '広告',
    'Gesponsert',
    'Anzeige',
    'Χορηγούμενο',
    'Χορηγούμενη',
    'Patrocinado',
    '赞助商',
    '贊助商',
    '广告',
    '廣告',
  ].map((w) => w.toLowerCase()),
);

export function isSponsoredWord(text: string | null | undefined): boolean {
  return SPONSORED_WORDS.has(cleanText(text).toLowerCase());
}

/** Where the stars would be on an unrated place: not a category. */
const NO_REVIEWS =
  /^(?:no reviews|리뷰 없음|리뷰가 없습니다|aucun avis|pas d['’]avis|クチコミはありません|レビューはありません|keine rezensionen|keine bewertungen|δεν υπάρχουν κριτικές|καμία κριτική|sin reseñas|暂无评价|沒有評論)$/i;

export function isNoReviewsText(text: string | null | undefined): boolean {
  return NO_REVIEWS.test(cleanText(text));
}

/** A star image's label in any language: "4.5 stars", "별표 4.5개", "4,5 étoiles", "星 4.5". */
const STAR_WORD = /star|별표|별점|étoile|星|stern|αστέρ|estrella|estrela|stell/i;

export function isStarLabel(label: string | null | undefined): boolean {
  const text = cleanText(label);
  return STAR_WORD.test(text) && parseRatingLabel(text) !== null;
}

/** The card's website button: "Website", "Visit X's website", "웹사이트", "Site Web", "ウェブサイト". */
const WEBSITE_LABEL =
  /^(?:visit\b.*\bwebsite|website|웹사이트|.*웹사이트 방문(?:하기)?|site web|site internet|.*visiter le site.*|ウェブサイト|.*のウェブサイト.*|webseite|.*website besuchen|ιστότοπος|sitio web|网站|網站)$/i;

export function isWebsiteLabel(label: string | null | undefined): boolean {
  return WEBSITE_LABEL.test(cleanText(label));
}

/** The `data-value` of the card's website button in the languages above. */
export const WEBSITE_DATA_VALUES: readonly string[] = ['Website', '웹사이트', 'Site Web', 'ウェブサイト', 'Webseite', 'Ιστότοπος', 'Sitio web', '网站', '網站'];

export function matchesAny(patterns: readonly RegExp[], text: string): boolean {
  return patterns.some((p) => p.test(text));
}
