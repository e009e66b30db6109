import { describe, expect, it } from 'vitest';
import type { Listing } from '../../utils/domain/listing';
import { listingProblem, MAX_CELLS_PER_LISTING, mergeListing, organicByKey, type FoundContext } from '../../utils/store/listing-merge';
import { makeListing, seeded } from './store-fixtures';

const ctx = (over: Partial<FoundContext> = {}): FoundContext => ({
  now: 5_000,
  collection: 's1',
  keyword: 'bakery',
  cellId: 's1/0/r0c0',
  ...over,
});

describe('organicByKey', () => {
  it('drops a sponsored card unless the same place is also organic, and then keeps the organic fields', () => {
    const ad = makeListing('1', { sponsored: true, website: 'https://www.google.com/aclk?gclid=x' });
    const onlyAd = makeListing('2', { sponsored: true });
    const organic = makeListing('1', { website: 'https://bakery.example' });
    const out = organicByKey([ad, onlyAd, organic]);
    expect(out.map((l) => l.key)).toEqual(['google:1']);
    expect(out[0]!.website).toBe('https://bakery.example');
    expect(out[0]!.sponsored).toBe(false);
  });

  it('folds copies of one place: a later value wins, a null never erases', () => {
    const a = makeListing('7', { phone: '+33 1 23', website: null, rating: 4.1 });
    const b = makeListing('7', { phone: null, website: 'https://b.example', rating: 4.3 });
    const [one, ...rest] = organicByKey([a, b]);
    expect(rest).toHaveLength(0);
    expect(one).toMatchObject({ phone: '+33 1 23', website: 'https://b.example', rating: 4.3 });
  });
});

describe('mergeListing', () => {
  it('starts the history of a new place at now', () => {
    const stored = mergeListing(undefined, makeListing('3'), ctx());
    expect(stored).toMatchObject({
      key: 'google:3',
      firstSeen: 5_000,
      lastSeen: 5_000,
      collections: ['s1'],
      keywords: ['bakery'],
      cells: ['s1/0/r0c0'],
    });
  });

  it('keeps firstSeen, fills what it did not know, never erases, records each context once', () => {
    const first = mergeListing(undefined, makeListing('3', { phone: null, website: 'https://w.example' }), ctx());
    const again = mergeListing(
      first,
      makeListing('3', { phone: '+33 9', website: null, category: null }),
      ctx({ now: 9_000, keyword: 'florist', cellId: 's1/1/r0c0' }),
    );
    expect(again.firstSeen).toBe(5_000);
    expect(again.lastSeen).toBe(9_000);
    expect(again.phone).toBe('+33 9');
    expect(again.website).toBe('https://w.example');
    expect(again.category).toBe('Bakery');
    expect(again.keywords).toEqual(['bakery', 'florist']);
    expect(again.cells).toEqual(['s1/0/r0c0', 's1/1/r0c0']);
    const third = mergeListing(again, makeListing('3'), ctx({ now: 9_500, keyword: 'bakery', cellId: 's1/0/r0c0' }));
    expect(third.keywords).toEqual(['bakery', 'florist']);
    expect(third.collections).toEqual(['s1']);
    expect(third.cells).toEqual(['s1/0/r0c0', 's1/1/r0c0']);
  });

  it('takes a coordinate pair whole', () => {
    const first = mergeListing(undefined, makeListing('4', { lat: 1, lng: 2 }), ctx());
    const half = mergeListing(first, makeListing('4', { lat: 9, lng: null }), ctx());
    expect([half.lat, half.lng]).toEqual([1, 2]);
  });

  it('caps the cells it remembers, newest kept', () => {
    let stored = mergeListing(undefined, makeListing('5'), ctx({ cellId: 'c0' }));
    for (let i = 1; i < MAX_CELLS_PER_LISTING + 5; i++) stored = mergeListing(stored, makeListing('5'), ctx({ cellId: `c${i}` }));
    expect(stored.cells).toHaveLength(MAX_CELLS_PER_LISTING);
    expect(stored.cells.at(-1)).toBe(`c${MAX_CELLS_PER_LISTING + 4}`);
    expect(stored.cells[0]).toBe('c5');
  });

  it('property: each nullable field ends as the last non-null value seen (seeded sequences)', () => {
    const random = seeded(42);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)]!;
    for (let run = 0; run < 200; run++) {
      const sightings: Listing[] = Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
        makeListing('9', {
          phone: pick([null, '+1', '+2']),
          website: pick([null, 'https://a', 'https://b']),
          rating: pick([null, 3.5, 4.5]),
          reviews: pick([null, 1, 200]),
        }),
      );
      let stored = mergeListing(undefined, sightings[0]!, ctx({ now: 0 }));
      sightings.slice(1).forEach((s, i) => {
        stored = mergeListing(stored, s, ctx({ now: i + 1 }));
      });
      for (const field of ['phone', 'website', 'rating', 'reviews'] as const) {
        const nonNull = sightings.map((s) => s[field]).filter((v) => v !== null);
        expect(stored[field]).toBe(nonNull.length > 0 ? nonNull[nonNull.length - 1] : null);
      }
      expect(stored.firstSeen).toBe(0);
      expect(stored.lastSeen).toBe(sightings.length - 1);
    }
  });
});

