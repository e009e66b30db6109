/**
 * A sweep, a cell and a listing as the store holds them, with plain defaults (Paris, 'bakery')
 * and per-test overrides: the store tests' fixtures (tests/unit/store-fixtures.ts) and the
 * commit bench's records (scripts/bench/commit.ts). Nothing here opens a database, so the bench
 * page bundles it without fake-indexeddb.
 */
import type { Review } from '../../utils/domain/review';
import { reviewKey } from '../../utils/reviews/records';
import type { Listing } from '../../utils/domain/listing';
import type { Cell, Sweep } from '../../utils/domain/sweep';
import { initialCounters } from '../../utils/domain/counters';

export function makeSweep(id: string, overrides: Partial<Sweep> = {}): Sweep {
  return {
    id,
    createdAt: 1_000,
    area: { kind: 'bbox', bbox: { south: 48.8, west: 2.3, north: 48.9, east: 2.4 } },
    keywords: ['bakery', 'florist'],
    settings: {
      delayMs: 4000,
      jitterMs: 2000,
      cellTimeoutMs: 60_000,
      scrollPauseMs: 800,
      maxAttempts: 3,
      workers: 1,
      dedicatedWindow: false,
      maxCells: 5000,
    },
    status: 'running',
    pauseReason: null,
    problem: null,
    origin: { lat: 48.85, lng: 2.35, zoom: 14 },
    counters: initialCounters([]),
    lastNewListingAt: null,
    updatedAt: 1_000,
    ...overrides,
  };
}

export function makeCell(sweepId: string, path: string, overrides: Partial<Cell> = {}): Cell {
  const keywordIndex = overrides.keywordIndex ?? 0;
  return {
    id: `${sweepId}/${keywordIndex}/${path}`,
    sweepId,
    keyword: keywordIndex === 0 ? 'bakery' : 'florist',
    keywordIndex,
    bbox: { south: 48.8, west: 2.3, north: 48.81, east: 2.31 },
    depth: 0,
    distance: 100,
    parentId: null,
    status: 'pending',
    leaseUntil: 0,
    leaseHolder: null,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    result: null,
    ...overrides,
  };
}

export function makeListing(cid: string, overrides: Partial<Listing> = {}): Listing {
  return {
    key: `google:${cid}`,
    provider: 'google',
    providerId: cid,
    placeId: null,
    featureId: null,
    cid,
    name: `Place ${cid}`,
    category: 'Bakery',
    address: `${cid} Rue de Test`,
    phone: null,
    website: null,
    rating: 4.5,
    reviews: 10,
    lat: 48.85,
    lng: 2.35,
    url: `https://www.google.com/maps?cid=${cid}`,
    sponsored: false,
    ...overrides,
  };
}

/** A stored review of a place (the reviews pass, issue 38): its site's id, a rating and a date, newest first. */
export function makeReview(placeKey: string, id: string, overrides: Partial<Review> = {}): Review {
  return {
    key: reviewKey(placeKey, id),
    placeKey,
    provider: 'google',
    reviewId: id,
    idFromSite: true,
    rating: 4,
    date: { said: '3 weeks ago', iso: '2026-01-01', precision: 'week' },
    text: 'Good',
    translation: null,
    lang: null,
    ownerReply: null,
    photos: 0,
    visit: null,
    author: null,
    readAt: Date.UTC(2026, 0, 22),
    newestFirst: true,
    ...overrides,
  };
}
