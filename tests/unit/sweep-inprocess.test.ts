import { describe, expect, it } from 'vitest';
import type { Store } from '../../utils/store';
import { simSweep } from '../helpers/sim-sweep';
import { AREA, inAnyCell, storedKeys, truthKeys, world } from '../helpers/sim-world';

async function saturatedKeys(store: Store, sweepId: string, truthKeys: Set<string>): Promise<Set<string>> {
  // Places inside saturated cells may be missing by design: the popup reports those cells.
  const out = new Set<string>();
  const cells = await store.listCells(sweepId, 'saturated');
  for (const p of world.places) {
    if (!truthKeys.has(`google:${p.cid}`)) continue;
    if (inAnyCell(p, cells)) out.add(`google:${p.cid}`);
  }
  return out;
}

describe('a whole sweep in-process (real driver, planner, queue, store; replica search semantics)', () => {
  it('collects exactly the ground truth of a crowded area, each place once', async () => {
    const { store, sweep, loads } = await simSweep({ world, areaText: AREA, keywordsText: 'cafe' });
    expect(sweep.status).toBe('finished');
    const truth = truthKeys('cafe');
    expect(truth.size).toBeGreaterThan(300);
    const keys = await storedKeys(store, sweep.id);
    expect(new Set(keys).size).toBe(keys.length);
    const got = new Set(keys);
    const excused = await saturatedKeys(store, sweep.id, truth);
    const missing = [...truth].filter((k) => !got.has(k) && !excused.has(k));
    expect(missing).toEqual([]);
    // A cell's search shows its whole viewport; places beyond the area are not the user's.
    expect([...got].filter((k) => !truth.has(k))).toEqual([]);
    expect(sweep.counters.cellsSplit).toBeGreaterThan(0);
    expect(loads).toBe(sweep.counters.cellsDone + sweep.counters.cellsSplit + sweep.counters.cellsSaturated);
  });

  it('gives the same listings with three workers sharing the queue, and deduplicates across keywords', async () => {
    const one = await simSweep({ world, areaText: AREA, keywordsText: 'cafe\npharmacy' });
    const three = await simSweep({ world, areaText: AREA, keywordsText: 'cafe\npharmacy', workers: 3, seed: 5 });
    const a = await storedKeys(one.store, one.sweep.id);
    const b = await storedKeys(three.store, three.sweep.id);
    expect(b.sort()).toEqual(a.sort());
    const [firstPharmacy] = truthKeys('pharmacy');
    const first = await one.store.getListing(firstPharmacy!);
    expect(first?.keywords).toEqual(['pharmacy']);
  });

  it('continues after a crash from the last committed cell and ends with the same result', async () => {
    const clean = await simSweep({ world, areaText: AREA, keywordsText: 'cafe' });
    const crashed = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', stopAfterLoads: 7 });
    expect(crashed.sweep.status).toBe('running');
    const doneBefore = crashed.sweep.counters.cellsDone + crashed.sweep.counters.cellsSplit;
    expect(doneBefore).toBeGreaterThan(0);
    // Same store, a new "service worker": leases held by the dead one expire; the rest goes on.
    const resumed = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', store: crashed.store });
    expect(resumed.sweep.status).toBe('finished');
    const a = await storedKeys(clean.store, clean.sweep.id);
    const b = await storedKeys(resumed.store, resumed.sweep.id);
    expect(b.sort()).toEqual(a.sort());
  });

  it('retries failing pages and quarantines a cell that always fails, with its reason', async () => {
    let failing: string | null = null;
    const { store, sweep } = await simSweep({
      world,
      areaText: AREA,
      keywordsText: 'pharmacy',
      sim: {
        errorRate: 0.1,
        alwaysFail: (url) => {
          failing ??= url;
          return url === failing;
        },
      },
      settings: { maxAttempts: 3 },
    });
    expect(sweep.status).toBe('finished');
    const quarantined = await store.listCells(sweep.id, 'quarantined');
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]!.attempts).toBe(3);
    expect(quarantined[0]!.lastError?.message).toMatch(/HTTP 500/);
  });
});
