// @vitest-environment node
/**
 * The team gate's promises that a whole sweep does not exercise on its own: a result committed
 * here but never written to the database (the worker died in between, or the database was
 * away) is written from the local queue itself; another browser's result is never overwritten;
 * wrong credentials pause the sweep with the reason and load no page; Join refuses a document
 * whose cells are not its sweep's.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseNextCell } from '../../utils/queue';
import { openStore, type Store } from '../../utils/store';
import { runWorker } from '../../utils/sweep/driver';
import { createPacer } from '../../utils/queue/pacing';
import { CouchError, createCouch, type Couch, type CouchTarget } from '../../utils/team/couch';
import { cellDocId, sharedCellOf, sweepDocId, type CellDoc, type Settlement } from '../../utils/team/docs';
import { createTeamGate, OFFLINE_RETRY_MS } from '../../utils/team/gate';
import { claimCell, settleCell } from '../../utils/team/lease';
import { readPlaces } from '../../utils/team/places';
import { teamProgress } from '../../utils/team/progress';
import { joinSweep, shareSweep } from '../../utils/team/share';
import type { TeamSettings, TeamStatus } from '../../utils/team/settings';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { freePort, startCouchServer, type CouchServer } from '../helpers/couch-server';
import { makeCell, makeListing, makeSweep } from '../helpers/store-records';

let server: CouchServer;
let target: CouchTarget;
let n = 0;
const nodeFetch = (i: string, init?: RequestInit) => fetch(i, init);

beforeAll(async () => {
  server = await startCouchServer();
  target = await server.database('gate-tests');
}, 60_000);
afterAll(async () => server?.close());

async function browserWith(sweepId: string, me: TeamSettings, couch: Couch, now: () => number = Date.now) {
  const store = await openStore({ name: `gate-${++n}`, factory: new IDBFactory() });
  const statuses: TeamStatus[] = [];
  const gate = createTeamGate({
    store,
    team: async () => ({ couch, me }),
    membership: async (id) => (id === sweepId ? { leaseMs: 30_000 } : null),
    memberSweeps: async () => [sweepId],
    now,
    report: (s) => statuses.push(s),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  });
  return { store, gate, statuses };
}

/** A sweep of two cells; the first searched and committed here, as if the worker died before it wrote to the database. */
async function committedHereOnly(store: Store, sweepId: string) {
  const cells = [makeCell(sweepId, 'r0c0', { keywordIndex: 0 }), makeCell(sweepId, 'r0c1', { keywordIndex: 0 })];
  await store.createSweep(makeSweep(sweepId, { keywords: ['bakery'] }), cells);
  const leased = await leaseNextCell(store, { sweepId, holder: 'loop:1', now: Date.now(), leaseMs: 60_000 });
  // Google's place ids are numbers (a key the store would refuse is never committed).
  const listings = [makeListing(String(1000 + ++n)), makeListing(String(1000 + ++n))];
  const committed = await store.commitCell({
    sweepId,
    cellId: leased!.id,
    holder: 'loop:1',
    now: Date.now(),
    keyword: 'bakery',
    listings,
    outcome: { status: 'done', result: { organic: 2, newListings: 2, endOfList: true, capHit: false, zoomedOut: false, insideShare: 1 } },
  });
  expect(committed).toMatchObject({ applied: true, newListings: 2 });
  return { cell: leased!, listings };
}