describe('listingProblem', () => {
  it.each([
    ['a key that does not match the cid', { key: 'google:2' }],
    ['a non-decimal cid', { cid: '0x12', key: 'google:0x12' }],
    ['a NaN rating', { rating: Number.NaN }],
    ['a phone that is a number', { phone: 123 as unknown as string }],
    ['another provider', { provider: 'bing' as unknown as 'google' }],
  ])('refuses %s', (_label, over) => {
    expect(listingProblem({ ...makeListing('1'), ...over })).not.toBeNull();
  });

  it('accepts a well-formed listing', () => {
    expect(listingProblem(makeListing('18446744073709551615'))).toBeNull();
  });
});

describe('merge keeps the better value, not merely the later one', () => {
  it("a place panel's full address is not replaced by a card's short street text", () => {
    const panel = mergeListing(undefined, makeListing('5', { address: '12 Rue de Rivoli, 75004 Paris, France' }), ctx());
    const card = mergeListing(panel, makeListing('5', { address: '12 Rue de Rivoli' }), ctx({ now: 9_000 }));
    expect(card.address).toBe('12 Rue de Rivoli, 75004 Paris, France');
    // The other way round the fuller one wins too.
    const cardFirst = mergeListing(undefined, makeListing('6', { address: '12 Rue de Rivoli' }), ctx());
    expect(mergeListing(cardFirst, makeListing('6', { address: '12 Rue de Rivoli, 75004 Paris, France' }), ctx()).address).toBe(
      '12 Rue de Rivoli, 75004 Paris, France',
    );
  });

  it('the same number read again, as fully, keeps the source that gave it first', () => {
    // A Kakao place: both readings get their E.164 form from the number (region KR), so neither knows more.
    const kakao = (source: 'page-data' | 'card', phone: string) =>
      makeListing('1', { key: 'kakao:8252248', provider: 'kakao', providerId: '8252248', cid: null, phone, sources: { phone: source } });
    const first = mergeListing(undefined, kakao('page-data', '02-749-4500'), ctx());
    expect(first.sources).toMatchObject({ phone: 'page-data', phoneE164: 'page-data' });
    const again = mergeListing(first, kakao('card', '02-749-4500'), ctx({ now: 9_000 }));
    expect([again.phone, again.phoneE164, again.sources?.phone, again.sources?.phoneE164]).toEqual(['02-749-4500', '+8227494500', 'page-data', 'page-data']);
    // Another number is a change: the newer reading wins, with its own source.
    const changed = mergeListing(again, kakao('card', '02-749-4501'), ctx({ now: 9_500 }));
    expect([changed.phone, changed.phoneE164, changed.sources?.phone]).toEqual(['02-749-4501', '+8227494501', 'card']);
  });

  it('hours text is never stored as a category or an address', () => {
    const first = mergeListing(undefined, makeListing('8', { category: 'Bakery', address: '3 Rue X, Paris' }), ctx());
    const hours = mergeListing(first, makeListing('8', { category: 'Open ⋅ Closes 10 pm', address: 'Closes 10 pm' }), ctx());
    expect(hours).toMatchObject({ category: 'Bakery', address: '3 Rue X, Paris' });
    const korean = mergeListing(undefined, makeListing('9', { category: '곧 영업 종료', address: '영업 중' }), ctx());
    expect(korean).toMatchObject({ category: null, address: null });
    const [folded] = organicByKey([makeListing('10', { category: 'Cafe' }), makeListing('10', { category: 'Open 24 hours' })]);
    expect(folded!.category).toBe('Cafe');
  });
});
