// @vitest-environment node
/**
 * The lease protocol against a real CouchDB-compatible server (tests/helpers/couch-server.ts):
 * MVCC decides, so the tests race real writes, not a model of them.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CouchError, createCouch, type Couch } from '../../utils/team/couch';
import { checkTeamDatabase } from '../../utils/team/check';
import { cellDocId, sharedCellOf, TEAM_SCHEMA, type CellDoc, type Settlement } from '../../utils/team/docs';
import { claimCell, renewCell, settleCell, settleIfFree } from '../../utils/team/lease';
import { pushPlaces, readPlaces } from '../../utils/team/places';
import { cellToken, createProgressLedger, teamProgress } from '../../utils/team/progress';
import { freePort, startCouchServer, type CouchServer } from '../helpers/couch-server';
import { makeCell, makeListing } from '../helpers/store-records';

let server: CouchServer;
let couch: Couch;
let n = 0;
const nodeFetch = (i: string, init?: RequestInit) => fetch(i, init);

beforeAll(async () => {
  server = await startCouchServer();
  couch = createCouch(await server.database('lease-tests'), nodeFetch);
}, 60_000);
afterAll(async () => server?.close());

/** A cell no other test touches. */
const freshCell = () => makeCell('team', `r${++n}c0`);
const T = 1_000_000;

function settlement(by: string, overrides: Partial<Settlement> = {}): Settlement {
  return {
    status: 'done',
    result: { organic: 3, newListings: 3, endOfList: true, capHit: false, zoomedOut: false, insideShare: 1 },
    children: [],
    places: [],
    by,
    byName: by,
    at: T,
    generation: 0,
    ...overrides,
  };
}

