// @vitest-environment node
/**
 * The team's progress ledger (utils/team/progress.ts) under the races a skeptical review found:
 * two pushes of one browser announcing one place (the loser dying in flight, or its answer lost),
 * and a write that lands on the server after the client gave up on it. Each place is counted
 * once, by the very write that added it.
 */
import { describe, expect, it } from 'vitest';
import type { Couch, CouchDoc, PutResult } from '../../utils/team/couch';
import { pushPlaces } from '../../utils/team/places';
import { createProgressLedger, teamProgress } from '../../utils/team/progress';
import { makeListing } from '../helpers/store-records';

/** An in-memory CouchDB: MVCC by _rev. */
function memCouch() {
  const docs = new Map<string, CouchDoc>();
  let r = 0;
  const put1 = (doc: CouchDoc): PutResult => {
    const cur = docs.get(doc._id);
    if ((cur?._rev ?? undefined) !== (doc._rev ?? undefined)) return { ok: false, conflict: true };
    const rev = `${++r}-x`;
    docs.set(doc._id, structuredClone({ ...doc, _rev: rev }));
    return { ok: true, rev };
  };
  const couch = {
    target: { url: 'mem', db: 'x' } as never,
    meter: { requests: 0, bytesSent: 0, bytesReceived: 0 },
    server: async () => ({}),
    info: async () => ({ db_name: 'x', doc_count: docs.size }),
    createDatabase: async () => {},
    get: async (id: string) => (docs.has(id) ? structuredClone(docs.get(id)!) : null),
    put: async (doc: CouchDoc) => put1(doc),
    getMany: async (ids: readonly string[]) => ids.map((id) => (docs.has(id) ? structuredClone(docs.get(id)!) : null)),
    bulk: async (ds: readonly CouchDoc[]) => ds.map(put1),
    byPrefix: async (p: string) => [...docs.values()].filter((d) => d._id.startsWith(p)).map((d) => structuredClone(d)),
  } as unknown as Couch;
  return { couch, docs };
}

describe('progress under races', () => {
  it('two concurrent pushes of one browser announce the same place; the loser dies in flight: counted once', async () => {
    const { couch } = memCouch();
    const sweepId = 's1';
    const X = makeListing('X');
    // B's couch: its read of X happens before A's write, and its bulk never answers (the browser dies).
    let releaseB!: () => void;
    const bHeld = new Promise<void>((res) => (releaseB = res));
    let bBulkStarted = false;
    const bCouch: Couch = {
      ...couch,
      async getMany(ids) {
        const r = await couch.getMany(ids);
        await bHeld;
        return r as never;
      },
      async bulk() {
        bBulkStarted = true;
        return new Promise<never>(() => {});
      },
    };
    const ledger = createProgressLedger(couch, { browserId: 'A', name: 'Ana' });
    const pB = pushPlaces(bCouch, sweepId, [X], { browser: 'A', ledger });
    void pB;
    await new Promise((r) => setTimeout(r, 5));
    // Worker 1's push of X: written, answered, counted.
    expect((await pushPlaces(couch, sweepId, [X], { browser: 'A', ledger })).created).toBe(1);
    await ledger.settle();
    expect((await teamProgress(couch, sweepId, 'A')).places).toBe(1);
    // Worker 2 (read X before worker 1 wrote it) announces X and its write hangs: the browser dies here.
    releaseB();
    await expect.poll(() => bBulkStarted).toBe(true);
    // One distinct place of the sweep.
    expect((await teamProgress(couch, sweepId, 'A')).places).toBe(1);
  });

  it('same, but the loser\u2019s answer is lost (offline) rather than the browser dying: counted once', async () => {
    const { couch } = memCouch();
    const sweepId = 's2';
    const X = makeListing('X');
    let releaseB!: () => void;
    const bHeld = new Promise<void>((res) => (releaseB = res));
    const bCouch: Couch = {
      ...couch,
      async getMany(ids) {
        const r = await couch.getMany(ids);
        await bHeld;
        return r as never;
      },
      async bulk() {
        throw new Error('offline');
      },
    };
    const ledger = createProgressLedger(couch, { browserId: 'A', name: 'Ana' });
    const pB = pushPlaces(bCouch, sweepId, [X], { browser: 'A', ledger }).catch(() => 'failed');
    await new Promise((r) => setTimeout(r, 5));
    expect((await pushPlaces(couch, sweepId, [X], { browser: 'A', ledger })).created).toBe(1);
    await ledger.settle();
    releaseB();
    expect(await pB).toBe('failed');
    // The next progress write changes nothing of it.
    await ledger.answered(sweepId, [], { cells: 0 });
    await ledger.settle();
    const doc = await couch.get<{ _id: string; places: number }>('progress:s2:A');
    expect(doc?.places).toBe(1);
    expect((await teamProgress(couch, sweepId, 'A')).places).toBe(1);
  });
});

describe('a write that lands late', () => {
  it('a bulk that timed out on the client but lands on the server afterwards is still counted', async () => {
    const { couch } = memCouch();
    const sweepId = 's3';
    const X = makeListing('X');
    let land!: () => void;
    const late: Couch = {
      ...couch,
      async bulk(ds) {
        // The client gives up (AbortSignal.timeout); the server applies the write a moment later.
        land = () => void couch.bulk(ds);
        throw new Error('The team database did not answer.');
      },
    };
    const ledger = createProgressLedger(couch, { browserId: 'A', name: 'Ana' });
    await expect(pushPlaces(late, sweepId, [X], { browser: 'A', ledger })).rejects.toThrow();
    // Another progress write happens before the late write lands (X is not there yet).
    await ledger.answered(sweepId, [], { cells: 1 });
    await ledger.settle();
    land();
    await new Promise((r) => setTimeout(r, 5));
    // The outbox's retry: X already has the sweep, so nothing is announced or counted.
    expect((await pushPlaces(couch, sweepId, [X], { browser: 'A', ledger })).created).toBe(0);
    await ledger.settle();
    expect((await teamProgress(couch, sweepId, 'A')).places).toBe(1);
  });
});