describe('the team gate', () => {
  it('writes a result the database lacks from the local queue, once', async () => {
    const sweepId = `rec${++n}`;
    const couch = createCouch(target, nodeFetch);
    const me: TeamSettings = { ...target, name: 'Ana', browserId: `ana-${sweepId}` };
    const { store, gate } = await browserWith(sweepId, me, couch);
    const { cell, listings } = await committedHereOnly(store, sweepId);
    expect(await couch.get(cellDocId(cell))).toBeNull();
    await gate.flush();
    const doc = await couch.get<CellDoc>(cellDocId(cell));
    expect(doc).toMatchObject({ lease: null, settle: { status: 'done', by: me.browserId, byName: 'Ana' } });
    expect(doc!.settle!.places.sort()).toEqual(listings.map((l) => l.key).sort());
    expect(
      (
        await readPlaces(
          couch,
          listings.map((l) => l.key),
        )
      )
        .map((l) => l.key)
        .sort(),
    ).toEqual(listings.map((l) => l.key).sort());
    // The place as the site showed it, not what this browser knows of it (its other sweeps, keywords, cells, times).
    const placeDoc = await couch.get<{ _id: string; listing: Record<string, unknown> }>(`place:${listings[0]!.key}`);
    for (const local of ['collections', 'keywords', 'cells', 'firstSeen', 'lastSeen']) expect(placeDoc!.listing).not.toHaveProperty(local);
    // A new worker (nothing in memory) compares again and writes nothing twice.
    await gate.flush();
    const again = createTeamGate({
      store,
      team: async () => ({ couch, me }),
      membership: async () => ({ leaseMs: 30_000 }),
      memberSweeps: async () => [sweepId],
      now: Date.now,
      report: () => {},
      setInterval: () => null,
      clearInterval: () => {},
    });
    await again.flush();
    expect(await teamProgress(couch, sweepId, me.browserId)).toMatchObject({ cells: 1, places: 2 });
  });

  it('announces what it writes in its progress first: with the progress document away nothing is written, and all is counted once it is back', async () => {
    const sweepId = `count${++n}`;
    const real = createCouch(target, nodeFetch);
    // The progress document's writes are slow (300 ms), and fail while `progressDown` holds.
    const written: string[] = [];
    let progressDown = true;
    const couch: Couch = {
      ...real,
      async put(doc) {
        if (doc._id.startsWith('progress:')) {
          await new Promise((r) => setTimeout(r, 300));
          if (progressDown) throw new CouchError('offline', 'the database is away');
        }
        const r = await real.put(doc);
        written.push(doc._id.split(':')[0]!);
        return r;
      },
    };
    const me: TeamSettings = { ...target, name: 'Ana', browserId: `ana-${sweepId}` };
    let later = 0;
    const { store, gate, statuses } = await browserWith(sweepId, me, couch, () => Date.now() + later);
    await committedHereOnly(store, sweepId);
    await gate.flush();
    expect(statuses.at(-1)).toMatchObject({ state: 'offline' });
    // The announcement failed, so nothing was written: no place and no settlement that nobody would count.
    expect(written).toEqual([]);
    expect(await couch.get(cellDocId((await store.listCells(sweepId))[0]!))).toBeNull();
    expect(await teamProgress(real, sweepId, me.browserId)).toMatchObject({ cells: 0, places: 0 });
    // The database answers again: the next flush writes the cell and counts it.
    progressDown = false;
    later = OFFLINE_RETRY_MS.first;
    await gate.flush();
    expect(await teamProgress(real, sweepId, me.browserId)).toMatchObject({ cells: 1, places: 2 });

    // A second browser's settled cell: announced in its progress before the cell shows as settled.
    const otherId = `count${++n}`;
    written.length = 0;
    const other = await browserWith(otherId, { ...me, browserId: `bo-${otherId}` }, couch);
    await committedHereOnly(other.store, otherId);
    await other.gate.flush();
    expect(written.indexOf('progress')).toBeGreaterThanOrEqual(0);
    expect(written.indexOf('progress')).toBeLessThan(written.indexOf('cell'));
  });

  it('a browser killed right after its places were written is counted all the same, by whoever reads the progress', async () => {
    const sweepId = `killed${++n}`;
    const real = createCouch(target, nodeFetch);
    // From the moment the places' write is answered, nothing this browser sends arrives (it was killed).
    let dead = false;
    const never = () => new Promise<never>(() => {});
    const couch: Couch = {
      ...real,
      put: (doc) => (dead ? never() : real.put(doc)),
      async bulk(docs) {
        if (dead) return never();
        const r = await real.bulk(docs);
        dead = docs.some((d) => d._id.startsWith('place:'));
        return r;
      },
    };
    const me: TeamSettings = { ...target, name: 'Cy', browserId: `cy-${sweepId}` };
    const { store, gate } = await browserWith(sweepId, me, couch);
    await committedHereOnly(store, sweepId);
    void gate.flush();
    await expect.poll(() => dead).toBe(true);
    expect(await teamProgress(real, sweepId, 'someone else')).toMatchObject({ places: 2 });
  });

  it('leaves a cell another browser settled or holds to it', async () => {
    const sweepId = `other${++n}`;
    const couch = createCouch(target, nodeFetch);
    const me: TeamSettings = { ...target, name: 'Ana', browserId: `ana-${sweepId}` };
    const { store, gate } = await browserWith(sweepId, me, couch);
    const { cell } = await committedHereOnly(store, sweepId);
    const bo = await claimCell(couch, { cell, browser: 'bo', holder: 'b1', now: Date.now(), leaseMs: 30_000 });
    const child = { ...sharedCellOf(cell), id: `${cell.id}.0`, parentId: cell.id, depth: cell.depth + 1 };
    const theirs: Settlement = {
      status: 'split',
      result: { organic: 120, newListings: 0, endOfList: false, capHit: true, zoomedOut: false, insideShare: 1 },
      children: [child],
      places: [],
      by: 'bo',
      byName: 'Bo',
      at: 1,
      generation: 0,
    };
    await settleCell(couch, (bo as Extract<typeof bo, { kind: 'mine' }>).doc, theirs);
    await gate.flush();
    expect(await couch.get<CellDoc>(cellDocId(cell))).toMatchObject({ settle: { by: 'bo', status: 'split' } });
  });

  it('an unreachable database is asked again later and later, and at once again after it answered', async () => {
    const sweepId = `back${++n}`;
    const closed = createCouch({ ...target, url: `http://127.0.0.1:${await freePort()}` }, nodeFetch);
    let current = closed;
    const me: TeamSettings = { ...target, name: 'Ana', browserId: `ana-${sweepId}` };
    const store = await openStore({ name: `back-${++n}`, factory: new IDBFactory() });
    let now = 1_000_000;
    const gate = createTeamGate({
      store,
      team: async () => ({ couch: current, me }),
      membership: async () => ({ leaseMs: 30_000 }),
      memberSweeps: async () => [sweepId],
      now: () => now,
      report: () => {},
      setInterval: () => null,
      clearInterval: () => {},
    });
    const sweep = makeSweep(sweepId);
    await store.createSweep(sweep, [makeCell(sweepId, 'r0c0')]);
    const cell = (await store.listCells(sweepId))[0]!;
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await gate.claim(sweep, cell, 'loop:1');
      expect(r?.kind).toBe('offline');
      waits.push((r as { until: number }).until - now);
      // Other cells asked about meanwhile get the same time, without a try of their own.
      expect(await gate.claim(sweep, { ...cell, id: `${cell.id}.0` }, 'loop:2')).toEqual(r);
      now = (r as { until: number }).until;
    }
    expect(waits).toEqual([10_000, 20_000, 40_000]);
    current = createCouch(target, nodeFetch);
    expect((await gate.claim(sweep, cell, 'loop:1'))?.kind).toBe('mine');
    current = closed;
    now += 1;
    expect(await gate.claim(sweep, cell, 'loop:1')).toEqual({ kind: 'offline', until: now + 10_000 });
  });

  it("refuses another browser's document that is not this cell's proof: the refusal counted, the cell taken over and searched here", async () => {
    const sweepId = `hostile${++n}`;
    const couch = createCouch(target, nodeFetch);
    const me: TeamSettings = { ...target, name: 'Ana', browserId: `ana-${sweepId}` };
    const { store, gate, statuses } = await browserWith(sweepId, me, couch);
    const sweep = makeSweep(sweepId);
    await store.createSweep(sweep, [makeCell(sweepId, 'r0c0')]);
    const cell = (await store.listCells(sweepId))[0]!;
    // Well shaped, under this cell's id: another sweep's, another keyword and box, "done" with the cap hit, 500 places, generation 1e9.
    const hostile: CellDoc = {
      _id: cellDocId(cell),
      type: 'cell',
      schema: 1,
      sweepId: 'paris-2025',
      cell: { ...sharedCellOf(cell), sweepId: 'paris-2025', keyword: 'sydney', bbox: { south: -33.87, west: 151.2, north: -33.869, east: 151.201 } },
      lease: null,
      generation: 1e9,
      settle: {
        status: 'done',
        result: { organic: 500, newListings: 500, endOfList: true, capHit: true, zoomedOut: false, insideShare: 1 },
        children: [],
        places: ['google:1'],
        by: 'mallory',
        byName: 'Mallory',
        at: 1,
        generation: 1e9,
      },
    };
    expect((await couch.put(hostile)).ok).toBe(true);
    expect(await gate.claim(sweep, cell, 'loop:1')).toEqual({ kind: 'mine' });
    expect(statuses.at(-1)).toMatchObject({ state: 'online', refusedDocs: { count: 1, first: expect.stringMatching(/id|sweep/) } });
    // The cell is taken over: its document is this cell's again, with this browser's lease and no settlement,
    // so another browser waits for this one instead of refusing the same document and searching it too.
    const taken = (await couch.get<CellDoc>(cellDocId(cell)))!;
    expect(taken).toMatchObject({ sweepId, settle: null, generation: 0, lease: { browser: me.browserId, holder: 'loop:1' } });
    expect(taken.cell).toEqual(sharedCellOf(cell));
    expect(await gate.claim(sweep, cell, 'loop:2')).toEqual({ kind: 'mine' });
  });

  it('wrong credentials: the sweep pauses with the reason, and no page is loaded', async () => {
    const sweepId = `auth${++n}`;
    const wrong = createCouch({ ...target, password: 'wrong' }, nodeFetch);
    const me: TeamSettings = { ...target, password: 'wrong', name: 'Ana', browserId: `ana-${sweepId}` };
    const { store, gate, statuses } = await browserWith(sweepId, me, wrong);
    await store.createSweep(makeSweep(sweepId, { keywords: ['bakery'], settings: { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0 } }), [
      makeCell(sweepId, 'r0c0'),
    ]);
    let loads = 0;
    const page = {
      exists: async () => true,
      load: async () => {
        loads++;
        throw new Error('no page should load');
      },
    } as never;
    const pacer = createPacer({ now: Date.now, sleep: async () => {}, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) });
    const attention: string[] = [];
    const exit = await runWorker(
      { store, page, pacer, now: Date.now, sleep: async () => {}, random: Math.random, attention: (_s, r) => attention.push(r), team: gate },
      sweepId,
      1,
    );
    expect(exit).toBe('paused');
    expect(loads).toBe(0);
    const sweep = await store.getSweep(sweepId);
    expect(sweep).toMatchObject({ status: 'paused', pauseReason: 'team' });
    expect(sweep!.problem!.message).toMatch(/refused the user name or password/);
    expect(attention).toEqual(['team']);
    expect(statuses.at(-1)).toMatchObject({ state: 'refused' });
    // The cell is back in the queue, unattempted.
    expect((await store.listCells(sweepId))[0]).toMatchObject({ status: 'pending', attempts: 0 });
  });
});

