import { describe, expect, it } from 'vitest';
import { filterOrder, nextSort, placeUrl, safeHttpUrl, sortOrder, SORT_KEYS, type ListingRow, type SortSpec } from '../../utils/dashboard/rows';
import { createRng } from '../replica/prng';

function row(name: string, over: Partial<ListingRow> = {}): ListingRow {
  return {
    key: `google:${name}`,
    provider: 'google',
    cid: String(name.length),
    url: null,
    name,
    category: null,
    address: null,
    phone: null,
    website: null,
    rating: null,
    reviews: null,
    lat: null,
    lng: null,
    lastSeen: 0,
    ...over,
  };
}

const names = (rows: ListingRow[], order: Uint32Array) => Array.from(order, (i) => rows[i]!.name);

describe('sorting the listings', () => {
  const rows = [row('banana'), row('다방'), row(''), row('Apple'), row('가게'), row('apple pie')];

  it('sorts names case-insensitively, Latin then Hangul in dictionary order, empty names last both ways', () => {
    expect(names(rows, sortOrder(rows, { key: 'name', direction: 'asc' }))).toEqual(['Apple', 'apple pie', 'banana', '가게', '다방', '']);
    expect(names(rows, sortOrder(rows, { key: 'name', direction: 'desc' }))).toEqual(['다방', '가게', 'banana', 'apple pie', 'Apple', '']);
  });

  it('keeps load order without a sort, and for ties', () => {
    expect(names(rows, sortOrder(rows, null))).toEqual(rows.map((r) => r.name));
    const rated = [row('a', { rating: 4 }), row('b', { rating: null }), row('c', { rating: 5 }), row('d', { rating: 4 }), row('e')];
    expect(names(rated, sortOrder(rated, { key: 'rating', direction: 'desc' }))).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(names(rated, sortOrder(rated, { key: 'rating', direction: 'asc' }))).toEqual(['a', 'd', 'c', 'b', 'e']);
  });

  it('gives a permutation in which every neighbour pair is in order, for every column (seeded)', () => {
    const rng = createRng(5);
    const words = ['카페', 'Cafe', 'bakery', '치킨', 'Zoo', '', '  ', 'école', '123'];
    const data = Array.from({ length: 400 }, (_, i) =>
      row(rng.pick(words) + rng.int(0, 9), {
        category: rng.chance(0.2) ? null : rng.pick(words),
        address: rng.chance(0.2) ? null : `${rng.int(1, 99)} ${rng.pick(words)}`,
        phone: rng.chance(0.5) ? null : `02-${rng.int(100, 999)}-${rng.int(1000, 9999)}`,
        website: rng.chance(0.5) ? null : `https://${rng.pick(words)}.kr`,
        rating: rng.chance(0.3) ? null : rng.int(10, 50) / 10,
        reviews: rng.chance(0.3) ? null : rng.int(0, 5000),
        lastSeen: rng.int(0, 1e6),
        cid: String(i),
      }),
    );
    for (const key of SORT_KEYS) {
      for (const direction of ['asc', 'desc'] as const) {
        const order = sortOrder(data, { key, direction });
        expect([...order].sort((a, b) => a - b)).toEqual(data.map((_, i) => i));
        const value = (i: number) => {
          const v = data[i]![key];
          if (typeof v === 'string') return v.trim() === '' ? null : v.toLowerCase();
          return v;
        };
        for (let k = 1; k < order.length; k++) {
          const a = value(order[k - 1]!);
          const b = value(order[k]!);
          if (a === null) expect(b, `${key} ${direction}: empty values come last`).toBeNull();
          else if (b !== null) expect(direction === 'asc' ? a <= b : a >= b, `${key} ${direction} at ${k}`).toBe(true);
        }
      }
    }
  });

  it('cycles a column through its natural order, the reverse, then load order', () => {
    let s: SortSpec | null = null;
    s = nextSort(s, 'name');
    expect(s).toEqual({ key: 'name', direction: 'asc' });
    s = nextSort(s, 'name');
    expect(s).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort(s, 'name')).toBeNull();
    expect(nextSort(s, 'rating')).toEqual({ key: 'rating', direction: 'desc' });
  });
});

