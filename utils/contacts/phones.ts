/**
 * Phone numbers a business's page shows, in the form written. The reader does not know the
 * place's country, so it does not judge a number's validity: the pass turns each into E.164 with
 * the place's region (utils/listing/phone.ts) and keeps those that differ from the place's own.
 *
 * In text only shapes that are numbers beyond reasonable doubt are read: international (`+82 2 123
 * 4567`), national with the trunk 0 (`02-123-4567`, `010.1234.5678`, `(031) 123-4567`, `020 7946
 * 0958`), and Korea's 4+4 representative numbers (`1588-1234`). Dates (`2024-12-03`), Korean
 * business registration numbers (`123-45-67890`) and prices have none of these shapes; a number
 * labelled as a fax is not a phone.
 */

const MIN_DIGITS = 7;
/** E.164's longest. */
const MAX_DIGITS = 15;

const TEXT_PHONE = new RegExp(
  [
    String.raw`\+\d{1,3}(?:[-. ]\(0\))?(?:[-. ]\(?\d{1,4}\)?){2,4}`,
    String.raw`\+\d{9,15}`,
    String.raw`(?:\(0\d{1,3}\) ?|0\d{1,3}[-. ])\d{3,4}[-. ]\d{4}`,
    String.raw`1[5-9]\d{2}-\d{4}`,
  ]
    .map((shape) => String.raw`(?<![\w+.\-/])(?:${shape})(?![\w\-/]|[.,]\d)`)
    .join('|'),
  'gu',
);
const FAX_LABEL = /(?:(?<![a-z])(?:fax|f)|팩스)\s*[.:)]?\s*$/i;
const PHONE_LABEL = /tel|phone|전화/i;

/** Numbers in running text, each as written. */
export function findPhones(text: string): string[] {
  const phones: string[] = [];
  for (const match of text.matchAll(TEXT_PHONE)) {
    const before = text.slice(Math.max(0, match.index - 16), match.index);
    if (FAX_LABEL.test(before) && !PHONE_LABEL.test(before)) continue;
    if (hasPhoneLength(match[0])) phones.push(match[0]);
  }
  return phones;
}

/** The number of a `tel:` link (`tel:+82-2-123-4567;ext=1`), or null when it is not one. */
export function telPhone(href: string): string | null {
  let number = href.replace(/^\s*tel:/i, '');
  try {
    number = decodeURIComponent(number);
  } catch {
    // A stray `%`: the characters check below refuses what is not a number.
  }
  // `;ext=`, `;phone-context=` (RFC 3966) and a `?` query are not part of the number a person dials.
  number = number.split(/[;?]/)[0]!.trim();
  return /^\+?[\d\s().-]+$/.test(number) && hasPhoneLength(number) ? number : null;
}

function hasPhoneLength(number: string): boolean {
  const digits = number.replace(/\D/g, '').length;
  return digits >= MIN_DIGITS && digits <= MAX_DIGITS;
}
