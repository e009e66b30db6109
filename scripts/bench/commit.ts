/**
 * How long does one cell's commit take as the store grows? Fills a fresh database with N
 * listings (bulk, large transactions), then times `commitCell` on leased cells. Two shapes:
 * 'simple', 20 listings (10 already stored, 10 new), the cell done; 'crowded', what a real
 * crowded cell commits (issue 15 §5): 120 listings (60 stored, 60 new), the cell split into 4
 * children, and the page's audit event. The commit reads one listing per key, so its time should
 * not grow with N beyond the B-tree's log factor.
 *
 * In the browser bench, pass the real `indexedDB`; run directly (`npx tsx scripts/bench/commit.ts`)
 * it uses fake-indexeddb, whose figures show the algorithm, not the disk.
 */
import type { StoredListing } from '../../utils/domain/listing';
import { leaseNextCell } from '../../utils/queue';
import { handled, openStore, type Store } from '../../utils/store';
import type { Cell, Sweep } from '../../utils/domain/sweep';
import { makeCell, makeListing, makeSweep } from '../../tests/helpers/store-records';
import { medianAndP95 } from './stats';
import type { PageAudit } from '../../utils/domain/page-audit';

const FILL_BATCH = 10_000;

/** What one commit carries (see the file's comment). */
export type CommitShape = 'simple' | 'crowded';
const PER_COMMIT: Record<CommitShape, number> = { simple: 20, crowded: 120 };
export const SWEEP_ID = 'bench';

export interface BenchFigures {
  median: number;
  p95: number;
}

export async function benchCommit(
  factory: IDBFactory,
  sizes: number[],
  samples = 50,
  log: (line: string) => void = () => {},
  clock: () => number = () => performance.now(),
  /**
   * Wait this long after the bulk fill before timing commits: a real database goes on
   * compacting in the background after a large write, and commits timed during that measure
   * the fill, not the store's size.
   */
  settleMs = 0,
  shape: CommitShape = 'simple',
): Promise<Record<string, BenchFigures>> {
  const perCommit = PER_COMMIT[shape];
  const figures: Record<string, BenchFigures> = {};
  for (const size of sizes) {
    const name = `mapsweep-bench-commit-${size}-${Math.round(clock())}`;
    const store = await openStore({ factory, name });
    try {
      await store.createSweep(benchSweep(), benchCells(samples));
      const fillStart = clock();
      await fill(store, size);
      log(`${size} listings filled in ${((clock() - fillStart) / 1000).toFixed(1)} s`);
      if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        times.push(await timedCommit(store, size, i, perCommit, shape, clock));
      }
      figures[String(size)] = medianAndP95(times);
    } finally {
      store.close();
      // The bench's own scratch database; the user's 'mapsweep' database is never touched.
      await new Promise<void>((resolve) => {
        const r = factory.deleteDatabase(name);
        r.onsuccess = r.onerror = r.onblocked = () => resolve();
      });
    }
  }
  return figures;
}

/**
 * Leases the next cell and commits it as the bench's `shape` says: 'simple', done with
 * `perCommit` listings; 'crowded', split into 4 children with the page's audit event, as a
 * crowded cell commits. Returns the commit's own time (the lease is not timed).
 */
export async function timedCommit(store: Store, size: number, i: number, perCommit: number, shape: 'simple' | 'crowded', clock: () => number): Promise<number> {
  const cell = await leaseNextCell(store, { sweepId: SWEEP_ID, holder: 'bench', now: i, leaseMs: 60_000 });
  if (!cell) throw new Error('bench: ran out of cells');
  const listings = commitListings(size, i, perCommit);
  const result = { organic: perCommit, newListings: 0, endOfList: shape === 'simple', capHit: shape === 'crowded', zoomedOut: false, insideShare: 1 };
  const start = clock();
  await store.commitCell({
    sweepId: SWEEP_ID,
    cellId: cell.id,
    holder: 'bench',
    now: i,
    keyword: cell.keyword,
    listings,
    ...(shape === 'crowded'
      ? {
          outcome: { status: 'split' as const, result, children: childrenOf(cell) },
          audit: auditOf(listings.map((l) => l.key)),
          url: 'https://www.google.com/maps/search/bakery/@48.8,2.3,15z',
          maxCells: 1_000_000,
        }
      : { outcome: { status: 'done' as const, result } }),
  });
  return clock() - start;
}

