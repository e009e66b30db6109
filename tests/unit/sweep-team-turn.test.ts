/**
 * A shared sweep's cells are offered to the team before the host's turn (issue 36, a team that
 * is slower than one browser): what another browser already searched is committed here while
 * this browser waits for its turn, not after it; the host's turn is taken only for a cell this
 * browser will search, and the lease it holds is renewed when the turn comes.
 */
import { describe, expect, it } from 'vitest';
import type { Cell, CellResult } from '../../utils/domain/sweep';
import { openStore } from '../../utils/store';
import { leaseMsOf, runWorker, type DriverDeps } from '../../utils/sweep/driver';
import { leaseNextCell } from '../../utils/queue';
import { createPacer, type Pacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { providerFor } from '../../utils/providers/registry';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import type { GateClaim, TeamGate } from '../../utils/sweep/team-port';
import { seededRandom } from '../helpers/random';
import { createSimPageDriver } from '../helpers/sim-page-driver';
import { createWorld } from '../replica/world';

const world = createWorld({ seed: 3, places: 2000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 4 });
const VIEWPORT = { width: 1280, height: 800, panelWidth: 408 };

const EMPTY: CellResult = { organic: 0, newListings: 0, endOfList: true, capHit: false, zoomedOut: false, insideShare: 0 };

/** Another browser searched every cell but `mine`: each, when claimed, comes back settled as "nothing there". */
function teamOfOthers(mine: (cell: Cell) => boolean): TeamGate & { claimed: string[] } {
  const claimed: string[] = [];
  return {
    claimed,
    async claim(_sweep, cell): Promise<GateClaim> {
      claimed.push(cell.id);
      if (mine(cell)) return { kind: 'mine' };
      return {
        kind: 'settled',
        settlement: { status: 'done', result: { ...EMPTY, reason: 'no-results' } },
        children: [],
        listings: [],
      };
    },
    settled: async () => {},
    flush: async () => {},
  };
}

/** A sweep of `keywordsText` over `areaText` in a fresh store, on a fake time.now, with its page and an unpaced pacer. */
async function setUp(id: string, areaText: string, keywordsText: string, seed: number) {
  const store = await openStore({ name: `team-turn-${id}-${Date.now()}` });
  const time = { now: 1_000_000 };
  const sleep = async (ms: number) => {
    time.now += Math.max(0, ms);
    await Promise.resolve();
  };
  const settings = { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0 };
  const plan = planSweep({ areaText, keywordsText, settings, viewport: VIEWPORT, origin: null }, id, time.now);
  if (!plan.ok) throw new Error(plan.error.message);
  const sweep = await store.createSweep(plan.sweep, plan.cells);
  const page = createSimPageDriver(world, { viewport: VIEWPORT, switches: { signedIn: true, sparseZoomOut: false } });
  const random = seededRandom(seed);
  const pacer = createPacer({ now: () => time.now, sleep, random, timing: () => settings });
  return { store, time, sleep, plan, sweep, page, random, pacer };
}

/** The sweep's only cell (a tiny area, one keyword). */
const ONE_CELL = '37.55,126.96,37.56,126.97';

describe("a shared sweep's cells and the host's turn", () => {
  it("what the team settled is committed while this browser's turn is still to come", async () => {
    const { store, time, sleep, plan, sweep, page, random, pacer: inner } = await setUp('t1', '37.50,126.90,37.63,127.06', 'cafe\npharmacy\nbakery\nbank', 5);
    const searchable = plan.cells.filter((c) => !c.status || c.status === 'pending');
    expect(searchable.length).toBeGreaterThan(3);
    // The host's turn is held elsewhere (another tab's slow load, a backoff) until released by hand.
    let openTurns!: () => void;
    const turnsOpen = new Promise<void>((r) => (openTurns = r));
    let turnsAsked = 0;
    const pacer: Pacer = {
      ...inner,
      acquire: async (target) => {
        turnsAsked++;
        await turnsOpen;
        return inner.acquire(target);
      },
    };
    // This browser's own cell is the last one leased; every other cell was searched by the team.
    const ownId = searchable.at(-1)!.id;
    const team = teamOfOthers((c) => c.id === ownId || c.parentId !== null);
    const deps: DriverDeps = { store, page, pacer, now: () => time.now, sleep, random, attention: () => {}, team };

    const run = runWorker(deps, sweep.id, 1);
    // Before any turn is granted, every cell the team settled is committed here.
    // (Polled for up to 10 s of real time: a loaded machine runs the loop slowly, never differently.)
    for (let i = 0; i < 1000; i++) {
      const done = (await store.listCells(sweep.id, 'done')).length;
      if (done >= searchable.length - 1 && turnsAsked > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const doneBeforeTurn = await store.listCells(sweep.id, 'done');
    expect(doneBeforeTurn.map((c) => c.id).sort()).toEqual(
      searchable
        .filter((c) => c.id !== ownId)
        .map((c) => c.id)
        .sort(),
    );
    expect(page.loads).toBe(0);
    // Only the cell this browser searches asked for a turn.
    expect(turnsAsked).toBe(1);
    openTurns();
    expect(await run).toBe('finished');
    expect(page.loads).toBeGreaterThan(0);
    expect((await store.getCell(ownId))?.status).toMatch(/done|split|saturated/);
  }, 30_000);

  it('a lease that ran out during a long wait for the turn stays with the worker that took it; the turn goes unused', async () => {
    const { store, time, sleep, sweep, page, random, pacer: inner } = await setUp('t2', ONE_CELL, 'cafe', 6);
    let stolen: Cell | null = null;
    let loadsAtTurn = -1;
    const releases: (string | undefined)[] = [];
    const pacer: Pacer = {
      ...inner,
      acquire: async (target) => {
        if (!stolen) {
          // A backoff longer than the lease: meanwhile another loop takes the cell that ran out.
          await sleep(leaseMsOf(sweep) + 60_000);
          stolen = await leaseNextCell(store, { sweepId: sweep.id, holder: 'other-loop', now: time.now, leaseMs: 1e12 });
          loadsAtTurn = page.loads;
        }
        const release = await inner.acquire(target);
        return (use) => {
          releases.push(use);
          release(use);
        };
      },
    };
    const deps: DriverDeps = { store, page, pacer, now: () => time.now, sleep, random, attention: () => {} };
    const run = runWorker(deps, sweep.id, 1);
    // The other loop holds the sweep's only cell for good: this loop waits (its fake time.now racing on), never searches it.
    for (let i = 0; i < 1000 && !stolen; i++) await new Promise((r) => setTimeout(r, 10));
    expect(stolen).not.toBeNull();
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 10));
    expect(loadsAtTurn).toBe(0);
    expect(page.loads).toBe(0);
    expect((await store.getCell(stolen!.id))?.leaseHolder).toBe('other-loop');
    // The turn was given back as unused: it does not count as the lane's last load.
    expect(releases).toEqual(['unused']);
    await store.patchSweep(sweep.id, { status: 'paused', pauseReason: 'user' });
    expect(await run).toBe('not-running');
  }, 30_000);

  it('a wait for the turn that outlasted the lease asks the team again: a cell another browser took meanwhile is not searched here', async () => {
    const { store, time, sleep, sweep, page, random, pacer: inner } = await setUp('t3', ONE_CELL, 'cafe', 7);
    let waited = false;
    const pacer: Pacer = {
      ...inner,
      acquire: async (target) => {
        if (!waited) {
          // A backoff longer than the lease: the team's heartbeat for the cell has stopped meanwhile.
          waited = true;
          await sleep(leaseMsOf(sweep) + 60_000);
        }
        return inner.acquire(target);
      },
    };
    // The database gives the cell to this browser first; by the time its turn comes, another holds it.
    const answers: GateClaim['kind'][] = [];
    const team: TeamGate = {
      async claim() {
        const kind = answers.length === 0 ? 'mine' : 'elsewhere';
        answers.push(kind);
        if (kind === 'mine') return { kind };
        // Paused by the user once the other browser holds it, so the loop ends here.
        await store.patchSweep(sweep.id, { status: 'paused', pauseReason: 'user' });
        return { kind: 'elsewhere', until: time.now + 60_000 };
      },
      settled: async () => {},
      flush: async () => {},
    };
    const deps: DriverDeps = { store, page, pacer, now: () => time.now, sleep, random, attention: () => {}, team };
    expect(await runWorker(deps, sweep.id, 1)).toBe('not-running');
    expect(answers).toEqual(['mine', 'elsewhere']);
    expect(page.loads).toBe(0);
    const cell = (await store.listCells(sweep.id)).find((c) => c.role !== 'audit')!;
    expect(cell.status).toBe('pending');
    expect(cell.nextAttemptAt).toBeGreaterThan(time.now);
  }, 30_000);

  it('a store error once the turn is granted gives the turn back before it propagates: the host lane is never left held', async () => {
    const { store, time, sleep, sweep, page, random, pacer } = await setUp('t4', ONE_CELL, 'cafe', 8);
    let granted = false;
    const failing = Object.create(store) as typeof store;
    failing.getSweep = async (id: string) => {
      if (granted) throw new Error('the disk went away');
      return store.getSweep(id);
    };
    const turns: Pacer = {
      ...pacer,
      acquire: async (target) => {
        const release = await pacer.acquire(target);
        granted = true;
        return release;
      },
    };
    const deps: DriverDeps = { store: failing, page, pacer: turns, now: () => time.now, sleep, random, attention: () => {} };
    await expect(runWorker(deps, sweep.id, 1)).rejects.toThrow('the disk went away');
    // Had the turn been kept, this would wait for ever (and the test time out).
    const next = await Promise.race([pacer.acquire(providerFor('google').laneUrl), new Promise<null>((r) => setTimeout(() => r(null), 2000))]);
    expect(next).not.toBeNull();
  }, 30_000);
});
