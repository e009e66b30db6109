/**
 * Field readers shared by every Naver source (Apollo state, GraphQL, allSearch, DOM). Page content
 * is hostile: each reader checks the shape and range, bounds the length, and returns null for
 * anything it cannot vouch for. Nothing here guesses a value the page did not show.
 */
import type { ProviderPlace } from '../../domain/place';
import { naverKey, normaliseNaverId } from './ids';
import { naverPlaceUrl } from './urls';

/** Longest text kept per field: Naver's own fields are short; a longer value is page junk or an attack. */
export const TEXT_LIMITS = { name: 200, category: 100, address: 300, phone: 40, url: 2048 } as const;

/** Whitespace collapsed, `<b>` highlight tags (allSearch `display`) and control characters removed; null when empty or too long. */
export function cleanText(value: unknown, limit: number): string | null {
  if (typeof value !== 'string') return null;
  const s = value
    .replace(/<\/?b>/gi, '')
    // Control characters and private-use icon glyphs are never part of a name or an address.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this line's purpose.
    .replace(/[\u0000-\u001f\u007f\ue000-\uf8ff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s.length > 0 && s.length <= limit ? s : null;
}

/**
 * Text a person reads (a name, a category, an address): cleaned as cleanText, but never
 * refused for its length. It is cut, and the listing marked, where the place becomes a Listing
 * (utils/listing/bounds.ts): refusing it would make the place's card unreadable, and an
 * unreadable card keeps its whole cell from being accepted (issue 22).
 */
export function readableText(value: unknown): string | null {
  return cleanText(value, Number.POSITIVE_INFINITY);
}

/** A count as Naver writes it: `3559`, `"680"`, `"1,022"`. `"999+"` is a lower bound, not a count: null. */
export function parseCount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (!/^\d{1,3}(,\d{3})*$|^\d+$/.test(s)) return null;
  const n = Number(s.replace(/,/g, ''));
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * A visitor score `"4.49"` / `4.72`. Naver sends 0 when the score is hidden
 * (`showVisitorReviewScore: false` in the 2026 place capture), so 0 is "not shown", not a rating.
 */
export function parseScore(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 && n <= 5 ? Math.round(n * 100) / 100 : null;
}

/**
 * x (lng) and y (lat), which Naver sends as strings (`"126.9716020"`); numbers are taken too. Both
 * must be plain decimals in range and not 0,0: a missing coordinate must never become a pin in the sea.
 */
export function parseCoordinates(x: unknown, y: unknown): { lat: number; lng: number } | null {
  const read = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d{1,3}(\.\d+)?\s*$/.test(v) ? Number(v) : NaN);
  const lng = read(x);
  const lat = read(y);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  if (lat === 0 && lng === 0) return null;
  return { lat, lng };
}

/** A Korean phone as displayed (`02-749-3008`, `0507-1334-5170`, `1668-2506`): digits and dashes only. */
export function parsePhone(value: unknown): string | null {
  const s = cleanText(value, TEXT_LIMITS.phone);
  if (!s) return null;
  const compact = s.replace(/\s+/g, '');
  return /^\+?\d[\d-]{6,18}\d$/.test(compact) && compact.replace(/\D/g, '').length >= 8 ? compact : null;
}

/** Naver's 안심번호 (virtual number) range. */
export function isVirtualNumber(phone: string): boolean {
  return /^0507-?\d/.test(phone);
}

/** An http(s) URL, nothing else (no `javascript:`, no relative junk). */
export function parseHttpUrl(value: unknown): string | null {
  const s = cleanText(value, TEXT_LIMITS.url);
  if (!s) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * A booking link: Naver's own booking hosts only. The list items and allSearch carry
 * `booking.naver.com/booking/6/bizes/{n}` (or `m.booking…`); a foreign host in that field is not a
 * Naver booking and is dropped rather than exported as one.
 */
export function parseBookingUrl(value: unknown): string | null {
  const url = parseHttpUrl(value);
  if (!url) return null;
  const host = new URL(url).hostname;
  return /(^|\.)booking\.naver\.com$/.test(host) ? url : null;
}

/**
 * Road address made whole. List items give the road part alone (`방배천로2길 29-2`) with the region in
 * `commonAddress` (`서울 서초구 방배동`); allSearch and the place page give it whole (`서울특별시 용산구 …`).
 * A road address names 시/도 and 시/군/구 but not the 동 (that is the lot-number form), so the
 * region's trailing 동/가/리 is dropped before joining.
 */
export function joinRoadAddress(common: string | null, road: string | null): string | null {
  if (!road) return null;
  if (!common || startsWithRegion(road, common)) return road;
  const region = common.split(' ').filter((t, i, all) => !(i === all.length - 1 && /(동|가|리)$/.test(t) && all.length > 2));
  return cleanText(`${region.join(' ')} ${road}`, TEXT_LIMITS.address);
}

/**
 * Lot-number (jibun) address made whole: `commonAddress` ends with the 동 that the short
 * `address` (`방배동 448-20`) starts with, so the overlap is written once.
 */
export function joinJibunAddress(common: string | null, address: string | null): string | null {
  if (!address) return null;
  if (!common || startsWithRegion(address, common)) return address;
  const c = common.split(' ');
  const a = address.split(' ');
  const overlap = c[c.length - 1] === a[0] ? 1 : 0;
  return cleanText([...c, ...a.slice(overlap)].join(' '), TEXT_LIMITS.address);
}

/** The address already starts with the region's first word (`서울`, `인천`, `서울특별시`). */
/**
 * The address already names its province or city. A region is a whole word: "세종대로 110" is a
 * road in Seoul, not an address in 세종 (Sejong), so the name must be followed by a space (or by
 * its long form's suffix, 서울특별시 …).
 */
function startsWithRegion(address: string, common: string): boolean {
  const first = common.split(' ')[0] ?? '';
  const word = (name: string) => new RegExp(`^${name}(특별시|광역시|특별자치시|특별자치도|도)?\\s`).test(address);
  return first.length > 0 && (word(escapeRegExp(first)) || REGIONS.some(word));
}

const REGIONS = ['서울', '부산', '대구', '인천', '광주', '대전', '울산', '세종', '경기', '강원', '충북', '충남', '전북', '전남', '경북', '경남', '제주'];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface PlaceFields {
  id: unknown;
  name: unknown;
  categoryPath?: readonly unknown[];
  address?: string | null;
  roadAddress?: string | null;
  phone?: unknown;
  virtualPhone?: unknown;
  website?: unknown;
  bookingUrl?: unknown;
  rating?: unknown;
  reviews?: unknown;
  x?: unknown;
  y?: unknown;
  sponsored: boolean;
  /** The week's hours as the list words them (`businessHours`: "평일 11:00~21:00 | 주말 …"). */
  hours?: unknown;
}

/**
 * One ProviderPlace from checked fields, or the reason it cannot be one. Id and name are required
 * (without them the place can be neither stored nor recognised); every other field may be null.
 * Phone: the landline when there is one, else the virtual number (the number a person would dial);
 * `virtualPhone` keeps the 0507 number whenever Naver gives one.
 */
export function buildPlace(f: PlaceFields): ProviderPlace | 'no-id' | 'no-name' {
  const id = normaliseNaverId(f.id);
  if (!id) return 'no-id';
  const name = readableText(f.name);
  if (!name) return 'no-name';
  const categoryPath = (f.categoryPath ?? []).map(readableText).filter((c): c is string => c !== null);
  const phoneRaw = parsePhone(f.phone);
  const virtualRaw = parsePhone(f.virtualPhone);
  const virtualPhone = virtualRaw ?? (phoneRaw && isVirtualNumber(phoneRaw) ? phoneRaw : null);
  const coords = parseCoordinates(f.x, f.y);
  return {
    provider: 'naver',
    providerId: id,
    key: naverKey(id),
    name,
    category: categoryPath[categoryPath.length - 1] ?? null,
    categoryPath,
    address: readableText(f.address ?? null),
    roadAddress: readableText(f.roadAddress ?? null),
    phone: phoneRaw ?? virtualRaw,
    virtualPhone,
    website: parseHttpUrl(f.website),
    bookingUrl: parseBookingUrl(f.bookingUrl),
    rating: parseScore(f.rating),
    reviews: parseCount(f.reviews),
    lat: coords?.lat ?? null,
    lng: coords?.lng ?? null,
    url: naverPlaceUrl(id),
    sponsored: f.sponsored,
    ...hoursOf(f.hours),
  };
}

/** The week's hours in words, only where the item gives some (most readers have none to give). */
function hoursOf(value: unknown): { hoursText?: string } {
  const text = typeof value === 'string' ? readableText(value) : null;
  return text ? { hoursText: text } : {};
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
