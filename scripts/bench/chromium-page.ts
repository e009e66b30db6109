/**
 * The bench's code that runs INSIDE an extension page, against the extension's real IndexedDB.
 * chromium-session.ts bundles this file with esbuild (iife, global `MapSweepBench`) and evaluates
 * the bundle in the popup; Playwright's evaluate is not subject to the page's CSP.
 */
import { DEFAULT_VIEWPORT } from '../../utils/geo';
import type { StoredListing } from '../../utils/domain/listing';
import { handled, openStore, type Store } from '../../utils/store';
import { planSweep } from '../../utils/sweep/plan';
import { normaliseSettings } from '../../utils/config/settings';
import type { Sweep } from '../../utils/domain/sweep';
import { benchCommit, type BenchFigures } from './commit';
import { crowdedBreakdown, type Breakdown } from './commit-breakdown';
import { makeListing } from '../../tests/helpers/store-records';

/** Listings per fill transaction: one transaction per put would take hours at 500k. */
const FILL_BATCH = 10_000;

/** commitCell latency in a scratch database (never 'mapsweep'); progress goes to the console. */
export function commitLatency(sizes: number[], samples: number): Promise<Record<string, BenchFigures>> {
  return benchCommit(indexedDB, sizes, samples, (line) => console.log(`[bench] ${line}`), undefined, 10_000);
}

/** The same for a crowded cell's commit: 120 listings, 4 children, the page's audit event (commit.ts). */
export function crowdedCommitLatency(sizes: number[], samples: number): Promise<Record<string, BenchFigures>> {
  return benchCommit(indexedDB, sizes, samples, (line) => console.log(`[bench] ${line}`), undefined, 10_000, 'crowded');
}

/** Where the crowded commit's time goes at one size (commit-breakdown.ts); `target` 'plain' = a store without index. */
export function crowdedCommitBreakdown(size: number, samples: number, target: 'store' | 'plain', settleMs = 10_000): Promise<Breakdown> {
  return crowdedBreakdown(indexedDB, size, samples, target, (line) => console.log(`[bench] ${line}`), settleMs);
}

export interface SeedRequest {
  sweepId: string;
  keywordsText: string;
  areaText: string;
  status: Sweep['status'];
  pauseReason: Sweep['pauseReason'];
  /** Partial SweepSettings; normalised like the options page's. */
  settings: Record<string, number | boolean>;
  /** Listings written into the sweep's collection. */
  listings: number;
  /** Moves the sweep's creation time back, so a newer sweep shows first in the popup. */
  createdAgoMs?: number;
}

export interface SeedResult {
  cells: number;
  listings: number;
  fillMs: number;
}

/**
 * A planned sweep (its real initial cells, all pending) in the extension's own 'mapsweep'
 * database, with `listings` places filed under its collection, as if it had found them.
 */
export async function seedSweep(req: SeedRequest): Promise<SeedResult> {
  const now = Date.now() - (req.createdAgoMs ?? 0);
  const plan = planSweep(
    { areaText: req.areaText, keywordsText: req.keywordsText, settings: normaliseSettings(req.settings), viewport: DEFAULT_VIEWPORT, origin: null },
    req.sweepId,
    now,
  );
  if (!plan.ok) throw new Error(`bench: the seed sweep was refused: ${plan.error.message}`);
  const store = await openStore();
  try {
    await store.createSweep({ ...plan.sweep, status: req.status, pauseReason: req.pauseReason }, plan.cells);
    const start = performance.now();
    await fillListings(store, req.listings, req.sweepId, req.keywordsText, now);
    return { cells: plan.cells.length, listings: await store.countListings(req.sweepId), fillMs: performance.now() - start };
  } finally {
    store.close();
  }
}

async function fillListings(store: Store, count: number, collection: string, keyword: string, at: number): Promise<void> {
  for (let from = 0; from < count; from += FILL_BATCH) {
    const to = Math.min(count, from + FILL_BATCH);
    await store.transact(['listings'], 'readwrite', async (tx) => {
      const listings = tx.objectStore('listings');
      const writes: Promise<unknown>[] = [];
      for (let n = from; n < to; n++) writes.push(handled(listings.put(seededListing(n, collection, keyword, at))));
      await Promise.all(writes);
    });
  }
}

/**
 * A plausible place: every CSV column filled, with a comma, a quote and non-ASCII text where
 * real names and addresses have them. CIDs start at 9e18, far from the replica's own.
 */
function seededListing(n: number, collection: string, keyword: string, at: number): StoredListing {
  const cid = String(9_000_000_000_000_000_000n + BigInt(n));
  return {
    ...makeListing(cid, {
      name: n % 7 === 0 ? `Café "Le ${n}", Seoul` : `Place ${n}`,
      category: 'Cafe',
      address: `${n} Sejong-daero, Jung-gu, Seoul`,
      phone: n % 4 === 0 ? null : `+82 2-${String(1000 + (n % 9000))}-${String(n % 10_000).padStart(4, '0')}`,
      website: n % 3 === 0 ? null : `https://place-${n}.example`,
      rating: 3 + (n % 20) / 10,
      reviews: n % 500,
      lat: 37.5 + (n % 1000) / 10_000,
      lng: 126.9 + (n % 997) / 10_000,
    }),
    firstSeen: at,
    lastSeen: at,
    collections: [collection],
    keywords: [keyword],
    cells: [`${collection}/0/r0c0`],
  };
}
