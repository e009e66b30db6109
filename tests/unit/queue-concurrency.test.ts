import { describe, expect, it } from 'vitest';
import { failCell, leaseNextCell, renewLease } from '../../utils/queue';
import { openStore, type Store } from '../../utils/store';
import type { Cell, ErrorKind } from '../../utils/domain/sweep';
import { childOf, freshFactory, makeCells, makeListing, makeSweep, RESULT, seeded } from './store-fixtures';

const LEASE_MS = 30_000;
const MAX_ATTEMPTS = 3;
const HOLDERS = ['tab:0', 'tab:1', 'tab:2', 'tab:3', 'tab:4'];
const RETRYABLE: ErrorKind[] = ['timeout', 'http', 'navigation', 'internal'];

interface Held {
  cellId: string;
  until: number;
}

/**
 * Several workers interleave lease / commit / fail / renew / crash on one sweep, all their
 * operations of a round running concurrently against the store, with time jumping by random
 * amounts (so leases expire under workers that still believe they hold them) and the
 * database reopened now and then (a restarted service worker). The model below knows what
 * each worker was granted; the store must never grant a cell while another grant is valid.
 */
async function run(seed: number) {
  const random = seeded(seed);
  const factory = freshFactory();
  const name = `concurrency-${seed}`;
  let store: Store = await openStore({ factory, name });
  const cells = [...makeCells('s1', 30), ...makeCells('s1', 30, { keywordIndex: 1, keyword: 'florist' })];
  await store.createSweep(makeSweep('s1'), cells);

  const held = new Map<string, Held>(); // what each live worker believes it holds
  let ghosts: Held[] = []; // leases of workers that crashed: still valid in the store until they expire
  const histogram = new Map<number, number>(); // valid leases on a cell right after a grant → how often
  const grants = new Map<string, number>();
  const applied = new Map<string, number>();
  const quarantined = new Map<string, number>();
  const committedCids = new Set<string>();
  let stale = 0;
  let conflictsAtCommit = 0;
  let now = 0;
  let restarts = 0;

  const validOn = (cellId: string, except?: string) =>
    [...[...held.entries()].filter(([h]) => h !== except).map(([, l]) => l), ...ghosts].filter((l) => l.cellId === cellId && l.until > now).length;

  async function act(holder: string): Promise<void> {
    const mine = held.get(holder);
    if (!mine) {
      const cell = await leaseNextCell(store, { sweepId: 's1', holder, now, leaseMs: LEASE_MS });
      if (!cell) return;
      held.set(holder, { cellId: cell.id, until: cell.leaseUntil });
      const valid = validOn(cell.id);
      histogram.set(valid, (histogram.get(valid) ?? 0) + 1);
      grants.set(cell.id, (grants.get(cell.id) ?? 0) + 1);
      return;
    }
    const r = random();
    if (r < 0.45) {
      const cell = (await store.getCell(mine.cellId)) as Cell;
      const split = cell.depth === 0 && random() < 0.15;
      const cids = Array.from({ length: 3 }, () => String(1 + Math.floor(random() * 60)));
      const othersValid = validOn(mine.cellId, holder);
      const result = await store.commitCell({
        sweepId: 's1',
        cellId: mine.cellId,
        holder,
        now,
        keyword: cell.keyword,
        listings: cids.map((c) => makeListing(c)),
        outcome: split
          ? { status: 'split', result: RESULT, children: [childOf(cell, 0), childOf(cell, 1, { distance: cell.distance + 1 })] }
          : { status: 'done', result: RESULT },
      });
      held.delete(holder);
      if (result.applied) {
        applied.set(mine.cellId, (applied.get(mine.cellId) ?? 0) + 1);
        if (othersValid > 0) conflictsAtCommit += 1;
        for (const c of cids) committedCids.add(c);
      } else {
        stale += 1;
      }
    } else if (r < 0.65) {
      const kind = RETRYABLE[Math.floor(random() * RETRYABLE.length)]!;
      const result = await failCell(store, {
        cellId: mine.cellId,
        holder,
        now,
        error: { kind, message: kind, at: now },
        maxAttempts: MAX_ATTEMPTS,
        random,
      });
      held.delete(holder);
      if (result.applied && result.outcome === 'quarantined') {
        quarantined.set(mine.cellId, (quarantined.get(mine.cellId) ?? 0) + 1);
      }
      if (!result.applied) stale += 1;
    } else if (r < 0.75) {
      const ok = await renewLease(store, { cellId: mine.cellId, holder, now, leaseMs: LEASE_MS });
      if (ok) mine.until = now + LEASE_MS;
      else held.delete(holder);
    } else if (r < 0.82) {
      // The worker dies: its lease stays in the store until it runs out.
      ghosts.push(mine);
      held.delete(holder);
    }
    // Otherwise the worker is slow this round; its lease may run out under it.
  }

  for (let round = 0; round < 5_000; round++) {
    // Mostly a few seconds; now and then a long stall that outlasts every lease.
    now += random() < 0.1 ? LEASE_MS + Math.floor(random() * LEASE_MS) : Math.floor(random() * 12_000);
    ghosts = ghosts.filter((g) => g.until > now);
    if (random() < 0.02) {
      // The service worker restarts: every worker forgets what it held; the store remembers.
      store.close();
      store = await openStore({ factory, name });
      for (const l of held.values()) ghosts.push(l);
      held.clear();
      restarts += 1;
    }
    await Promise.all(HOLDERS.map((h) => act(h)));
    if (held.size === 0 && (await store.countOpenCells('s1')).total === 0) break;
  }

  const finalCells = await store.listCells('s1');
  const sweep = await store.getSweep('s1');
  const listings = await store.countListings('s1');
  store.close();
  return { histogram, grants, applied, quarantined, finalCells, sweep, listings, committedCids, stale, conflictsAtCommit, restarts };
}

