/**
 * The one job machinery (utils/queue/jobs.ts), held to one contract by every queue that uses it:
 * the sweep's cells, the place pages, the contacts' websites, the places' reviews. The same scenario runs against
 * each, on the real store: a lease is the holder's alone while it runs; a late holder may still
 * settle a job nobody else took; a release gives the job back without an attempt; a restart
 * gives every lease back at once; a failure waits out a backoff, then the job is given up.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '../../utils/domain/job';
import { afterFailure, checkOf, leaseNext, releaseAllLeases, releaseJob, renewJob, type JobKind } from '../../utils/queue/jobs';
import { CELL_JOBS } from '../../utils/queue/lease';
import { PLACE_JOBS } from '../../utils/details/queue';
import { SITE_JOBS } from '../../utils/contacts/queue';
import { REVIEW_JOBS } from '../../utils/reviews/queue';
import { newReviewJob } from '../../utils/reviews/records';
import { openCellsOf, openStore, type Store } from '../../utils/store';
import { newPlaceJob } from '../../utils/details/records';
import { newContactSite } from '../../utils/contacts/records';
import { freshFactory, makeCell, makeSweep } from './store-fixtures';

const NOW = 50_000_000;
const LEASE = 60_000;

interface Queue<J extends Job, R> {
  name: string;
  kind: JobKind<J, R>;
  /** Three fresh jobs in a new store, and the range that holds them. */
  seed(store: Store): Promise<{ ids: IDBValidKey[]; range: IDBKeyRange }>;
}

const queues: Queue<Job, unknown>[] = [
  {
    name: 'cells',
    kind: CELL_JOBS as unknown as JobKind<Job, unknown>,
    async seed(store) {
      const cells = ['r0c0', 'r0c1', 'r0c2'].map((p) => makeCell('s1', p));
      await store.createSweep(makeSweep('s1'), cells);
      return { ids: cells.map((c) => c.id), range: openCellsOf('s1') };
    },
  },
  {
    name: 'place pages',
    kind: PLACE_JOBS as unknown as JobKind<Job, unknown>,
    async seed(store) {
      const jobs = ['1', '2', '3'].map((k) => newPlaceJob('s1', { key: `google:${k}`, provider: 'google' }, `https://www.google.com/maps/place/${k}`, 0));
      await store.transact(['placeQueue'], 'readwrite', async (tx) => {
        for (const j of jobs) await tx.objectStore('placeQueue').put(PLACE_JOBS.toRecord(j));
      });
      return { ids: jobs.map((j) => j.id), range: IDBKeyRange.bound(['s1'], ['s1', []]) };
    },
  },
  {
    name: 'websites',
    kind: SITE_JOBS as unknown as JobKind<Job, unknown>,
    async seed(store) {
      const sites = ['a', 'b', 'c'].map((h) => newContactSite(`https://${h}.example.kr/`, [`google:${h}`], 0));
      await store.transact(['contactSites'], 'readwrite', async (tx) => {
        for (const s of sites) await tx.objectStore('contactSites').put(SITE_JOBS.toRecord(s));
      });
      return { ids: sites.map((s) => s.url), range: IDBKeyRange.lowerBound([Number.NEGATIVE_INFINITY]) };
    },
  },
  {
    name: 'reviews',
    kind: REVIEW_JOBS as unknown as JobKind<Job, unknown>,
    async seed(store) {
      const jobs = ['1', '2', '3'].map((k) => newReviewJob('s1', { key: `google:${k}`, provider: 'google' }, `https://www.google.com/maps/place/${k}`, 0));
      await store.transact(['reviewQueue'], 'readwrite', async (tx) => {
        for (const j of jobs) await tx.objectStore('reviewQueue').put(REVIEW_JOBS.toRecord(j));
      });
      return { ids: jobs.map((j) => j.id), range: IDBKeyRange.bound(['s1'], ['s1', []]) };
    },
  },
];

async function read<J extends Job, R>(store: Store, kind: JobKind<J, R>, id: IDBValidKey): Promise<J> {
  const record = await store.transact([kind.store], 'readonly', (tx) => tx.objectStore(kind.store).get(id as string));
  return kind.fromRecord(record as R);
}

