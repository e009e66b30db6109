/**
 * What a filter is, said in a line an export carries (the JSON's `filters`, the GeoJSON's
 * `filters` member, the workbook's about sheet) and in a few characters of a file name. Pure.
 * The line uses the words as typed (Korean stays Korean) and a fixed English-and-symbols
 * grammar, the same whatever the interface's language, so a file says the same to every reader.
 */
import type { PlaceFilter } from '../config/settings';
import { isActive } from './decide';

/** `category: 카페, cafe; not category: 프랜차이즈; not name: 스타벅스; rating ≥ 4; reviews ≥ 10; no website; has phone; open only`, or `none`. */
export function describeFilter(f: PlaceFilter): string {
  if (!isActive(f)) return 'none';
  const parts: string[] = [];
  if (f.categories.length) parts.push(`category: ${f.categories.join(', ')}`);
  if (f.excludeCategories.length) parts.push(`not category: ${f.excludeCategories.join(', ')}`);
  if (f.excludeNames.length) parts.push(`not name: ${f.excludeNames.join(', ')}`);
  if ((f.minRating ?? 0) > 0) parts.push(`rating ≥ ${f.minRating}`);
  if ((f.minReviews ?? 0) > 0) parts.push(`reviews ≥ ${f.minReviews}`);
  if (f.website === 'has') parts.push('has website');
  if (f.website === 'none') parts.push('no website');
  if (f.phone === 'has') parts.push('has phone');
  if (f.status === 'open-only') parts.push('open only');
  return parts.join('; ');
}

/**
 * The longest slug, in UTF-8 bytes (a file name's limit is 255 bytes, and a Hangul letter takes
 * 3), before it is cut and given a hash of the whole filter.
 */
const SLUG_MAX_BYTES = 64;

const utf8Bytes = (ch: string) => (ch.codePointAt(0)! < 0x80 ? 1 : ch.codePointAt(0)! < 0x800 ? 2 : ch.codePointAt(0)! < 0x10000 ? 3 : 4);

/** The longest start of `text` (whole code points) within `bytes`. */
function cutToBytes(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const ch of text) {
    used += utf8Bytes(ch);
    if (used > bytes) break;
    out += ch;
  }
  return out;
}

/** Letters and digits of any script; everything else becomes one `-`. */
const slugWord = (w: string) =>
  w
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');

/** FNV-1a over the description, in base 36: two filters cut to one slug still get two names. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

/**
 * A short slug for file names, '' when the filter is inactive: `filtered-cafe-카페-x-스타벅스-r4-rv10-noweb`
 * (`x-`: names left out, `xc-`: categories left out, `r`: lowest rating, `rv`: fewest reviews,
 * `web`/`noweb`, `tel`, `open`). Safe on every file system: letters, digits and `-` only; past
 * 64 bytes cut, with a hash of the whole filter at the end.
 */
export function filterFileWords(f: PlaceFilter): string {
  if (!isActive(f)) return '';
  const tokens = ['filtered'];
  const words = (prefix: string | null, list: readonly string[]) => {
    const slugs = list.map(slugWord).filter(Boolean);
    if (slugs.length) tokens.push(...(prefix ? [prefix] : []), ...slugs);
  };
  words(null, f.categories);
  words('xc', f.excludeCategories);
  words('x', f.excludeNames);
  if ((f.minRating ?? 0) > 0) tokens.push(`r${String(f.minRating).replace('.', '_')}`);
  if ((f.minReviews ?? 0) > 0) tokens.push(`rv${f.minReviews}`);
  if (f.website === 'has') tokens.push('web');
  if (f.website === 'none') tokens.push('noweb');
  if (f.phone === 'has') tokens.push('tel');
  if (f.status === 'open-only') tokens.push('open');
  const slug = tokens.join('-');
  if (cutToBytes(slug, SLUG_MAX_BYTES) === slug) return slug;
  return `${cutToBytes(slug, SLUG_MAX_BYTES - 8).replace(/-+$/, '')}-${hash(describeFilter(f))}`;
}
