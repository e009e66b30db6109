import { describe, expect, it } from 'vitest';
import { auditObservation } from '../../utils/domain/audit-page';
import { listAudits } from '../../utils/health/queries';
import { leaseNextCell } from '../../utils/queue';
import { openStore, StoreError, type Store } from '../../utils/store';
import type { Listing } from '../../utils/domain/listing';
import type { Cell, Observation } from '../../utils/domain/sweep';
import { dumpDatabase, freshFactory, makeCells, makeListing, makeSweep, RESULT } from './store-fixtures';
import { resultsObservation } from '../helpers/observations';

async function setup() {
  const factory = freshFactory();
  const store = await openStore({ factory, name: 'audit-test' });
  await store.createSweep(makeSweep('s1'), makeCells('s1', 3));
  return { factory, store };
}

async function lease(store: Store, now = 1_000): Promise<Cell> {
  const cell = await leaseNextCell(store, { sweepId: 's1', holder: 'tab:1', now, leaseMs: 60_000 });
  if (!cell) throw new Error('no cell');
  return cell;
}

function page(listings: Listing[], cardsVisible = listings.length): Observation {
  return resultsObservation({ url: 'https://www.google.com/maps/search/bakery/@48.85,2.35,16z', listings, cardsVisible });
}

async function commit(store: Store, cell: Cell, listings: Listing[], now: number, audited = true) {
  const obs = page(listings);
  return store.commitCell({
    sweepId: 's1',
    cellId: cell.id,
    holder: 'tab:1',
    now,
    keyword: cell.keyword,
    // As the driver does: only places inside the area are committed.
    listings: listings.filter((l) => l.lat !== 0),
    outcome: { status: 'done', result: { ...RESULT, organic: listings.length } },
    ...(audited && { audit: auditObservation(obs), url: obs.url }),
  });
}

describe('the coverage audit logged with a commit', () => {
  it('records, in the commit’s transaction, how many of the first results were stored before', async () => {
    const { store } = await setup();
    // First page: places 1–4, all new.
    await commit(
      store,
      await lease(store),
      ['1', '2', '3', '4'].map((c) => makeListing(c)),
      2_000,
    );
    // Second page: 3 and 4 known, 5 new, and one place outside the area that is not kept.
    await commit(store, await lease(store), [makeListing('3'), makeListing('99', { lat: 0, lng: 0 }), makeListing('4'), makeListing('5')], 3_000);
    // Third page: only known places.
    await commit(store, await lease(store), [makeListing('1'), makeListing('2')], 4_000);

    const audits = await listAudits(store, 's1');
    expect(audits.map((a) => [a.at, a.audit.firstKeys, a.audit.firstKnown])).toEqual([
      [4_000, ['google:1', 'google:2'], 2],
      // The place outside the area is on the page but not among the kept first results.
      [3_000, ['google:3', 'google:4', 'google:5'], 2],
      [2_000, ['google:1', 'google:2', 'google:3', 'google:4'], 0],
    ]);
    expect(audits[0]).toMatchObject({ cellId: 's1/0/r0c2', url: 'https://www.google.com/maps/search/bakery/@48.85,2.35,16z' });
  });

  it('writes no audit when the driver passes none (nothing is invented)', async () => {
    const { store } = await setup();
    await commit(store, await lease(store), [makeListing('1')], 2_000, false);
    expect(await listAudits(store, 's1')).toEqual([]);
  });

  it('refuses a malformed audit and writes nothing of the commit', async () => {
    const { factory, store } = await setup();
    const cell = await lease(store);
    const before = await dumpDatabase(factory, 'audit-test');
    const audit = { ...auditObservation(page([makeListing('1')])), firstKeys: ['<script>'] };
    const error = await store
      .commitCell({
        sweepId: 's1',
        cellId: cell.id,
        holder: 'tab:1',
        now: 2_000,
        keyword: cell.keyword,
        listings: [makeListing('1')],
        outcome: { status: 'done', result: RESULT },
        audit,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).message).toMatch(/audit: firstKeys/);
    expect(await dumpDatabase(factory, 'audit-test')).toEqual(before);
  });

  it('an audit logged outside a commit (a failed page) never claims places were stored', async () => {
    const { store } = await setup();
    const audit = { ...auditObservation(page([], 20)), firstKnown: 5 };
    await store.addEvent({ sweepId: 's1', at: 5, kind: 'audit', cellId: 's1/0/r0c0', audit, message: 'page not readable' });
    const [logged] = await listAudits(store, 's1');
    expect(logged?.audit.verdict).toBe('nothing-read');
    expect(logged?.audit.firstKnown).toBeUndefined();
    await expect(store.addEvent({ sweepId: 's1', at: 5, kind: 'info', audit, message: 'x' })).rejects.toThrow(/only an audit event/);
    await expect(store.addEvent({ sweepId: 's1', at: 5, kind: 'audit', message: 'no audit' })).rejects.toThrow(/audit was refused/);
    await expect(store.addEvent({ sweepId: 's1', at: 5, kind: 'error', httpStatus: 42, message: 'x' })).rejects.toThrow(/httpStatus/);
  });
});
