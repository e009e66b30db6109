/**
 * The dashboard's list commands (utils/lists/commands.ts): a check says what a list holds and what
 * it costs before anything is written; a list of 10,000 lines is read with its estimate, one of
 * 10^6 is refused with the reason; Start parses the text again (never trusts the page's reading)
 * and refuses a nameless or empty list without writing anything.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, normaliseSettings } from '../../utils/config/settings';
import { allLists, createListCommands } from '../../utils/lists';
import { openStore } from '../../utils/store';
import { makeListing } from '../helpers/store-records';

let n = 0;
async function commands() {
  const store = await openStore({ name: `lists-commands-${++n}` });
  let ensured = 0;
  let ids = 0;
  const table = createListCommands({
    store,
    now: () => 1_000,
    newListId: () => `list-test${++ids}`,
    settings: async () => normaliseSettings({ delayMs: 4000, jitterMs: 0 }),
    stop: () => {},
    ensureDriving: async () => {
      ensured++;
    },
  });
  return { store, table, ensured: () => ensured };
}

describe('list commands', () => {
  it('checks a list of 10,000 lines: places by site, bad lines with their numbers, and the time at the pacing; nothing written', async () => {
    const { store, table } = await commands();
    const lines = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? `naver:${1_000_000 + i}` : `https://place.map.kakao.com/${2_000_000 + i}`));
    lines[41] = 'javascript:alert(1)';
    lines[9_998] = 'naver:1000001';
    const reply = await table.checkList({ text: lines.join('\n') });
    expect(reply.ok).toBe(true);
    if (!reply.ok || reply.check.status !== 'read') throw new Error('not read');
    expect(reply.check.places).toEqual({ google: 0, naver: 4_999, kakao: 4_999 });
    expect(reply.check.bad).toEqual([{ line: 42, text: 'javascript:alert(1)', reason: expect.any(String) }]);
    expect(reply.check.duplicates).toBe(1);
    // 9,998 loads at 4 s delay + ~4 s work each.
    expect(reply.check.estimate.loads).toBe(9_998);
    expect(reply.check.estimate.seconds).toBe(9_998 * 8);
    expect(await allLists(store)).toEqual([]);
    store.close();
  });

  it('counts a place stored before with nothing to add as costing no load', async () => {
    const { store, table } = await commands();
    const complete = makeListing('77', { phone: '02-1', website: 'https://a.example', hours: 'x', address: 'Full 1' });
    await store.transact(['listings'], 'readwrite', (tx) =>
      tx.objectStore('listings').put({
        ...complete,
        key: 'kakao:7777777',
        provider: 'kakao',
        providerId: '7777777',
        cid: null,
        roadAddress: 'r',
        lotAddress: 'l',
        firstSeen: 1,
        lastSeen: 1,
        collections: ['s'],
        keywords: [],
        cells: [],
      }),
    );
    const reply = await table.checkList({ text: 'kakao:7777777\nkakao:7777778' });
    if (!reply.ok || reply.check.status !== 'read') throw new Error('not read');
    expect(reply.check.storedBefore).toBe(1);
    expect(reply.check.estimate.loads).toBe(1);
    store.close();
  });

  it('refuses a list of 10^6 lines with its reason, and a Start without a name or places, writing nothing', async () => {
    const { store, table, ensured } = await commands();
    const huge = 'naver:1234567\n'.repeat(1_000_000);
    const checked = await table.checkList({ text: huge });
    expect(checked.ok && checked.check.status).toBe('refused');
    if (checked.ok && checked.check.status === 'refused') expect(checked.check.reason).toMatch(/lines|MB/);
    const started = await table.startList({ text: huge, name: 'Big' });
    expect(started).toMatchObject({ ok: false, error: { code: 'list-refused' } });
    expect(await table.startList({ text: 'naver:1234567', name: ' ' })).toMatchObject({ ok: false, error: { code: 'list-refused' } });
    expect(await table.startList({ text: 'no place here', name: 'x' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/names no place/) },
    });
    expect(await table.startList({ text: 42 as never, name: 'x' })).toMatchObject({ ok: false });
    expect(await allLists(store)).toEqual([]);
    expect(ensured()).toBe(0);
    store.close();
  });

  it('starts a confirmed list and drives it; pause, resume and stop go through the status table; delete is refused while it runs', async () => {
    const { store, table, ensured } = await commands();
    const started = await table.startList({ text: 'naver:1234567\nkakao:7654321', name: ' Clients in Mapo ' });
    expect(started).toEqual({ ok: true, listId: 'list-test1' });
    expect(ensured()).toBe(1);
    const [list] = await allLists(store);
    expect(list).toMatchObject({
      name: 'Clients in Mapo',
      status: 'running',
      settings: { maxAttempts: DEFAULT_SETTINGS.maxAttempts, loadTimeoutMs: DEFAULT_SETTINGS.cellTimeoutMs },
    });
    expect(await table.deleteList('list-test1')).toMatchObject({ ok: false, error: { code: 'list-busy' } });
    expect(await table.resumeList('list-test1')).toMatchObject({ ok: false, error: { code: 'list-bad-state' } });
    expect(await table.pauseList('list-test1')).toEqual({ ok: true });
    expect(await table.resumeList('list-test1')).toEqual({ ok: true });
    expect(await table.stopList('list-test1')).toEqual({ ok: true });
    expect(await table.deleteList('list-test1')).toEqual({ ok: true });
    expect(await table.deleteList('list-test1')).toMatchObject({ ok: false, error: { code: 'no-list' } });
    store.close();
  });
});
