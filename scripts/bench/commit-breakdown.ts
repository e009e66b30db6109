/**
 * Where a crowded cell's commit spends its time as the store grows (issue 15 §5): the commit
 * itself beside bare transactions doing only parts of it, on the same on-disk database, sample
 * by sample (interleaved, so a background compaction weighs on all of them alike).
 *
 * - `commit`: store.commitCell, exactly as the crowded bench (commit.ts) times it;
 * - `gets`: the commit's 120 `listings.get` in a readonly transaction;
 * - `rw-strict` / `rw-relaxed`: the 120 gets, then the 120 merged puts, in one readwrite
 *   transaction on the listings store alone, durability 'strict' / 'relaxed';
 * - `puts-strict`: the 120 puts without the gets (blind), strict.
 *
 * Phases of the bare transactions: `gets` (start → every get answered), `puts` (→ every put
 * answered), `flush` (→ the transaction's complete event), `total`.
 *
 * `target: 'plain'` runs the bare transactions on a database holding the same listings in a
 * store with NO index (no byCollection), to tell the store's index from the engine. Run each
 * target in a profile of its own: Chromium keeps all of an origin's databases in one store on
 * disk, so a second database in the same profile would double what is stored.
 *
 * The bare writing variants delete the keys they added (untimed), so only `commit` grows the
 * store during the run, as in the crowded bench.
 *
 * Run: `npx tsx scripts/bench/chromium-commit.ts breakdown [samples] [sizes] [targets] [settle s]`.
 * What it showed (2026-12-01, Chromium 156, 2 shared cores under load, 200 samples, medians ms,
 * 1k / 100k / 500k):
 *
 *   commit (product store)          21.0 / 31.3 / 44.4   (2.1×)
 *   gets only, product store         4.2 /  6.5 /  9.4   (2.2×)
 *   gets only, store without index   4.2 /  5.3 /  8.8   (2.1×)
 *   rw-strict, product store        16.3 / 24.6 / 34.3   (2.1×)
 *   rw-strict, store without index  15.0 / 19.0 / 31.5   (2.1×)
 *   puts-strict, without index      11.4 / 12.6 / 22.9   (2.0×)
 *
 * A bare transaction on a store with no index grows as much as the commit: the growth is
 * Chromium's IndexedDB engine (LevelDB), not the commit's shape nor the byCollection index
 * (+1.3 ms at 1k, +2.8 ms at 500k). Every get is a random LevelDB read, deeper at 500k (files
 * per level 0/5/43 against 0/0/2 at 1k). Every put is too (as Chromium's source reads: each
 * put reads the store's version counter, and a read inside a readwrite transaction first
 * writes the buffered changes with an undo log, reading the old value of each key written:
 * record, exists-entry, each index entry, without filling the block cache). And the same writes
 * cost twice the compactions at 500k (104 against 47 while timed; 90 s of settling instead of
 * 10 s changes nothing, so it is not the fill's backlog).
 */
import type { Listing, StoredListing } from '../../utils/domain/listing';
import { mergeListing, organicByKey, type FoundContext } from '../../utils/store/listing-merge';
import { openStore } from '../../utils/store';
import { benchCells, benchSweep, commitListings, fill, storedListing, SWEEP_ID, timedCommit } from './commit';
import { medianAndP95 } from './stats';

const PER_COMMIT = 120;
const FILL_BATCH = 10_000;

export interface PhaseFigures {
  median: number;
  p95: number;
}
/** variant → phase → figures (ms). */
export type Breakdown = Record<string, Record<string, PhaseFigures>>;

type Variant = 'gets' | 'rw-strict' | 'rw-relaxed' | 'puts-strict';
const BARE: Variant[] = ['gets', 'rw-strict', 'rw-relaxed', 'puts-strict'];

