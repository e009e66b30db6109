/**
 * Several "browsers" sweeping one shared sweep in-process: each has its own IndexedDB (its own
 * fake-indexeddb factory), its own pacer and page, and its own team gate, all talking to one
 * real CouchDB-compatible server (tests/helpers/couch-server.ts). The driver, planner, queue,
 * store and gate are the shipped ones; the pages answer with the replica's search semantics
 * through the content script's own observation builder (sim-page-driver.ts). Real time: leases,
 * heartbeats and pacing run on the clock, as between real browsers.
 */
import { IDBFactory } from 'fake-indexeddb';
import { memoryCalibrationStore } from '../../utils/coverage/calibration';
import type { Cell, Sweep, SweepSettings } from '../../utils/domain/sweep';
import { openStore, type Store } from '../../utils/store';
import { runWorker, type WorkerExit } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { planSweep } from '../../utils/sweep/plan';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { cellDocPrefix } from '../../utils/team/docs';
import { createCouch, type Couch, type CouchTarget } from '../../utils/team/couch';
import { createTeamGate, type GateClaim, type TeamGate } from '../../utils/team/gate';
import { joinSweep, shareSweep } from '../../utils/team/share';
import type { TeamSettings, TeamStatus } from '../../utils/team/settings';
import type { World } from '../replica/world';
import { seededRandom } from './random';
import { createSimPageDriver } from './sim-page-driver';

export interface SimBrowser {
  name: string;
  store: Store;
  gate: TeamGate;
  couch: Couch;
  /** Page loads this browser made. */
  loads(): number;
  /** Every cell the database gave this browser, and when. */
  claims: { cellId: string; at: number }[];
  /** Every answer of the gate, by kind. */
  answers: Record<string, number>;
  statuses: TeamStatus[];
  /** The loop's end; never settles for a killed browser. */
  done: Promise<WorkerExit>;
  /** As SIGKILL: its page never answers again and its heartbeats stop; nothing more is written. */
  kill(): void;
}

export interface TeamSimOptions {
  world: World;
  areaText: string;
  keywordsText: string;
  target: CouchTarget;
  browsers: number;
  delayMs: number;
  /** How long each page takes to load and be read (0: at once). A real visit takes seconds, which the pacing's delay does not include. */
  visitMs?: number;
  leaseMs: number;
  seed?: number;
  sweepId?: string;
  settings?: Partial<SweepSettings>;
  /** Called after each page load of any browser, with the team's loads so far. */
  onLoad?(browser: SimBrowser, teamLoads: number): void;
}

export interface TeamSim {
  sweep: Sweep;
  browsers: SimBrowser[];
  teamLoads(): number;
}

let dbCounter = 0;

