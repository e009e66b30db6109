import type { StoredListing } from '../../utils/domain/listing';
import { idsFromPair } from '../../utils/providers/google/ids';

/** A stored listing with consistent ids derived from `n`; tests override what they look at. */
export function storedListing(n: number, over: Partial<StoredListing> = {}): StoredListing {
  const ids = idsFromPair(BigInt(n) * 7919n + 1n, BigInt(n) * 104729n + 12345678901234567n);
  const listing: StoredListing = {
    key: `google:${ids.cid}`,
    provider: 'google',
    providerId: ids.cid,
    placeId: ids.placeId,
    featureId: ids.featureId,
    cid: ids.cid,
    name: `Place ${n}`,
    category: 'Cafe',
    address: `${n} Main St`,
    phone: null,
    website: null,
    rating: 4.5,
    reviews: 1234,
    lat: 37.5,
    lng: 127.0,
    url: '',
    sponsored: false,
    firstSeen: Date.UTC(2026, 10, 1),
    lastSeen: Date.UTC(2026, 10, 2),
    collections: ['s1'],
    keywords: ['cafe', '카페'],
    cells: [],
    ...over,
  };
  // A Google place's providerId is its CID: a test that overrides the CID gets a consistent record.
  return over.providerId === undefined && listing.provider === 'google' && listing.cid !== null ? { ...listing, providerId: listing.cid } : listing;
}

/** Listings as the store hands them out: a batch at a time. */
export async function* inBatches(all: StoredListing[], size: number): AsyncGenerator<StoredListing[]> {
  for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
}

/** The contacts pass's export columns (issue 23) of a place it never saw: all empty. */
export const NO_CONTACT_COLUMNS = {
  emails: null,
  instagram: null,
  facebook: null,
  x: null,
  youtube: null,
  tiktok: null,
  linkedin: null,
  kakao_channel: null,
  naver_blog: null,
  naver_cafe: null,
  naver_smartstore: null,
  band: null,
  contact_page: null,
  contacts_checked_at: null,
} as const;
