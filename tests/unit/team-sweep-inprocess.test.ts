// @vitest-environment node
/**
 * One sweep, three browsers, one database (issue 26), in-process: the shipped driver, queue,
 * store and team gate against a real CouchDB-compatible server, on real time. What the team
 * collects must equal what one browser alone collects, each place once, each cell searched by
 * one browser unless its lease ran out; a browser killed mid-cell and the database stopped
 * mid-sweep lose nothing and count nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamProgress } from '../../utils/team/progress';
import type { CouchTarget } from '../../utils/team/couch';
import { startCouchServer, type CouchServer } from '../helpers/couch-server';
import { simSweep } from '../helpers/sim-sweep';
import { storedKeys, world } from '../helpers/sim-world';
import { startTeamSim, teamCells, teamKeys, type SimBrowser } from '../helpers/team-sim';

/** A part of the sim world's crowded area: about thirty searches with splits. */
const AREA = '37.55,126.96,37.58,127.0';
const KEYWORD = 'cafe';

let server: CouchServer;
let target: CouchTarget;
let solo: { keys: string[]; loads: number };

beforeAll(async () => {
  server = await startCouchServer();
  target = await server.database('team-inprocess');
  const one = await simSweep({ world, areaText: AREA, keywordsText: KEYWORD });
  solo = { keys: (await storedKeys(one.store, one.sweep.id)).sort(), loads: one.loads };
}, 120_000);
afterAll(async () => server?.close());

/** Cells two browsers were given: allowed only when the first holder's lease had run out. */
function doubleClaims(browsers: SimBrowser[]) {
  const by = new Map<string, { browser: string; at: number }[]>();
  for (const b of browsers) for (const c of b.claims) by.set(c.cellId, [...(by.get(c.cellId) ?? []), { browser: b.name, at: c.at }]);
  return [...by.entries()]
    .filter(([, cs]) => new Set(cs.map((c) => c.browser)).size > 1)
    .map(([cellId, cs]) => ({ cellId, claims: cs.sort((a, b) => a.at - b.at) }));
}

describe('a team sweep in-process', () => {
  it('three browsers collect what one browser collects, each cell searched once, each place once', { timeout: 180_000 }, async () => {
    expect(solo.keys.length).toBeGreaterThan(50);
    const sim = await startTeamSim({ world, areaText: AREA, keywordsText: KEYWORD, target, browsers: 3, delayMs: 400, leaseMs: 20_000, seed: 3 });
    const exits = await Promise.all(sim.browsers.map((b) => b.done));
    expect(exits).toEqual(['finished', 'finished', 'finished']);
    const couch = sim.browsers[0]!.couch;
    expect((await teamKeys(couch, sim.sweep.id)).sort()).toEqual(solo.keys);
    // Every browser's own copy holds the whole team's collection (what its export gives).
    for (const b of sim.browsers) expect((await storedKeys(b.store, sim.sweep.id)).sort()).toEqual(solo.keys);
    expect(doubleClaims(sim.browsers)).toEqual([]);
    // Each browser did a share of the work. The team loads a few pages more than one browser
    // alone: each browser learns its own window's geometry from its own first searches (a
    // search planned on the first guess is made again at once, utils/coverage).
    const loads = sim.browsers.map((b) => b.loads());
    for (const n of loads) expect(n).toBeGreaterThan(2);
    expect(loads.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(Math.ceil(solo.loads * 1.3));
    // The team's progress counts what is in the database: each settled cell once, each place once.
    await Promise.all(sim.browsers.map((b) => b.gate.flush()));
    const cells = await teamCells(couch, sim.sweep.id);
    const progress = await teamProgress(couch, sim.sweep.id, 'nobody');
    expect(progress.cells).toBe(cells.filter((c) => c.settle).length);
    expect(progress.places).toBe(solo.keys.length);
    expect(progress.browsers.map((b) => b.name).sort()).toEqual(['browser-1', 'browser-2', 'browser-3']);
  });

  it('a browser killed mid-cell: its cell is taken over once its lease ran out; nothing lost, nothing doubled', { timeout: 180_000 }, async () => {
    let killedAt = 0;
    const sim = await startTeamSim({
      world,
      areaText: AREA,
      keywordsText: KEYWORD,
      target,
      browsers: 3,
      delayMs: 400,
      // The shortest lease a sweep may have (utils/team/docs.ts LEASE_LIMITS_MS).
      leaseMs: 10_000,
      seed: 4,
      onLoad(b, n) {
        // Browser 2 dies during its fourth search (its page never answers, its heartbeat stops).
        if (b.name === 'browser-2' && b.loads() === 4 && !killedAt) {
          killedAt = Date.now();
          b.kill();
        }
        void n;
      },
    });
    const [a, , c] = sim.browsers;
    expect(await Promise.all([a!.done, c!.done])).toEqual(['finished', 'finished']);
    expect(killedAt).toBeGreaterThan(0);
    const couch = a!.couch;
    expect((await teamKeys(couch, sim.sweep.id)).sort()).toEqual(solo.keys);
    for (const b of [a!, c!]) expect((await storedKeys(b.store, sim.sweep.id)).sort()).toEqual(solo.keys);
    // Only the dead browser's cell was given twice, and only after its lease ran out.
    const doubles = doubleClaims(sim.browsers);
    expect(doubles).toHaveLength(1);
    const [first, second] = doubles[0]!.claims;
    expect(first!.browser).toBe('browser-2');
    // The times are taken when each claim came back, so a request's latency (well under 250 ms here) blurs them.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(10_000 - 250);
    const cells = await teamCells(couch, sim.sweep.id);
    expect(cells.filter((d) => d.settle === null && d.lease !== null)).toEqual([]);
  });

  it('the database stopped mid-sweep and started again: results wait, are sent, nothing lost or doubled', { timeout: 240_000 }, async () => {
    let stopped: Promise<void> | null = null;
    const sim = await startTeamSim({
      world,
      areaText: AREA,
      keywordsText: KEYWORD,
      target,
      browsers: 3,
      delayMs: 400,
      leaseMs: 20_000,
      seed: 5,
      onLoad(_b, n) {
        if (n === 12 && !stopped)
          stopped = server
            .stop()
            .then(() => new Promise<void>((r) => setTimeout(r, 4_000)))
            .then(() => server.start());
      },
    });
    const exits = await Promise.all(sim.browsers.map((b) => b.done));
    await stopped;
    expect(exits).toEqual(['finished', 'finished', 'finished']);
    // Each browser saw the database go and come back, and said so.
    const offline = sim.browsers.filter((b) => b.statuses.some((s) => s.state === 'offline'));
    expect(offline.length).toBeGreaterThan(0);
    for (const b of offline) expect(b.statuses.at(-1)?.state).toBe('online');
    await Promise.all(sim.browsers.map((b) => b.gate.flush()));
    const couch = sim.browsers[0]!.couch;
    expect((await teamKeys(couch, sim.sweep.id)).sort()).toEqual(solo.keys);
    for (const b of sim.browsers) expect((await storedKeys(b.store, sim.sweep.id)).sort()).toEqual(solo.keys);
    const cells = await teamCells(couch, sim.sweep.id);
    const progress = await teamProgress(couch, sim.sweep.id, 'nobody');
    expect(progress.cells).toBe(cells.filter((d) => d.settle).length);
    expect(progress.places).toBe(solo.keys.length);
    // Searched again only where a lease ran out during the outage.
    expect(sim.browsers.reduce((n, b) => n + b.loads(), 0)).toBeLessThanOrEqual(Math.ceil(solo.loads * 1.3));
  });
});