export async function startTeamSim(o: TeamSimOptions): Promise<TeamSim> {
  const viewport = { width: 1280, height: 800, panelWidth: 408 };
  const settings: SweepSettings = { ...DEFAULT_SETTINGS, delayMs: o.delayMs, jitterMs: 0, ...o.settings };
  const sweepId = o.sweepId ?? `team-${Date.now().toString(36)}-${++dbCounter}`;
  const browsers: SimBrowser[] = [];
  let teamLoads = 0;

  for (let i = 0; i < o.browsers; i++) {
    const name = `browser-${i + 1}`;
    const store = await openStore({ name: `team-sim-${++dbCounter}`, factory: new IDBFactory() });
    const couch = createCouch(o.target, (u, init) => fetch(u, init));
    const me: TeamSettings = { ...o.target, name, browserId: `id-${name}-${sweepId}` };
    let dead = false;
    const timers = new Set<ReturnType<typeof setInterval>>();
    const random = seededRandom((o.seed ?? 1) * 100 + i);
    const statuses: TeamStatus[] = [];
    const claims: SimBrowser['claims'] = [];
    const answers: Record<string, number> = {};
    const gate = createTeamGate({
      store,
      team: async () => ({ couch, me }),
      membership: async () => ({ leaseMs: o.leaseMs }),
      memberSweeps: async () => [sweepId],
      now: Date.now,
      report: (s) => statuses.push(s),
      setInterval: (fn, ms) => {
        if (dead) return null;
        const h = setInterval(fn, ms);
        timers.add(h);
        return h;
      },
      clearInterval: (h) => {
        clearInterval(h as ReturnType<typeof setInterval>);
        timers.delete(h as ReturnType<typeof setInterval>);
      },
    });
    const recorded: TeamGate = {
      ...gate,
      async claim(sweep, cell: Cell, holder) {
        const r: GateClaim | null = await gate.claim(sweep, cell, holder);
        if (r?.kind === 'mine') claims.push({ cellId: cell.id, at: Date.now() });
        answers[r?.kind ?? 'none'] = (answers[r?.kind ?? 'none'] ?? 0) + 1;
        return r;
      },
    };
    const sim = createSimPageDriver(o.world, { viewport, switches: { signedIn: true, sparseZoomOut: false }, random });
    const browser: SimBrowser = {
      name,
      store,
      gate: recorded,
      couch,
      loads: () => sim.loads,
      claims,
      answers,
      statuses,
      done: null as unknown as Promise<WorkerExit>,
      kill() {
        dead = true;
        for (const h of timers) clearInterval(h);
        timers.clear();
      },
    };
    const page: typeof sim = {
      ...sim,
      get loads() {
        return sim.loads;
      },
      async load(tabId, url, timeoutMs) {
        if (dead) return new Promise<never>(() => {});
        if (o.visitMs) await realSleep(o.visitMs);
        const r = await sim.load(tabId, url, timeoutMs);
        teamLoads++;
        o.onLoad?.(browser, teamLoads);
        if (dead) return new Promise<never>(() => {});
        return r;
      },
    };
    (browser as { page?: unknown }).page = page;
    browsers.push(browser);
  }

  // Browser 1 plans and shares; the others join from the database.
  const first = browsers[0]!;
  const plan = planSweep({ areaText: o.areaText, keywordsText: o.keywordsText, settings, viewport, origin: null }, sweepId, Date.now());
  if (!plan.ok) throw new Error(plan.error.message);
  const sweep = await first.store.createSweep(plan.sweep, plan.cells);
  const me = { ...o.target, name: first.name, browserId: `id-${first.name}-${sweepId}` };
  const shared = await shareSweep(first.store, first.couch, me, sweepId, o.leaseMs, Date.now());
  if (!shared.ok) throw new Error(shared.message);
  for (const b of browsers.slice(1)) {
    const joined = await joinSweep(b.store, b.couch, sweepId, settings, Date.now());
    if (!joined.ok) throw new Error(joined.message);
  }

  for (const b of browsers) {
    const pacer = createPacer({ now: Date.now, sleep: realSleep, random: Math.random, timing: () => ({ delayMs: o.delayMs, jitterMs: 0 }) });
    b.done = runWorker(
      {
        store: b.store,
        page: (b as unknown as { page: ReturnType<typeof createSimPageDriver> }).page,
        pacer,
        now: Date.now,
        sleep: realSleep,
        random: Math.random,
        attention: () => {},
        calibration: memoryCalibrationStore(),
        team: b.gate,
      },
      sweepId,
      1,
    );
  }
  return { sweep, browsers, teamLoads: () => teamLoads };
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The keys of the places the database holds for a sweep. */
export async function teamKeys(couch: Couch, sweepId: string): Promise<string[]> {
  const docs = await couch.byPrefix<{ _id: string; type: string; sweeps?: string[]; listing?: { key: string } }>('place:');
  return docs.filter((d) => d.type === 'place' && d.sweeps?.includes(sweepId)).map((d) => d.listing!.key);
}

/** The cell documents of a sweep. */
export async function teamCells(couch: Couch, sweepId: string) {
  return couch.byPrefix<{ _id: string; type: string; settle: { by: string; status: string } | null; lease: unknown }>(cellDocPrefix(sweepId));
}
