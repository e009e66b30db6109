/**
 * Synthetic stored listings for the export bench (scripts/bench/export-node.ts) and the
 * byte-for-byte test of the CSV writer (tests/unit/export-csv-bytes.test.ts). Deterministic in
 * `n`, and varied the way real collections are: all three providers, Korean and Greek text,
 * quotes, commas, newlines, leading/trailing spaces, formula-leading characters, and optional
 * fields present, null or absent, so a fast path that skips work on "ordinary" cells meets
 * every kind of cell the slow path handled.
 */
import type { DayHours, Provider, StoredListing } from '../../utils/domain/listing';

const NAMES = [
  (n: number) => `Place ${n}`,
  (n: number) => `스타벅스 광화문${n}호점`,
  (n: number) => `Café "Le ${n}", Seoul`,
  (n: number) => `=HYPERLINK("http://x/${n}","click")`,
  (n: number) => `Bar ${n}\nthe best`,
  (n: number) => ` padded ${n} `,
  (n: number) => `+${n} plus`,
  (n: number) => `-${n} minus`,
  (n: number) => `@${n} at`,
  (n: number) => `\ttab ${n}`,
  (n: number) => `\rcr ${n}`,
  (n: number) => `Καφετέρια ${n}`,
  (n: number) => `semi;colon ${n}`,
  (n: number) => `bom\uFEFF${n}`,
  (n: number) => `crlf ${n}\r\nline`,
  (n: number) => `'quoted ${n}'`,
];

const ADDRESSES = [
  (n: number) => `${n} Sejong-daero, Jung-gu, Seoul`,
  (n: number) => `서울특별시 종로구 세종대로 ${n}`,
  (n: number) => `Eakou ${n}, Ilion 131 22, Greece`,
  () => null,
  (n: number) => `"${n}" Quote Rd`,
  (n: number) => `${n} Trailing `,
];

const CATEGORIES: (string | null)[] = ['Cafe', '카페', '태국음식', null, '=cmd', 'Coffee, tea', '섬(내륙)'];

const WEEK: DayHours[] = [
  { day: 1, dayName: 'Monday', text: '7 AM–8:30 PM', intervals: [{ open: '07:00', close: '20:30' }] },
  {
    day: 2,
    dayName: 'Tuesday',
    text: '7 AM–8:30 PM',
    intervals: [
      { open: '07:00', close: '12:00' },
      { open: '13:00', close: '20:30' },
    ],
  },
  { day: 6, dayName: '토요일', text: '휴무', intervals: [] },
  { day: 7, dayName: 'Sunday', text: 'Closed', intervals: [] },
];

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

/** Listing number `n`; Google, Naver and Kakao in turn, optional fields varying independently. */
export function variedListing(n: number, collection = 'bench-export', at = Date.UTC(2026, 11, 1, 9)): StoredListing {
  const provider: Provider = pick(['google', 'naver', 'kakao'] as const, n);
  const digits = String(9_000_000_000_000_000_000n + BigInt(n) * 7919n);
  const cid = provider === 'google' ? digits : null;
  const providerId = provider === 'google' ? digits : String(1_000_000_000 + n);
  const listing: StoredListing = {
    key: `${provider}:${providerId}`,
    provider,
    providerId,
    placeId: provider === 'google' && n % 5 !== 0 ? `ChIJ${(n * 2654435761).toString(36)}_-${n}` : null,
    featureId: provider === 'google' ? `0x${n.toString(16)}:0x${(n * 31).toString(16)}` : null,
    cid,
    name: pick(NAMES, n >> 1)(n),
    category: pick(CATEGORIES, n >> 2),
    address: pick(ADDRESSES, n >> 3)(n),
    phone: n % 4 === 0 ? null : n % 4 === 1 ? `+82 2-${1000 + (n % 9000)}-${String(n % 10_000).padStart(4, '0')}` : `0507-${1000 + (n % 9000)}-5170`,
    website: n % 3 === 0 ? null : n % 3 === 1 ? `https://place-${n}.example/?a=1,b="2"` : `http://www.instagram.com/p_${n}`,
    rating: n % 6 === 0 ? null : 3 + (n % 21) / 10,
    reviews: n % 5 === 0 ? null : n % 5000,
    lat: n % 97 === 0 ? null : 37.5 + (n % 1000) / 10_000 + n * 1e-9,
    lng: n % 97 === 0 ? null : 126.9 + (n % 997) / 10_000 - n * 1e-9,
    url:
      provider === 'google'
        ? n % 2 === 0
          ? `https://www.google.com/maps?cid=${digits}`
          : n % 11 === 1
            ? 'javascript:void(0)'
            : ''
        : provider === 'naver'
          ? `https://map.naver.com/p/entry/place/${providerId}`
          : `https://place.map.kakao.com/${providerId}`,
    sponsored: n % 13 === 0,
    firstSeen: at - n * 1000,
    lastSeen: at + (n % 7) * 3_600_000,
    collections: n % 9 === 0 ? [collection, 'browsing'] : [collection],
    keywords: n % 3 === 0 ? ['cafe', '카페'] : n % 3 === 1 ? ['cafe'] : [],
    cells: [`${collection}/0/r0c${n % 10}`],
  };
  // Optional fields (issue 16 and issue 11): absent, null or filled, each on its own rhythm.
  const k = n % 8;
  if (k >= 1) listing.categories = k === 1 ? [] : [listing.category ?? '음식점', '음식점', 'Coffee, tea'];
  if (k >= 2) {
    listing.addressParts =
      k === 2
        ? null
        : {
            street: `Eakou ${n}`,
            district: k === 3 ? null : '용산구',
            city: 'Ilion',
            postalCode: '131 22',
            region: k === 4 ? '-Attica' : null,
            countryCode: 'GR',
          };
  }
  if (k >= 3) listing.phoneE164 = k === 3 ? null : `+8225${String(n).padStart(7, '0')}`;
  if (k >= 4) listing.otherPhones = k === 4 ? [] : [`02-749-${String(n % 10_000).padStart(4, '0')}`, '+1 555'];
  if (k >= 4) listing.hours = k === 4 ? null : 'Monday: 7 AM–8:30 PM; Sunday: Closed';
  if (k >= 5) listing.openingHours = k === 5 ? [] : WEEK;
  if (k >= 5) listing.priceLevel = k === 5 ? null : n % 2 ? '₩₩' : '€€';
  if (k >= 6) listing.closed = k === 6 ? null : n % 2 ? 'permanently' : 'temporarily';
  if (k >= 6 && provider !== 'google') {
    listing.roadAddress = `서울특별시 용산구 한강대로40길 ${n % 100}-5 1층`;
    listing.lotAddress = k === 6 ? null : `서울 용산구 이촌동 ${n % 400}-146`;
    listing.bookingUrl = provider === 'naver' ? `https://booking.naver.com/booking/6/bizes/${n}` : null;
  }
  if (k >= 7) listing.sources = n % 2 ? { category: 'page-data', address: 'card', phone: 'panel' } : {};
  return listing;
}

export function variedListings(count: number, from = 0, collection?: string): StoredListing[] {
  return Array.from({ length: count }, (_, i) => variedListing(from + i, collection));
}