describe('searching the listings', () => {
  const rows = [
    row('Blue Bottle', { category: 'Coffee shop', address: '12 Samcheong-ro', phone: '02-1234-5678', website: 'https://findme.example' }),
    row('스타벅스 광화문점', { category: '카페', address: '서울 종로구 세종대로 167', phone: '1522-3232' }),
    row('Paris Baguette', { category: 'Bakery', address: null, phone: null }),
    row('Coffee Bean', { category: 'Cafe', address: '1 Gangnam-daero', phone: '+82 2-555-0000' }),
  ];
  const all = sortOrder(rows, null);
  const search = (q: string) => names(rows, filterOrder(rows, all, q));

  it('finds a case-insensitive substring of the name, address, category or phone', () => {
    expect(search('blue')).toEqual(['Blue Bottle']);
    expect(search('COFFEE')).toEqual(['Blue Bottle', 'Coffee Bean']); // category of one, name of the other
    expect(search('종로구')).toEqual(['스타벅스 광화문점']);
    expect(search('카페')).toEqual(['스타벅스 광화문점']);
    expect(search('gangnam')).toEqual(['Coffee Bean']);
    expect(search('1522-3232')).toEqual(['스타벅스 광화문점']);
  });

  it('matches a phone by its digits whatever the separators', () => {
    expect(search('02 1234 5678')).toEqual(['Blue Bottle']);
    expect(search('5550000')).toEqual(['Coffee Bean']);
  });

  it('does not search other columns, and an empty query keeps everything in the given order', () => {
    expect(search('findme')).toEqual([]);
    expect(search('   ')).toEqual(rows.map((r) => r.name));
    const byName = sortOrder(rows, { key: 'name', direction: 'desc' });
    expect(names(rows, filterOrder(rows, byName, 'co'))).toEqual(['Coffee Bean', 'Blue Bottle']);
  });
});

describe('website links', () => {
  it.each([
    ['https://example.com/menu', 'https://example.com/menu'],
    ['http://example.kr', 'http://example.kr/'],
    ['javascript:alert(1)', null],
    ['JAVASCRIPT:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['example.com', null],
    ['', null],
    [null, null],
  ])('%s → %s', (input, expected) => {
    expect(safeHttpUrl(input)).toBe(expected);
  });
});

describe('place links', () => {
  it("uses the listing's own URL for every provider, refuses a non-http one, and opens an old Google listing by its CID", () => {
    expect(placeUrl({ provider: 'naver', providerId: '1178829266', cid: null, url: 'https://map.naver.com/p/entry/place/1178829266' })).toBe(
      'https://map.naver.com/p/entry/place/1178829266',
    );
    expect(placeUrl({ provider: 'kakao', providerId: '2222', cid: null, url: 'https://place.map.kakao.com/2222' })).toBe('https://place.map.kakao.com/2222');
    expect(placeUrl({ provider: 'google', providerId: '33', cid: '33', url: 'https://www.google.com/maps/place/X/data=!4m2' })).toBe(
      'https://www.google.com/maps/place/X/data=!4m2',
    );
    expect(placeUrl({ provider: 'google', providerId: '33', cid: '33', url: '' })).toBe('https://www.google.com/maps?cid=33');
  });

  it("a listing without a usable link of its own opens by its site's link to the place, on every site", () => {
    expect(placeUrl({ provider: 'naver', providerId: '1178829266', cid: null, url: 'javascript:alert(1)' })).toBe(
      'https://map.naver.com/p/entry/place/1178829266',
    );
    expect(placeUrl({ provider: 'kakao', providerId: '2222', cid: null, url: '' })).toBe('https://place.map.kakao.com/2222');
    // Ids that name no place of the site: no link rather than a wrong one.
    expect(placeUrl({ provider: 'naver', providerId: 'x', cid: null, url: '' })).toBeNull();
    expect(placeUrl({ provider: 'kakao', providerId: '0', cid: null, url: 'javascript:1' })).toBeNull();
    expect(placeUrl({ provider: 'google', providerId: '', cid: null, url: '' })).toBeNull();
  });
});