describe('claims', () => {
  it('two writes of one revision: exactly one wins, the other gets a conflict', async () => {
    const id = `cell:race-${++n}`;
    const first = await couch.put({ _id: id, v: 0 });
    expect(first.ok).toBe(true);
    const rev = first.ok ? first.rev : '';
    const [a, b] = await Promise.all([couch.put({ _id: id, _rev: rev, v: 'a' }), couch.put({ _id: id, _rev: rev, v: 'b' })]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect([a, b].filter((r) => !r.ok)).toEqual([{ ok: false, conflict: true }]);
  });

  it('two browsers claiming one cell at once: one holds it, the other is told who until when', async () => {
    const cell = freshCell();
    const [a, b] = await Promise.all([
      claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T, leaseMs: 60_000 }),
      claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T, leaseMs: 60_000 }),
    ]);
    const kinds = [a.kind, b.kind].sort();
    expect(kinds).toEqual(['held', 'mine']);
    const winner = a.kind === 'mine' ? 'A' : 'B';
    const loser = a.kind === 'held' ? a : (b as Extract<typeof b, { kind: 'held' }>);
    expect(loser).toMatchObject({ kind: 'held', until: T + 60_000, by: winner });
    const doc = await couch.get<CellDoc>(cellDocId(cell));
    expect(doc?.lease?.browser).toBe(winner);
  });

  it('a lease that ran out is taken over, and the first holder\u2019s late result is refused and changes nothing', async () => {
    const cell = freshCell();
    const a = await claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T, leaseMs: 10_000 });
    expect(a.kind).toBe('mine');
    // Still running: B must wait.
    expect((await claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T + 9_000, leaseMs: 10_000 })).kind).toBe('held');
    const b = await claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T + 10_001, leaseMs: 10_000 });
    expect(b.kind).toBe('mine');
    const late = await settleCell(couch, (a as Extract<typeof a, { kind: 'mine' }>).doc, settlement('A'));
    expect(late).toBe('refused');
    let doc = await couch.get<CellDoc>(cellDocId(cell));
    expect(doc?.settle).toBeNull();
    expect(doc?.lease).toMatchObject({ browser: 'B', holder: 'b1' });
    // Also the "found in the local queue after a restart" path: B's live lease stands.
    expect(await settleIfFree(couch, cell, settlement('A'), 'A', T + 11_000, 10_000)).toBe('taken');
    expect(await settleCell(couch, (b as Extract<typeof b, { kind: 'mine' }>).doc, settlement('B'))).toBe('settled');
    doc = await couch.get<CellDoc>(cellDocId(cell));
    expect(doc).toMatchObject({ lease: null, settle: { by: 'B' } });
    // A settled cell is never claimed again: a third browser is given B's result.
    expect(await claimCell(couch, { cell, browser: 'C', holder: 'c1', now: T + 99_000, leaseMs: 10_000 })).toMatchObject({
      kind: 'settled',
      doc: { settle: { by: 'B' } },
    });
  });

  it('a heartbeat keeps the cell: renewed before it ran out, nobody takes it', async () => {
    const cell = freshCell();
    const a = await claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T, leaseMs: 10_000 });
    const renewed = await renewCell(couch, (a as Extract<typeof a, { kind: 'mine' }>).doc, T + 8_000, 10_000);
    expect(renewed.kind).toBe('mine');
    expect((await claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T + 15_000, leaseMs: 10_000 })).kind).toBe('held');
    // The renewed document settles (its revision is the newest).
    expect(await settleCell(couch, (renewed as Extract<typeof renewed, { kind: 'mine' }>).doc, settlement('A'))).toBe('settled');
  });

  it('a renewal after a takeover says lost', async () => {
    const cell = freshCell();
    const a = await claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T, leaseMs: 10_000 });
    await claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T + 20_000, leaseMs: 10_000 });
    expect(await renewCell(couch, (a as Extract<typeof a, { kind: 'mine' }>).doc, T + 21_000, 10_000)).toEqual({ kind: 'lost' });
  });

  it('a cell this browser opened again (the audit) takes the place of an older settlement; an equal generation does not', async () => {
    const cell = freshCell();
    const a = await claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T, leaseMs: 10_000 });
    await settleCell(couch, (a as Extract<typeof a, { kind: 'mine' }>).doc, settlement('A'));
    expect((await claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T + 1, leaseMs: 10_000 })).kind).toBe('settled');
    const again = await claimCell(couch, { cell: { ...cell, reopened: 1 }, browser: 'B', holder: 'b1', now: T + 2, leaseMs: 10_000 });
    expect(again.kind).toBe('mine');
    expect((again as Extract<typeof again, { kind: 'mine' }>).doc).toMatchObject({ settle: null, generation: 1 });
  });

  it('a document that is not a cell of this version decides nothing (the cell is searched here) and is left alone', async () => {
    const cell = freshCell();
    await couch.put({ _id: cellDocId(cell), type: 'cell', schema: TEAM_SCHEMA + 1 });
    expect(await claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T, leaseMs: 10_000 })).toEqual({ kind: 'foreign' });
    expect(await settleIfFree(couch, cell, settlement('A'), 'A', T, 10_000)).toBe('taken');
    expect(await couch.get(cellDocId(cell))).toMatchObject({ schema: TEAM_SCHEMA + 1 });
  });

  it('a member\u2019s settlement that plants cells outside the cell, or is not one, is not believed', async () => {
    const cell = freshCell();
    const a = await claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T, leaseMs: 10_000 });
    const doc = (a as Extract<typeof a, { kind: 'mine' }>).doc;
    const elsewhere = { ...sharedCellOf(cell), id: 'other-sweep/0/r0c0.0', parentId: cell.id, depth: cell.depth + 1 };
    await couch.put({ ...doc, lease: null, settle: settlement('A', { status: 'split', children: [elsewhere] }) });
    expect(await claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T + 1, leaseMs: 10_000 })).toEqual({ kind: 'foreign' });
  });

  it('a lease ending further ahead than two leases is not believed (a clock far ahead, a bad write)', async () => {
    const cell = freshCell();
    const a = await claimCell(couch, { cell, browser: 'A', holder: 'a1', now: T + 3_600_000, leaseMs: 10_000 });
    expect(a.kind).toBe('mine');
    expect((await claimCell(couch, { cell, browser: 'B', holder: 'b1', now: T, leaseMs: 10_000 })).kind).toBe('mine');
  });
});

describe('places', () => {
  it('two browsers writing one place at once: one document, the fields of both, the sweep once', async () => {
    const key = `p${++n}`;
    const a = makeListing(key, { phone: '+33 1 23 45 67 89', website: null, rating: null });
    const b = makeListing(key, { phone: null, website: 'https://example.org/', rating: 4.5 });
    await Promise.all([pushPlaces(couch, 'team', [a]), pushPlaces(createCouch(couch.target, nodeFetch), 'team', [b])]);
    const [stored] = await readPlaces(couch, [a.key]);
    expect(stored).toMatchObject({ key: a.key, phone: '+33 1 23 45 67 89', website: 'https://example.org/', rating: 4.5 });
    const doc = await couch.get<{ _id: string; sweeps: string[] }>(`place:${a.key}`);
    expect(doc?.sweeps).toEqual(['team']);
    // Nothing new: nothing written.
    expect(await pushPlaces(couch, 'team', [a])).toEqual({ written: 0, created: 0 });
  });
});