/** N stored listings, written FILL_BATCH per transaction (one transaction per put would take hours). */
export async function fill(store: Store, size: number): Promise<void> {
  for (let from = 0; from < size; from += FILL_BATCH) {
    const to = Math.min(size, from + FILL_BATCH);
    await store.transact(['listings'], 'readwrite', async (tx) => {
      const listings = tx.objectStore('listings');
      const writes: Promise<unknown>[] = [];
      for (let i = from; i < to; i++) writes.push(handled(listings.put(storedListing(i))));
      await Promise.all(writes);
    });
  }
}

/** Half the keys already stored (spread over the key space), half new, different for each sample. */
export function commitListings(size: number, sample: number, perCommit: number) {
  const known = Array.from({ length: perCommit / 2 }, (_, j) => (size > 0 ? (sample * 7919 + j * 104_729) % size : j));
  const fresh = Array.from({ length: perCommit / 2 }, (_, j) => size + sample * perCommit + j);
  return [...known, ...fresh].map((n) => {
    const { firstSeen: _f, lastSeen: _l, collections: _c, keywords: _k, cells: _cells, ...listing } = storedListing(n);
    return { ...listing, phone: `+33 1 ${n}` };
  });
}

export function storedListing(n: number): StoredListing {
  const cid = String(1_000_000_000 + n);
  return {
    ...makeListing(cid, {
      name: `Place ${n}`,
      address: `${n} Rue du Banc d'Essai, Paris`,
      website: n % 3 === 0 ? null : `https://place-${n}.example`,
      rating: 4.2,
      reviews: n % 500,
      lat: 48.85 + (n % 1000) / 100_000,
      lng: 2.35 + (n % 997) / 100_000,
    }),
    firstSeen: 0,
    lastSeen: 0,
    collections: ['fill'],
    keywords: ['bakery'],
    cells: [],
  };
}

export function benchSweep(): Sweep {
  return makeSweep(SWEEP_ID, {
    createdAt: 0,
    keywords: ['bakery'],
    settings: { delayMs: 0, jitterMs: 0, cellTimeoutMs: 60_000, scrollPauseMs: 800, maxAttempts: 3, workers: 1, dedicatedWindow: false, maxCells: 10_000 },
    origin: null,
    updatedAt: 0,
  });
}

/** The four quadrants a crowded cell is split into, as the driver commits them. */
export function childrenOf(parent: Cell): Cell[] {
  const { south, west, north, east } = parent.bbox;
  const midLat = (south + north) / 2;
  const midLng = (west + east) / 2;
  const boxes = [
    { south: midLat, west, north, east: midLng },
    { south: midLat, west: midLng, north, east },
    { south, west, north: midLat, east: midLng },
    { south, west: midLng, north: midLat, east },
  ];
  return boxes.map((bbox, i) => ({
    ...parent,
    id: `${parent.id}.${i}`,
    bbox,
    depth: parent.depth + 1,
    parentId: parent.id,
    status: 'pending' as const,
    leaseUntil: 0,
    leaseHolder: null,
    result: null,
  }));
}

/** The page audit a crowded search logs with its commit (an 'audit' event). */
export function auditOf(keys: string[]): PageAudit {
  return {
    pageKind: 'results',
    cardsVisible: keys.length,
    extracted: keys.length,
    sponsored: 0,
    networkItems: keys.length,
    networkMatched: keys.length,
    firstKeys: keys.slice(0, 5),
    verdict: 'ok',
    networkShortfall: false,
  };
}

export function benchCells(count: number): Cell[] {
  return Array.from({ length: count }, (_, i) => makeCell(SWEEP_ID, `r0c${i}`, { distance: i }));
}

async function main(): Promise<void> {
  // Installs fake-indexeddb's globals (idb recognises objects by the global IDB classes). A side-effect
  // module without type declarations for its .mjs entry, hence the untyped specifier.
  const installGlobals: string = 'fake-indexeddb/auto';
  await import(installGlobals);
  const { IDBFactory } = await import('fake-indexeddb');
  const log = (line: string) => console.log(line);
  log('commitCell of 20 listings (10 known, 10 new), fake-indexeddb, ms:');
  for (const size of [1_000, 100_000]) {
    const figures = await benchCommit(new IDBFactory(), [size], 50, log);
    log(`  ${size} listings: ${JSON.stringify(figures[String(size)])}`);
  }
}

const invokedDirectly = typeof process !== 'undefined' && process.argv[1] !== undefined && import.meta.url === `file://${process.argv[1]}`;
if (invokedDirectly) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