describe('another browser\u2019s result this store refuses', () => {
  it('is not trusted further: the cell is searched here', async () => {
    const sweepId = `clash${++n}`;
    const couch = createCouch(target, nodeFetch);
    const me: TeamSettings = { ...target, name: 'Ana', browserId: `ana-${sweepId}` };
    const { store, gate } = await browserWith(sweepId, me, couch);
    const parent = makeCell(sweepId, 'r0c0');
    // The child the other browser's split names is already here (a clash the store refuses).
    const here = { ...makeCell(sweepId, 'r0c0.0'), parentId: parent.id, depth: 1, distance: 900 };
    await store.createSweep(makeSweep(sweepId, { keywords: ['bakery'], settings: { ...DEFAULT_SETTINGS, delayMs: 0, jitterMs: 0, maxAttempts: 1 } }), [
      parent,
      here,
    ]);
    const bo = await claimCell(couch, { cell: parent, browser: 'bo', holder: 'b1', now: Date.now(), leaseMs: 30_000 });
    const child = { ...sharedCellOf(here) };
    await settleCell(couch, (bo as Extract<typeof bo, { kind: 'mine' }>).doc, {
      status: 'split',
      result: { organic: 120, newListings: 0, endOfList: false, capHit: true, zoomedOut: false, insideShare: 1 },
      children: [child],
      places: [],
      by: 'bo',
      byName: 'Bo',
      at: 1,
      generation: 0,
    });
    const loaded: string[] = [];
    const page = {
      exists: async () => true,
      viewport: async () => ({ width: 1280, height: 800, panelWidth: 408 }),
      load: async (_tab: number, url: string) => {
        loaded.push(url);
        throw new Error('offline page');
      },
    } as never;
    const pacer = createPacer({ now: Date.now, sleep: async () => {}, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) });
    await runWorker({ store, page, pacer, now: Date.now, sleep: async () => {}, random: Math.random, attention: () => {}, team: gate }, sweepId, 1);
    // Searched here (and failed here: the stub page), never committed as the other browser's split.
    expect(loaded.length).toBeGreaterThan(0);
    expect((await store.getCell(parent.id))?.status).not.toBe('split');
  });
});

