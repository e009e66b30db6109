/**
 * The listing bounds (utils/listing/bounds.ts, issue 22): every field is cut where a place
 * becomes a Listing — whole characters kept, lists shortened, the cut named on the listing —
 * and the store checks the very same bounds, so nothing that came through the cut is refused.
 */
import { describe, expect, it } from 'vitest';
import { boundListing, CUT_MARK, cutText, LIST_BOUNDS, overBounds, TEXT_BOUNDS } from '../../utils/listing/bounds';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import { mergeListingFields } from '../../utils/listing/merge-fields';
import { makeListing as makeGoogleListing } from '../../utils/providers/google/fields';
import type { ProviderPlace } from '../../utils/domain/place';
import { listingProblem } from '../../utils/store/listing-merge';
import { makeListing } from './store-fixtures';

const EMOJI = '🍰'; // two UTF-16 code units

function kakaoPlace(over: Partial<ProviderPlace> = {}): ProviderPlace {
  return {
    provider: 'kakao',
    providerId: '27338592',
    key: 'kakao:27338592',
    name: '카페 하루',
    category: '카페',
    categoryPath: ['음식점', '카페'],
    address: '서울 중구 명동 1-1',
    roadAddress: '서울 중구 세종대로 1',
    phone: '02-123-4567',
    virtualPhone: null,
    website: null,
    bookingUrl: null,
    rating: 4.5,
    reviews: 10,
    lat: 37.5,
    lng: 127,
    url: 'https://place.map.kakao.com/27338592',
    sponsored: false,
    ...over,
  };
}

describe('cutText', () => {
  it('keeps a text that fits, and cuts a longer one to the bound with a mark', () => {
    expect(cutText('abc', 3)).toBe('abc');
    const cut = cutText('x'.repeat(20_000), TEXT_BOUNDS.name);
    expect(cut).toHaveLength(TEXT_BOUNDS.name);
    expect(cut.endsWith(CUT_MARK)).toBe(true);
  });

  it('never splits a surrogate pair, wherever the bound falls', () => {
    const text = EMOJI.repeat(500);
    for (const max of [2, 3, 4, 5, 299, 300, 301]) {
      const cut = cutText(text, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      // Every kept character is a whole emoji; a lone surrogate would not survive a UTF-8 round trip.
      expect(new TextDecoder().decode(new TextEncoder().encode(cut))).toBe(cut);
      expect([...cut.slice(0, -1)].every((c) => c === EMOJI)).toBe(true);
    }
  });
});

describe('boundListing', () => {
  it('returns a listing within the bounds as it was', () => {
    const l = makeListing('1', { categories: ['Bakery', 'Cafe'] });
    expect(boundListing(l)).toBe(l);
    expect(overBounds(l)).toEqual([]);
  });

  it('cuts a 20,000-character name and 200 categories, and names what it cut', () => {
    const l = makeListing('1', {
      name: `Huge ${EMOJI}`.repeat(3000),
      categories: Array.from({ length: 200 }, (_, i) => `Category ${i} ${'c'.repeat(i)}`),
      otherPhones: Array.from({ length: 30 }, (_, i) => `+30 210 000 ${i}`),
      website: `https://example.com/${'a'.repeat(3000)}`,
    });
    expect(listingProblem(l)).toMatch(/name, categories, otherPhones, website beyond the listing bounds/);
    const b = boundListing(l);
    expect(b.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
    expect(b.categories).toHaveLength(LIST_BOUNDS.categories);
    expect(b.categories!.every((c) => c.length <= TEXT_BOUNDS.category)).toBe(true);
    // The main category (first) is kept first.
    expect(b.categories![0]).toBe('Category 0 ');
    expect(b.otherPhones).toHaveLength(LIST_BOUNDS.otherPhones);
    // Half a link opens something else: it is dropped.
    expect(b.website).toBeNull();
    expect(b.cut).toEqual(['name', 'categories', 'otherPhones', 'website']);
    // The store takes what came through the cut (the same bounds).
    expect(listingProblem(b)).toBeNull();
    expect(overBounds(b)).toEqual([]);
  });

  it('bounds a week of hours, and every address part', () => {
    const day = { day: 1, dayName: 'Monday', text: 'x'.repeat(1000), intervals: Array.from({ length: 20 }, () => ({ open: '07:00', close: '08:00' })) };
    const l = makeListing('1', {
      openingHours: Array.from({ length: 9 }, () => day),
      addressParts: { street: 's'.repeat(900), district: null, city: 'Athens', postalCode: null, region: null, countryCode: 'GR' },
    });
    const b = boundListing(l);
    expect(b.openingHours).toHaveLength(LIST_BOUNDS.openingHours);
    expect(b.openingHours![0]!.text.length).toBeLessThanOrEqual(TEXT_BOUNDS.hours);
    expect(b.openingHours![0]!.intervals).toHaveLength(LIST_BOUNDS.intervals);
    expect(b.addressParts!.street!.length).toBeLessThanOrEqual(TEXT_BOUNDS.address);
    expect(b.addressParts!.city).toBe('Athens');
    expect(b.cut).toEqual(['addressParts', 'openingHours']);
    expect(listingProblem(b)).toBeNull();
  });

  it('a merge keeps the marks of both readings', () => {
    const a = boundListing(makeListing('1', { name: 'n'.repeat(400) }));
    const b = boundListing(makeListing('1', { categories: Array.from({ length: 30 }, (_, i) => `c${i}`) }));
    expect(mergeListingFields(a, b).cut).toEqual(['name', 'categories']);
  });
});

describe('the bounds are applied where a place becomes a Listing', () => {
  it('Naver and Kakao (listingFromPlace): a category path of 200 levels and a 20,000-character name', () => {
    const place = kakaoPlace({ name: '가'.repeat(20_000), categoryPath: Array.from({ length: 200 }, (_, i) => `분류${i}`), category: '분류199' });
    const l = listingFromPlace(place, 'page-data');
    expect(l.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
    expect(l.categories).toHaveLength(LIST_BOUNDS.categories);
    // Main (deepest) first, as Listing.categories says.
    expect(l.categories![0]).toBe('분류199');
    expect(l.cut).toEqual(['name', 'categories']);
    expect(l.sources?.categories).toBe('page-data');
    expect(listingProblem(l)).toBeNull();
    expect(listingFromPlace(kakaoPlace(), 'card').cut).toBeUndefined();
  });

  it('Google (makeListing)', () => {
    const l = makeGoogleListing(
      { key: 'google:1', cid: '1', featureId: null, placeId: null },
      {
        name: 'G'.repeat(5000),
        category: null,
        address: null,
        phone: null,
        website: null,
        rating: null,
        reviews: null,
        lat: null,
        lng: null,
        sponsored: false,
        categories: Array.from({ length: 60 }, (_, i) => `c${i}`),
      },
      'page-data',
    );
    expect(l.name.length).toBeLessThanOrEqual(TEXT_BOUNDS.name);
    expect(l.categories).toHaveLength(LIST_BOUNDS.categories);
    expect(l.cut).toEqual(['name', 'categories']);
    expect(listingProblem(l)).toBeNull();
  });
});