const SEEDS = [1, 2, 3, 4, 5, 6, 77, 2024];

describe('no cell is ever leased to two holders at once', () => {
  it(`holds over ${SEEDS.length} seeded runs, each cell settled exactly once`, async () => {
    const runs: Awaited<ReturnType<typeof run>>[] = [];
    for (const seed of SEEDS) {
      const r = await run(seed);
      runs.push(r);
      const at = `seed ${seed}`;

      // Every grant found exactly one valid lease on its cell: its own.
      expect([...r.histogram.keys()], at).toEqual([1]);
      expect(r.conflictsAtCommit, at).toBe(0);

      // Every cell ended settled, exactly once.
      for (const cell of r.finalCells) {
        expect(['done', 'split', 'quarantined'], `${at}: ${cell.id}`).toContain(cell.status);
        const settled = [r.applied.get(cell.id) ?? 0, r.quarantined.get(cell.id) ?? 0];
        expect(settled, `${at}: ${cell.id} [commits, quarantines]`).toEqual(cell.status === 'quarantined' ? [0, 1] : [1, 0]);
      }
      // The counters agree with the cells and listings they count.
      const count = (s: string) => r.finalCells.filter((c) => c.status === s).length;
      expect(r.sweep?.counters, at).toMatchObject({
        cellsKnown: r.finalCells.length,
        cellsDone: count('done'),
        cellsSplit: count('split'),
        cellsQuarantined: count('quarantined'),
        listingsNew: r.committedCids.size,
      });
      expect(r.listings, at).toBe(r.committedCids.size);
    }

    // The runs went through the hard paths, or the checks above prove little.
    const total = (f: (r: Awaited<ReturnType<typeof run>>) => number) => runs.reduce((n, r) => n + f(r), 0);
    expect(total((r) => r.histogram.get(1) ?? 0)).toBeGreaterThan(500);
    expect(total((r) => [...r.grants.values()].filter((g) => g > 1).length)).toBeGreaterThan(50); // re-granted after expiry or retry
    expect(total((r) => r.stale)).toBeGreaterThan(0); // a worker settled a cell it had lost
    expect(total((r) => r.restarts)).toBeGreaterThan(0);
    expect(total((r) => r.finalCells.filter((c) => c.status === 'split').length)).toBeGreaterThan(0);
    expect(total((r) => r.finalCells.filter((c) => c.status === 'quarantined').length)).toBeGreaterThan(0);
  });
});
