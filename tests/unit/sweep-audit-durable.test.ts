/**
 * Issue 22, "audits and repairs cannot be lost", with the real driver, planner, queue and store
 * against the replica's search semantics (tests/helpers/sim-sweep.ts). The site leaves out a
 * strip wider than any rule foresaw and calibration is off (as in sweep-audit.test.ts), so the
 * closing audit finds places the sweep missed and re-opens cells.
 */
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../utils/store';
import { reopenCells } from '../../utils/store/audit-rounds';
import type { Sweep } from '../../utils/domain/sweep';
import { frozenCalibration, simSweep, type SimSweepOptions } from '../helpers/sim-sweep';
import { AREA, inAnyCell, storedKeys, truthKeys, world } from '../helpers/sim-world';

const MISSES: Omit<SimSweepOptions, 'calibration'> = {
  world,
  areaText: AREA,
  keywordsText: 'cafe',
  switches: { signedIn: true, sparseZoomOut: false, geometry: 'right-of-panel', panelWidth: 700 },
  sim: { drawnPanelWidth: 408 },
};

/** Whole in-process sweeps (a few seconds each here): room for a 2-core machine that is busy with other work. */
const SWEEPS_MS = 120_000;

let n = 0;
const freshStore = () => openStore({ name: `audit-durable-${++n}-${Date.now()}` });

/** Whether a commit is an audit cell's. */
const isAudit = (input: Parameters<Store['commitCell']>[0]) => input.outcome.result.reason === 'audit';

/** Ended Finished with nothing open, and every place of the keyword stored unless it lies in a saturated cell (reported). */
async function expectComplete(store: Store, sweep: Sweep, keyword: string): Promise<void> {
  expect(sweep.status).toBe('finished');
  expect((await store.countOpenCells(sweep.id)).total).toBe(0);
  const saturated = await store.listCells(sweep.id, 'saturated');
  const stored = new Set(await storedKeys(store, sweep.id));
  const missing = [...truthKeys(keyword)].filter((k) => !stored.has(k) && !inAnyCell(world.byCid.get(k.slice('google:'.length))!, saturated));
  expect(missing).toEqual([]);
}

describe('the closing audit cannot be lost', () => {
  it(
    'a worker killed right after an audit that found misses committed leaves the evidence whole: misses counted, cells re-opened; the sweep then ends complete',
    async () => {
      const store = await freshStore();
      let snapshot: { sweep: Sweep; open: number } | null = null;
      let killed!: () => void;
      const kill = new Promise<'killed'>((resolve) => (killed = () => resolve('killed')));
      // The service worker stops the moment the audit's commit is on disk: nothing of the worker
      // runs after it (its call never returns), only what was committed is kept.
      const dying: Store = {
        ...store,
        async commitCell(input, inCommit) {
          const r = await store.commitCell(input, inCommit);
          if (!snapshot && isAudit(input) && r.applied && r.newToSweep.length > 0) {
            snapshot = { sweep: (await store.getSweep(input.sweepId))!, open: (await store.countOpenCells(input.sweepId)).total };
            killed();
            return new Promise<never>(() => {});
          }
          return r;
        },
      };
      expect(await Promise.race([simSweep({ ...MISSES, store: dying, calibration: frozenCalibration() }), kill])).toBe('killed');
      const at = snapshot!;
      // What the audit found is in the store the moment its cell is: counted, and its cells open again.
      expect(at.sweep.audit!.missed).toBeGreaterThan(0);
      expect(at.sweep.audit!.reopened).toBeGreaterThan(0);
      expect(at.open).toBeGreaterThan(0);
      expect(at.sweep.status).toBe('running');
      // A new "service worker" on the same store goes on and ends complete.
      const resumed = await simSweep({ ...MISSES, store, calibration: frozenCalibration() });
      expect(resumed.sweep.audit!.missed).toBeGreaterThanOrEqual(at.sweep.audit!.missed);
      await expectComplete(store, resumed.sweep, 'cafe');
    },
    SWEEPS_MS,
  );

  it(
    'three workers, an audit that finds misses, and a worker slow after each audit commit: Finished only with nothing open and every miss collected',
    async () => {
      const store = await freshStore();
      let audits = 0;
      // After an audit's commit the worker is slow to go on (another tab's load, a busy machine):
      // the other two meanwhile see whatever the store says, an empty queue included.
      const slow: Store = {
        ...store,
        async commitCell(input, inCommit) {
          const r = await store.commitCell(input, inCommit);
          if (isAudit(input) && r.applied) {
            audits++;
            await new Promise((resolve) => setTimeout(resolve, 30));
          }
          return r;
        },
      };
      const { sweep } = await simSweep({ ...MISSES, store: slow, workers: 3, seed: 7, calibration: frozenCalibration() });
      expect(audits).toBeGreaterThan(0);
      expect(sweep.audit!.missed).toBeGreaterThan(0);
      expect(sweep.audit!.reopened).toBeGreaterThan(0);
      await expectComplete(store, sweep, 'cafe');
    },
    SWEEPS_MS,
  );

  it(
    'cells re-opened after the sweep finished (a late worker whose visit outlived its lease) make it run again, and a worker loop drives it to the end',
    async () => {
      const store = await freshStore();
      const first = await simSweep({ world, areaText: AREA, keywordsText: 'pharmacy', store });
      expect(first.sweep.status).toBe('finished');
      const done = (await store.listCells(first.sweep.id, 'done')).filter((c) => c.role !== 'audit').slice(0, 3);
      expect(
        await reopenCells(
          store,
          first.sweep.id,
          done.map((c) => c.id),
          (a) => a,
          2_000_000,
        ),
      ).toBe(3);
      expect((await store.getSweep(first.sweep.id))?.status).toBe('running');
      // The loop goes on (here: a loop on the same store, as the re-opening worker's own next turn).
      const again = await simSweep({ world, areaText: AREA, keywordsText: 'pharmacy', store });
      expect(again.loads).toBeGreaterThanOrEqual(3);
      await expectComplete(store, again.sweep, 'pharmacy');
    },
    SWEEPS_MS,
  );
});