describe.each(queues)('the one job machinery: $name', ({ kind, seed }) => {
  async function fresh() {
    const store = await openStore({ factory: freshFactory(), name: `jobs-${kind.store}` });
    return { store, ...(await seed(store)) };
  }

  it('a lease is its holder\u2019s alone while it runs; two loops never take the same job', async () => {
    const { store, range } = await fresh();
    const [a, b] = await Promise.all([
      leaseNext(store, kind, { range, holder: 'A', now: NOW, leaseMs: LEASE }),
      leaseNext(store, kind, { range, holder: 'B', now: NOW, leaseMs: LEASE }),
    ]);
    expect(a && b).toBeTruthy();
    expect(idOf(kind, a!)).not.toEqual(idOf(kind, b!));
    expect(checkOf(kind, a!, 'B', NOW + 1)).toEqual({ ok: false, reason: 'leased-by-other' });
    expect(checkOf(kind, a!, 'A', NOW + 1)).toEqual({ ok: true });
    // Past its lease, nobody else took it: the late holder's work still counts.
    expect(checkOf(kind, a!, 'A', NOW + LEASE + 1)).toEqual({ ok: true });
    expect(checkOf(kind, a!, 'B', NOW + LEASE + 1)).toEqual({ ok: true });
  });

  it('renewed only by its holder; released without an attempt, available again at once', async () => {
    const { store, range } = await fresh();
    const job = (await leaseNext(store, kind, { range, holder: 'A', now: NOW, leaseMs: LEASE }))!;
    const id = idOf(kind, job);
    expect(await renewJob(store, kind, { id, holder: 'B', now: NOW + 10, leaseMs: LEASE })).toBe(false);
    expect(await renewJob(store, kind, { id, holder: 'A', now: NOW + 10, leaseMs: LEASE })).toBe(true);
    expect((await read(store, kind, id)).leaseUntil).toBe(NOW + 10 + LEASE);
    expect(await releaseJob(store, kind, { id, holder: 'B', now: NOW + 20 })).toBe(false);
    expect(await releaseJob(store, kind, { id, holder: 'A', now: NOW + 20 })).toBe(true);
    expect(await read(store, kind, id)).toMatchObject({ status: 'pending', leaseHolder: null, leaseUntil: 0, attempts: 0 });
    // Three jobs, none held: three leases in a row.
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(await leaseNext(store, kind, { range, holder: `L${i}`, now: NOW + 30, leaseMs: LEASE }));
    expect(taken.every(Boolean)).toBe(true);
    expect(await leaseNext(store, kind, { range, holder: 'L4', now: NOW + 30, leaseMs: LEASE })).toBeNull();
  });

  it('a restart gives every lease back at once, and the jobs are taken again', async () => {
    const { store, range } = await fresh();
    for (const h of ['A', 'B']) await leaseNext(store, kind, { range, holder: h, now: NOW, leaseMs: LEASE });
    expect(await releaseAllLeases(store, kind, NOW + 1)).toBe(2);
    expect(await releaseAllLeases(store, kind, NOW + 2)).toBe(0);
    for (let i = 0; i < 3; i++) expect(await leaseNext(store, kind, { range, holder: `L${i}`, now: NOW + 3, leaseMs: LEASE })).not.toBeNull();
  });

  it('a job put back until later is not taken before then', async () => {
    const { store, range } = await fresh();
    const job = (await leaseNext(store, kind, { range, holder: 'A', now: NOW, leaseMs: LEASE }))!;
    expect(await releaseJob(store, kind, { id: idOf(kind, job), holder: 'A', now: NOW, until: NOW + 5_000 })).toBe(true);
    const again = await leaseNext(store, kind, { range, holder: 'B', now: NOW + 1, leaseMs: LEASE });
    expect(again && idOf(kind, again)).not.toBe(idOf(kind, job));
  });
});

function idOf<J extends Job, R>(kind: JobKind<J, R>, job: J): IDBValidKey {
  const j = job as unknown as { id?: string; url?: string };
  return kind.store === 'contactSites' ? j.url! : j.id!;
}

describe('a failure', () => {
  const job: Job = { status: 'leased', leaseHolder: 'A', leaseUntil: NOW + LEASE, attempts: 0, nextAttemptAt: 0 };
  it('waits out a backoff below the limit, drawn from the full jitter', () => {
    expect(afterFailure(job, { now: NOW, maxAttempts: 3, draw: 0 })).toEqual({ retry: true, attempts: 1, nextAttemptAt: NOW });
    const late = afterFailure({ ...job, attempts: 1 }, { now: NOW, maxAttempts: 3, draw: 0.999, backoff: { baseMs: 1_000, capMs: 10_000 } });
    expect(late).toMatchObject({ retry: true, attempts: 2 });
    expect((late as { nextAttemptAt: number }).nextAttemptAt - NOW).toBeGreaterThan(1_900);
    expect((late as { nextAttemptAt: number }).nextAttemptAt - NOW).toBeLessThan(2_000);
  });
  it('is given up at the limit, or at once when it is not worth another try', () => {
    expect(afterFailure({ ...job, attempts: 2 }, { now: NOW, maxAttempts: 3, draw: 0.5 })).toEqual({ retry: false, attempts: 3 });
    expect(afterFailure(job, { now: NOW, maxAttempts: 3, draw: 0.5, retryable: false })).toEqual({ retry: false, attempts: 1 });
    expect(afterFailure(job, { now: NOW, maxAttempts: 0, draw: 0.5 })).toEqual({ retry: false, attempts: 1 });
  });
});
