/**
 * Which of two values of one field is better, for merging what several pages said about one
 * place. "The later one" is not good enough: a result card says less than the place panel
 * (a street fragment where the panel gives the full address), and a card whose category line
 * is missing puts its opening-hours line where the category would be.
 */

// A card's line parts are separated by "·" (U+00B7) or "⋅" (U+22C5); some pages use "•".
const PART_SEPARATOR = /\s*[·⋅•|]\s*/;
// Icon glyphs from the page's icon font (private-use area), stripped as the extractors do.
const PRIVATE_USE = /[\uE000-\uF8FF]/g;

const TIME = String.raw`\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?\s?m\.?)?`;
const DAY = String.raw`(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?`;

/**
 * One part of an opening-status line, as Google Maps and Naver/Kakao print them
 * (see ../shared/real-pages): English "Open", "Closed", "Open 24 hours", "Closes 10 pm",
 * "Opens 6 PM Tue", "Closing soon", "Temporarily closed"; Korean "영업 중", "영업 종료",
 * "곧 영업 종료", "영업 전", "11:00에 영업 시작", "오후 10:00에 영업 종료", "24시간 영업",
 * "15:00에 브레이크타임", "정기휴무 (매달 5번째 일요일)", "임시 휴업". Exact shapes only, so a
 * real category such as "Open-air market" is never mistaken for hours.
 */
const HOURS_PART: readonly RegExp[] = [
  /^(?:open|closed|open now|closed now|closed today|open today|open 24 hours|open 24\/7|24 hours)$/i,
  /^(?:closing|opening) soon$/i,
  /^(?:temporarily|permanently) closed$/i,
  /^hours (?:might|may) differ$/i,
  new RegExp(String.raw`^(?:re)?(?:opens|closes)(?: soon|\s+${TIME}(?:\s+${DAY})?)$`, 'i'),
  /^(?:곧\s*)?영업\s*(?:중|종료|전|시작|마감)$/,
  /^(?:(?:오전|오후)\s*)?\d{1,2}(?::\d{2})?(?:시)?(?:에|부터|까지)?\s*(?:영업\s*(?:시작|종료|마감)|브레이크\s*타임|라스트\s*오더)$/,
  /^24\s*시간\s*영업$/,
  /^(?:정기\s*)?휴무(?:일)?(?:\s*\(.*\))?$/,
  /^임시\s*(?:휴업|휴무)$/,
  /^(?:폐업|휴업)$/,
  /^(?:브레이크\s*타임|라스트\s*오더)(?:\s.*)?$/,
];

function clean(text: string): string {
  return text.replace(PRIVATE_USE, '').replace(/\s+/g, ' ').trim();
}

/** True when every part of `text` is opening-status text: never a category or an address. */
export function isHoursText(text: string | null | undefined): boolean {
  if (typeof text !== 'string') return false;
  const parts = clean(text)
    .split(PART_SEPARATOR)
    .filter((p) => p !== '');
  return parts.length > 0 && parts.every((p) => HOURS_PART.some((re) => re.test(p)));
}

/** A text field's value, or null when it is empty or opening-status text. */
export function usableText(text: string | null | undefined): string | null {
  if (typeof text !== 'string' || clean(text) === '' || isHoursText(text)) return null;
  return text;
}

// Street-type abbreviations a card uses where the panel spells the word out.
const ABBREVIATIONS: Record<string, string> = {
  st: 'street',
  str: 'street',
  ave: 'avenue',
  av: 'avenue',
  rd: 'road',
  blvd: 'boulevard',
  dr: 'drive',
  ln: 'lane',
  ct: 'court',
  pl: 'place',
  sq: 'square',
  hwy: 'highway',
  pkwy: 'parkway',
};

const STREET_TYPES = new Set(Object.values(ABBREVIATIONS));

function addressTokens(address: string): string[] {
  return clean(address)
    .toLowerCase()
    .split(/[\s,،、]+/)
    .map((t) => t.replace(/^[.#()]+|[.()]+$/g, ''))
    .filter((t) => t !== '')
    .map((t) => ABBREVIATIONS[t] ?? t);
}

function components(address: string): number {
  return clean(address)
    .split(',')
    .filter((p) => p.trim() !== '').length;
}

/**
 * The address to keep when a place already has `known` and a page now says `next`.
 *
 * - Hours text or nothing is never an address.
 * - When one says everything the other says and more (word for word, "St" = "Street"), the
 *   fuller one is kept, whichever came first: a panel's "123 Main Street, Springfield, IL
 *   62701" is not replaced by a card's "123 Main St", but does replace it.
 * - A one-part street fragment (no comma) that names the same street as a several-part known
 *   address is a card's shortening of it: the known one is kept.
 * - Otherwise the two describe different places on the map (the place moved, or a correction):
 *   the newer one wins, as for every other field.
 */
export function betterAddress(known: string | null, next: string | null): string | null {
  const a = usableText(known);
  const b = usableText(next);
  if (b === null) return a;
  if (a === null) return b;
  const ta = addressTokens(a);
  const tb = addressTokens(b);
  const inA = new Set(ta);
  const inB = new Set(tb);
  if (tb.every((t) => inA.has(t))) return ta.length > tb.length ? a : b;
  if (ta.every((t) => inB.has(t))) return b;
  if (components(b) === 1 && components(a) >= 2) {
    // The same street: a shared word other than a bare number (house numbers repeat
    // everywhere) or a street type ("Street" is in half the addresses of a city).
    const sharesStreet = tb.some((t) => !/^\d+[-\d]*$/.test(t) && !STREET_TYPES.has(t) && inA.has(t));
    if (sharesStreet) return a;
  }
  return b;
}