export async function crowdedBreakdown(
  factory: IDBFactory,
  size: number,
  samples: number,
  target: 'store' | 'plain',
  log: (line: string) => void = () => {},
  settleMs = 10_000,
): Promise<Breakdown> {
  const name = `mapsweep-bench-breakdown-${target}-${size}-${Math.round(performance.now())}`;
  const store = target === 'store' ? await openStore({ factory, name }) : null;
  let raw: IDBDatabase | null = null;
  const times: Record<string, Record<string, number[]>> = {};
  const record = (variant: string, phase: string, ms: number) => {
    const byPhase = times[variant] ?? {};
    times[variant] = byPhase;
    const list = byPhase[phase] ?? [];
    byPhase[phase] = list;
    list.push(ms);
  };
  try {
    const fillStart = performance.now();
    if (store) {
      await store.createSweep(benchSweep(), benchCells(samples));
      await fill(store, size);
    } else {
      raw = await openPlain(factory, name);
      await fillPlain(raw, size);
    }
    log(`${target}: ${size} listings filled in ${((performance.now() - fillStart) / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    // The product database opened a second time, untyped, for the bare transactions.
    raw ??= await openExisting(factory, name);

    for (let i = 0; i < samples; i++) {
      if (store) {
        record('commit', 'total', await timedCommit(store, size, i, PER_COMMIT, 'crowded', () => performance.now()));
      }
      for (const [v, variant] of BARE.entries()) {
        const found = organicByKey(commitListings(size, (v + 1) * samples + i, PER_COMMIT));
        const phases = await bare(raw, variant, found, i);
        for (const [phase, ms] of Object.entries(phases)) record(variant, phase, ms);
        if (variant !== 'gets') await deleteNew(raw, found.slice(PER_COMMIT / 2));
      }
    }
  } finally {
    raw?.close();
    store?.close();
    await new Promise<void>((resolve) => {
      const r = factory.deleteDatabase(name);
      r.onsuccess = r.onerror = r.onblocked = () => resolve();
    });
  }
  const out: Breakdown = {};
  for (const [variant, phases] of Object.entries(times)) {
    out[variant] = {};
    for (const [phase, values] of Object.entries(phases)) {
      out[variant]![phase] = medianAndP95(values);
    }
  }
  return out;
}

/** One bare transaction on 'listings'; its phases in ms. */
async function bare(db: IDBDatabase, variant: Variant, found: Listing[], now: number): Promise<Record<string, number>> {
  const t0 = performance.now();
  const mode: IDBTransactionMode = variant === 'gets' ? 'readonly' : 'readwrite';
  const durability: IDBTransactionDurability = variant === 'rw-relaxed' ? 'relaxed' : 'strict';
  const tx = db.transaction(['listings'], mode, { durability });
  const done = txDone(tx);
  const os = tx.objectStore('listings');
  const ctx: FoundContext = { now, collection: SWEEP_ID, keyword: 'bakery', cellId: `${SWEEP_ID}/bare` };
  let tGets = t0;
  let known: (StoredListing | undefined)[] = found.map(() => undefined);
  if (variant !== 'puts-strict') {
    known = await Promise.all(found.map((l) => request<StoredListing | undefined>(os.get(l.key))));
    tGets = performance.now();
  }
  let tPuts = tGets;
  if (variant !== 'gets') {
    await Promise.all(found.map((l, i) => request(os.put(mergeListing(known[i], l, ctx)))));
    tPuts = performance.now();
  }
  await done;
  const tDone = performance.now();
  return { gets: tGets - t0, puts: tPuts - tGets, flush: tDone - tPuts, total: tDone - t0 };
}

async function deleteNew(db: IDBDatabase, added: Listing[]): Promise<void> {
  const tx = db.transaction(['listings'], 'readwrite', { durability: 'relaxed' });
  const done = txDone(tx);
  for (const l of added) tx.objectStore('listings').delete(l.key);
  await done;
}

/** The same listings as the product store's fill, in a store with no index. */
function openPlain(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = factory.open(name, 1);
    r.onupgradeneeded = () => r.result.createObjectStore('listings', { keyPath: 'key' });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function openExisting(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = factory.open(name);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function fillPlain(db: IDBDatabase, size: number): Promise<void> {
  for (let from = 0; from < size; from += FILL_BATCH) {
    const tx = db.transaction(['listings'], 'readwrite');
    const done = txDone(tx);
    const os = tx.objectStore('listings');
    for (let i = from; i < Math.min(size, from + FILL_BATCH); i++) os.put(storedListing(i));
    await done;
  }
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function txDone(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('transaction aborted'));
  });
}