/**
 * A couch through which this browser dies at a chosen moment: from then on nothing it sends
 * reaches the database (a killed browser, a stopped service worker), and the requests hang.
 */
function dyingCouch(after: (what: 'bulk' | 'put', doc: { _id: string }[]) => boolean): Couch & { dead: () => boolean } {
  let dead = false;
  const never = () => new Promise<never>(() => {});
  return {
    ...couch,
    dead: () => dead,
    async put(doc) {
      if (dead) return never();
      const r = await couch.put(doc);
      dead = after('put', [doc]);
      return r;
    },
    async bulk(docs) {
      if (dead) return never();
      const r = await couch.bulk(docs);
      dead = after('bulk', [...docs]);
      return r;
    },
  };
}

describe('progress', () => {
  it('counts cells by browser, and each place of the sweep once whoever wrote it first', async () => {
    const sweepId = `prog${++n}`;
    const a = createProgressLedger(couch, { browserId: 'A', name: 'Ana' });
    const bCouch = createCouch(couch.target, nodeFetch);
    const b = createProgressLedger(bCouch, { browserId: 'B', name: 'Bo' });
    // Two browsers push overlapping places at once: 3 distinct places of this sweep.
    const [pa, pb] = await Promise.all([
      pushPlaces(couch, sweepId, [makeListing(`${sweepId}-1`), makeListing(`${sweepId}-2`)], { browser: 'A', ledger: a }),
      pushPlaces(bCouch, sweepId, [makeListing(`${sweepId}-2`), makeListing(`${sweepId}-3`)], { browser: 'B', ledger: b }),
    ]);
    expect(pa.created + pb.created).toBe(3);
    // The same places found by another sweep count for that sweep too.
    expect((await pushPlaces(couch, `${sweepId}-other`, [makeListing(`${sweepId}-1`)], { browser: 'A', ledger: a })).created).toBe(1);
    const cells = ['x', 'y', 'z'].map((c) => cellToken(`cell:${sweepId}/0/${c}`, 0, 1));
    await Promise.all([a.announce(sweepId, cells.slice(0, 2)), b.announce(sweepId, cells.slice(2))]);
    await Promise.all([a.answered(sweepId, cells.slice(0, 2), { cells: 2 }), b.answered(sweepId, cells.slice(2), { cells: 1 })]);
    await Promise.all([a.settle(), b.settle()]);
    expect(await teamProgress(couch, sweepId, 'B')).toEqual({
      browsers: [
        { id: 'A', name: 'Ana', cells: 2, me: false },
        { id: 'B', name: 'Bo', cells: 1, me: true },
      ],
      cells: 3,
      places: 3,
    });
    // At rest, nothing is left pending: a poll reads the progress documents only.
    for (const id of ['A', 'B']) expect((await couch.get<{ _id: string; pending?: string[] }>(`progress:${sweepId}:${id}`))?.pending).toBeUndefined();
  });

  it('a browser killed after its places were written and before it counted them: still counted, once', async () => {
    const sweepId = `killed${++n}`;
    const places = [makeListing(`${sweepId}-1`), makeListing(`${sweepId}-2`), makeListing(`${sweepId}-3`)];
    const dying = dyingCouch((what) => what === 'bulk');
    const ledger = createProgressLedger(dying, { browserId: 'C', name: 'Cy' });
    // The count that would follow the write never leaves the browser.
    void pushPlaces(dying, sweepId, places, { browser: 'C', ledger });
    await expect.poll(() => dying.dead()).toBe(true);
    expect(await teamProgress(couch, sweepId, 'A')).toMatchObject({ places: 3 });
    // The browser that takes the cell over writes the same places: none counted twice.
    const a = createProgressLedger(couch, { browserId: 'A', name: 'Ana' });
    expect((await pushPlaces(couch, sweepId, places, { browser: 'A', ledger: a })).created).toBe(0);
    await a.settle();
    expect(await teamProgress(couch, sweepId, 'A')).toMatchObject({ places: 3 });
  });

  it('a browser killed after its settlement was written and before it counted it: the cell still counts, once', async () => {
    const sweepId = `killedcell${++n}`;
    const cell = makeCell(sweepId, 'r0c0');
    const dying = dyingCouch((what, docs) => what === 'put' && docs[0]!._id.startsWith('cell:'));
    const ledger = createProgressLedger(dying, { browserId: 'C', name: 'Cy' });
    const token = [cellToken(cellDocId(cell), 0, T)];
    await ledger.announce(sweepId, token);
    expect(await settleIfFree(dying, cell, settlement('C'), 'C', T, 60_000)).toBe('settled');
    void ledger.answered(sweepId, token, { cells: 1 });
    expect(await teamProgress(couch, sweepId, 'A')).toMatchObject({ cells: 1, browsers: [{ id: 'C', cells: 1 }] });
    // A settlement of another generation, or by another browser, is not this announcement's.
    const other = createProgressLedger(couch, { browserId: 'D', name: 'Di' });
    await other.announce(sweepId, [cellToken(cellDocId(cell), 1, T)]);
    expect(await teamProgress(couch, sweepId, 'A')).toMatchObject({ cells: 1 });
  });

  it('a write whose answer was lost is counted once, from the places it added, by whoever reads', async () => {
    const sweepId = `lost${++n}`;
    const places = [makeListing(`${sweepId}-1`), makeListing(`${sweepId}-2`), makeListing(`${sweepId}-3`)];
    // The database goes away after it applied the write and before it answered.
    let cut = true;
    const flaky: Couch = {
      ...couch,
      async bulk(docs) {
        const r = await couch.bulk(docs);
        if (cut) {
          cut = false;
          throw new CouchError('offline', 'The team database did not answer.');
        }
        return r;
      },
    };
    const a = createProgressLedger(flaky, { browserId: 'A', name: 'Ana' });
    await expect(pushPlaces(flaky, sweepId, places, { browser: 'A', ledger: a })).rejects.toThrow();
    expect(await teamProgress(couch, sweepId, 'A')).toMatchObject({ places: 3 });
    // The retry writes nothing new; the unanswered write stays announced, counted from the places it added.
    expect((await pushPlaces(flaky, sweepId, places, { browser: 'A', ledger: a })).created).toBe(0);
    await a.answered(sweepId, [], {});
    await a.settle();
    const doc = await couch.get<{ _id: string; places: number; pending?: string[] }>(`progress:${sweepId}:A`);
    expect(doc).toMatchObject({ places: 0 });
    expect(doc?.pending).toHaveLength(3);
    expect(await teamProgress(couch, sweepId, 'A')).toMatchObject({ places: 3 });
  });

  it('a progress write applied whose answer was lost is not applied twice', async () => {
    const sweepId = `lostcount${++n}`;
    let cut = false;
    const flaky: Couch = {
      ...couch,
      async put(doc) {
        const r = await couch.put(doc);
        if (cut) {
          cut = false;
          throw new CouchError('offline', 'The team database did not answer.');
        }
        return r;
      },
    };
    const a = createProgressLedger(flaky, { browserId: 'A', name: 'Ana' });
    const t1 = [cellToken(`cell:${sweepId}/0/x`, 0, 1)];
    await a.announce(sweepId, t1);
    cut = true;
    await a.answered(sweepId, t1, { cells: 1 });
    await a.settle();
    expect((await teamProgress(couch, sweepId, 'A')).cells).toBe(1);
    const t2 = [cellToken(`cell:${sweepId}/0/y`, 0, 1)];
    await a.announce(sweepId, t2);
    await a.answered(sweepId, t2, { cells: 1 });
    expect(await couch.get(`progress:${sweepId}:A`)).toMatchObject({ cells: 2 });
  });
});

describe('the options\u2019 check', () => {
  let other: Server;
  let otherPort: number;
  beforeAll(async () => {
    otherPort = await freePort();
    other = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"hello":"world"}'));
    await new Promise<void>((r) => other.listen(otherPort, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => other.close(() => r())));

  it('connects with the member\u2019s credentials', async () => {
    expect(await checkTeamDatabase(couch)).toMatchObject({ ok: true });
  });
  it('says which thing is wrong', async () => {
    const check = (t: Partial<typeof couch.target>) => checkTeamDatabase(createCouch({ ...couch.target, ...t }, nodeFetch));
    expect(await check({ password: 'wrong' })).toMatchObject({ ok: false, kind: 'unauthorised' });
    expect(await check({ db: 'no-such-db' })).toMatchObject({ ok: false, kind: 'missing' });
    expect(await check({ url: `http://127.0.0.1:${otherPort}` })).toMatchObject({ ok: false, kind: 'not-couch' });
    const closed = await freePort();
    expect(await check({ url: `http://127.0.0.1:${closed}` })).toMatchObject({ ok: false, kind: 'unreachable' });
  });
});