describe('share and join', () => {
  it('join makes the same sweep and cells here, with this browser\u2019s pacing', async () => {
    const sweepId = `join${++n}`;
    const couch = createCouch(target, nodeFetch);
    const me: TeamSettings = { ...target, name: 'Ana', browserId: 'ana' };
    const a = await openStore({ name: `share-${++n}`, factory: new IDBFactory() });
    const cells = [makeCell(sweepId, 'r0c0'), makeCell(sweepId, 'r0c1')];
    await a.createSweep(makeSweep(sweepId, { settings: { ...DEFAULT_SETTINGS, delayMs: 9_000, maxCells: 777 } }), cells);
    expect(await shareSweep(a, couch, me, sweepId, 30_000, Date.now())).toEqual({ ok: true, already: false });
    expect(await shareSweep(a, couch, me, sweepId, 30_000, Date.now())).toEqual({ ok: true, already: true });
    // A document that also names a pacing (another version, a member's bad write) sets nothing of it here.
    const doc = await couch.get<{ _id: string; _rev: string; sweep: { settings: Record<string, unknown> } }>(sweepDocId(sweepId));
    await couch.put({ ...doc!, sweep: { ...doc!.sweep, settings: { ...doc!.sweep.settings, delayMs: 0, jitterMs: 0, workers: 50 } } });
    const b = await openStore({ name: `join-${++n}`, factory: new IDBFactory() });
    const joined = await joinSweep(b, couch, sweepId, { ...DEFAULT_SETTINGS, delayMs: 4_000 }, Date.now());
    expect(joined).toMatchObject({ ok: true, leaseMs: 30_000, created: true });
    const here = await b.getSweep(sweepId);
    expect(here?.settings).toMatchObject({
      delayMs: 4_000,
      jitterMs: DEFAULT_SETTINGS.jitterMs,
      workers: DEFAULT_SETTINGS.workers,
      maxCells: 777,
      dedicatedWindow: true,
    });
    expect((await b.listCells(sweepId)).map((c) => c.id).sort()).toEqual(cells.map((c) => c.id).sort());
  });

  it('a sweep shared while this browser searches one of its cells: a browser that joins is told the cell is held', async () => {
    const sweepId = `busy${++n}`;
    const couch = createCouch(target, nodeFetch);
    const a = await openStore({ name: `busy-${++n}`, factory: new IDBFactory() });
    const cells = [makeCell(sweepId, 'r0c0'), makeCell(sweepId, 'r0c1', { distance: 200 })];
    await a.createSweep(makeSweep(sweepId), cells);
    const searching = await leaseNextCell(a, { sweepId, holder: 'loop:7', now: Date.now(), leaseMs: 60_000 });
    await shareSweep(a, couch, { ...target, name: 'Ana', browserId: 'ana' }, sweepId, 30_000, Date.now());
    const b = await openStore({ name: `busy-join-${++n}`, factory: new IDBFactory() });
    await joinSweep(b, couch, sweepId, DEFAULT_SETTINGS, Date.now());
    const [first] = await b.listCells(sweepId);
    const claim = await claimCell(couch, { cell: { ...first!, id: searching!.id }, browser: 'bo', holder: 'b1', now: Date.now(), leaseMs: 30_000 });
    expect(claim).toMatchObject({ kind: 'held', by: 'ana' });
  });

  it('refuses a shared sweep whose cells belong to another sweep, and changes nothing', async () => {
    const sweepId = `bad${++n}`;
    const couch = createCouch(target, nodeFetch);
    const a = await openStore({ name: `bad-${++n}`, factory: new IDBFactory() });
    await a.createSweep(makeSweep(sweepId), [makeCell(sweepId, 'r0c0')]);
    await shareSweep(a, couch, { ...target, name: 'Ana', browserId: 'ana' }, sweepId, 30_000, Date.now());
    const doc = await couch.get<{ _id: string; _rev: string; cells: { id: string }[] }>(sweepDocId(sweepId));
    await couch.put({ ...doc!, cells: [{ ...doc!.cells[0]!, id: 'someone-else/0/r0c0' }] });
    const b = await openStore({ name: `bad-join-${++n}`, factory: new IDBFactory() });
    expect(await joinSweep(b, couch, sweepId, DEFAULT_SETTINGS, Date.now())).toMatchObject({ ok: false });
    expect(await b.listSweeps()).toEqual([]);
  });
});
