// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { CollectionsPanel } from '../../components/dashboard/CollectionsPanel';
import { exportFailureText } from '../../components/dashboard/export-collection';
import { collectionReadPath } from '../../utils/store/read-path';
import { defaultSelection, reloadDue, summarise, sweepActions } from '../../utils/dashboard/collections';
import type { StoredListing } from '../../utils/domain/listing';
import { BROWSING, openStore, type Store } from '../../utils/store';
import type { SweepStatus } from '../../utils/domain/sweep';
import { freshFactory, makeCells, makeListing, makeSweep, rawOpen, rawPut } from './store-fixtures';
import { useEnglishMessages } from '../helpers/english-messages';
import { onMessage } from '../../utils/messaging/protocol';
import { onContactsMessage } from '../../utils/contacts/wire';
import { browser } from 'wxt/browser';

let removeDelete: (() => void) | null = null;
afterEach(() => {
  removeDelete?.();
  removeDelete = null;
});

describe('collection summaries', () => {
  it('lists sweeps newest first, then Browsing even when it is empty, with their counts', () => {
    const a = makeSweep('a', { createdAt: 1 });
    const b = makeSweep('b', { createdAt: 2 });
    const rows = summarise(
      [a, b],
      new Map([
        ['a', 5],
        [BROWSING, 0],
      ]),
    );
    expect(rows.map((r) => [r.id, r.places])).toEqual([
      ['b', 0],
      ['a', 5],
      [BROWSING, 0],
    ]);
  });

  it('opens on the running sweep, else the newest, else Browsing', () => {
    const old = makeSweep('old', { createdAt: 1, status: 'running' });
    const fresh = makeSweep('fresh', { createdAt: 9, status: 'finished' });
    expect(defaultSelection([fresh, old])).toBe('old');
    expect(defaultSelection([makeSweep('x', { createdAt: 1, status: 'stopped' }), fresh])).toBe('fresh');
    expect(defaultSelection([])).toBe(BROWSING);
  });

  it.each<[SweepStatus, boolean, boolean, boolean]>([
    ['running', false, true, false],
    ['paused', true, true, true],
    ['failed', true, true, true],
    ['stopped', false, false, true],
    ['finished', false, false, true],
  ])('a %s sweep: resume %s, stop %s, delete %s', (status, resume, stop, del) => {
    expect(sweepActions(status)).toEqual({ resume, stop, delete: del });
  });

  it('re-reads a collection at least 2 s apart, and at most a tenth of the time for slow reads', () => {
    expect(reloadDue(1_000, null, 0)).toBe(true);
    expect(reloadDue(2_999, 1_000, 50)).toBe(false);
    expect(reloadDue(3_000, 1_000, 50)).toBe(true);
    // A 1.5 s read: next one 15 s after the last started.
    expect(reloadDue(15_999, 1_000, 1_500)).toBe(false);
    expect(reloadDue(16_000, 1_000, 1_500)).toBe(true);
  });
});

describe('the collections panel', () => {
  let host: HTMLElement;
  let store: Store;
  let factory: IDBFactory;
  beforeEach(async () => {
    useEnglishMessages();
    host = document.createElement('div');
    document.body.append(host);
    factory = freshFactory();
    store = await openStore({ factory, name: 'dashboard-test' });
  });
  afterEach(() => {
    render(null, host);
    host.remove();
    store.close();
    vi.restoreAllMocks();
  });

  async function mount(confirm: (m: string) => boolean, onChanged = vi.fn()) {
    const sweeps = await store.listSweeps();
    const collections = summarise(sweeps, new Map([...sweeps.map((s) => [s.id, 3] as const), [BROWSING, 0]]));
    await act(() => {
      render(h(CollectionsPanel, { store, collections, selectedId: null, onSelect: () => {}, onChanged, confirm, now: () => 5_000 }), host);
    });
    return onChanged;
  }
  const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === name || b.textContent === name);

  it('Find contacts without the permission opens the options page (which asks for it) and asks the background nothing', async () => {
    // With the permission, the same findContacts (components/find-contacts.ts) starts the pass: tests/browser/contacts.test.ts.
    await store.createSweep(makeSweep('s1', { keywords: ['bakery'], status: 'finished' }), makeCells('s1', 1));
    const asked: (string | undefined)[] = [];
    const remove = onContactsMessage('contactsStart', async ({ data }) => {
      asked.push(data?.collection);
      return { ok: true, queued: { places: 3, queued: 3, recorded: 0 } };
    });
    vi.spyOn(browser.permissions, 'contains').mockResolvedValue(false as never);
    const options = vi.spyOn(browser.runtime, 'openOptionsPage').mockResolvedValue(undefined);
    await mount(() => true);
    await act(async () => button('Find contacts – bakery')!.click());
    await vi.waitFor(() => expect(options).toHaveBeenCalledTimes(1));
    expect(asked).toEqual([]);
    remove();
  });

  it('deletes a sweep only after the user confirms, naming it and its place count', async () => {
    // The background's delete command (its refusals are tested in controller-wiring.test.ts).
    removeDelete = onMessage('deleteSweep', async ({ data }) =>
      (await store.deleteSweep(data, { unlessHeldAt: Date.now() })) === 'held' ? { ok: false, error: { code: 'sweep-busy', message: 'busy' } } : { ok: true },
    );
    await store.createSweep(makeSweep('s1', { keywords: ['bakery', 'florist'], status: 'stopped' }), makeCells('s1', 2));
    const asked: string[] = [];
    let answer = false;
    const onChanged = await mount((m) => {
      asked.push(m);
      return answer;
    });
    const del = button('Delete – bakery, florist')!;
    expect(del.disabled).toBe(false);

    await act(() => del.click());
    expect(asked).toEqual(['Delete the sweep “bakery, florist” with its 3 places? Places that another sweep or browsing also found stay there.']);
    expect(await store.getSweep('s1')).toBeDefined();
    expect(onChanged).not.toHaveBeenCalled();

    answer = true;
    await act(async () => {
      del.click();
      await vi.waitFor(async () => expect(await store.getSweep('s1')).toBeUndefined());
      await vi.waitFor(() => expect(onChanged).toHaveBeenCalled());
    });
    expect(await store.listCells('s1')).toEqual([]);
  });

  it('offers no delete for a running sweep, and no export for an empty collection', async () => {
    await store.createSweep(makeSweep('s2', { keywords: ['cafe'], status: 'running' }), makeCells('s2', 1));
    await mount(() => true);
    expect(button('Delete – cafe')!.disabled).toBe(true);
    expect(button('Resume – cafe')!.disabled).toBe(true);
    expect(button('Stop – cafe')!.disabled).toBe(false);
    expect(button('Export GeoJSON – cafe')!.disabled).toBe(false);
    expect(button('Export JSON – Browsing')!.disabled).toBe(true);
    expect(button('Delete – Browsing')).toBeUndefined();
    const rowText = host.querySelector('tbody tr')!.textContent!;
    expect(rowText).toContain('Running');
    expect(rowText).toContain('0 of 1 cells');
  });

  it("a failed export says so in the dashboard (and the popup's text is the same), nothing downloaded", async () => {
    await store.createSweep(makeSweep('s4', { keywords: ['cafe'], status: 'finished' }), makeCells('s4', 1));
    vi.spyOn(store, 'iterateListings').mockImplementation(async function* () {
      yield [];
      throw new Error('The database refused the read');
    });
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await mount(() => true);
    await act(async () => {
      button('Export JSON – cafe')!.click();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(host.querySelector('[role=alert]')?.textContent).toContain('The export failed, nothing was downloaded: The database refused the read');
    expect(clicks).not.toHaveBeenCalled();
    expect(exportFailureText(new Error('x'))).toBe('The export failed, nothing was downloaded: x');
  });

  it('downloads a sweep’s coverage report, one row per cell, and offers none for Browsing', async () => {
    const cells = makeCells('s3', 3);
    await store.createSweep(makeSweep('s3', { keywords: ['cafe'], status: 'finished' }), cells);
    // A sweep starts with pending cells only; the searched one is written as a commit leaves it.
    const searched = {
      ...cells[1]!,
      status: 'saturated' as const,
      attempts: 1,
      result: {
        reason: 'view-not-covering' as const,
        searchedBox: null,
        organic: 118,
        newListings: 40,
        endOfList: false,
        capHit: true,
        zoomedOut: false,
        insideShare: 1,
      },
    };
    await store.transact(['cells'], 'readwrite', async (tx) => {
      await tx.objectStore('cells').put(searched);
    });
    // The browser's download is the boundary: catch the Blob handed to it, not the code making it.
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:test';
    });
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await mount(() => true);
    expect(button('Export coverage report – Browsing')).toBeUndefined();
    const exportButton = button('Export coverage report – cafe')!;
    expect(exportButton.disabled).toBe(false);
    await act(async () => {
      exportButton.click();
      await vi.waitFor(() => expect(blobs).toHaveLength(1));
    });
    expect(names).toEqual(['mapsweep_cafe_1970-01-01.coverage.csv']);
    const text = await blobs[0]!.text();
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]!.startsWith('cell_id,keyword,depth,status,reason')).toBe(true);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain('s3/0/r0c1,bakery,0,saturated,view-not-covering');
  });

  it('offers Export XLSX beside CSV: an .xlsx of the collection that SheetJS reads back, 20-digit CIDs intact', async () => {
    await store.createSweep(makeSweep('s5', { keywords: ['cafe'], status: 'finished' }), makeCells('s5', 1));
    const db = await rawOpen(factory, 'dashboard-test');
    await rawPut(
      db,
      'listings',
      [1, 2, 3].map((n) => ({ ...makeListing(`1844674407370955161${n}`), firstSeen: 1, lastSeen: 2, collections: ['s5'], keywords: ['cafe'], cells: [] })),
    );
    db.close();
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:test';
    });
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await mount(() => true);
    const xlsxButton = button('Export XLSX – cafe')!;
    expect(xlsxButton.disabled).toBe(false);
    await act(async () => {
      xlsxButton.click();
      await vi.waitFor(() => expect(blobs).toHaveLength(1));
    });
    expect(names).toEqual(['mapsweep_cafe_1970-01-01.xlsx']);
    const book = XLSX.read(new Uint8Array(await blobs[0]!.arrayBuffer()), { type: 'array' });
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.places!, { raw: true });
    expect(rows.map((r) => r.cid).sort()).toEqual(['18446744073709551611', '18446744073709551612', '18446744073709551613']);
  });
});

describe('reading a collection', () => {
  it('scans the whole store when the collection is at least a quarter of it, else walks the index', () => {
    expect(collectionReadPath(25, 100)).toBe('scan');
    expect(collectionReadPath(24, 100)).toBe('index');
    expect(collectionReadPath(0, 0)).toBe('scan');
  });

  it('returns exactly the collection’s places, each once, by either path', async () => {
    const factory = freshFactory();
    const store = await openStore({ factory, name: 'read-test' });
    const stored = (i: number, collections: string[]): StoredListing => ({
      ...makeListing(String(1000 + i)),
      firstSeen: 1,
      lastSeen: 2,
      collections,
      keywords: [],
      cells: [],
    });
    // 40 places: 5 browsing only, 3 in both, 32 in sweep s1 only.
    const all = Array.from({ length: 40 }, (_, i) => stored(i, i < 5 ? [BROWSING] : i < 8 ? [BROWSING, 's1'] : ['s1']));
    const db = await rawOpen(factory, 'read-test');
    await rawPut(db, 'listings', all);
    db.close();
    const read = async (id: string) => {
      const keys: string[] = [];
      for await (const batch of store.iterateListings(3, id)) keys.push(...batch.map((l) => l.key));
      return keys;
    };
    const expected = (id: string) =>
      all
        .filter((l) => l.collections.includes(id))
        .map((l) => l.key)
        .sort();
    expect(collectionReadPath(8, 40)).toBe('index');
    expect((await read(BROWSING)).sort()).toEqual(expected(BROWSING));
    expect(collectionReadPath(35, 40)).toBe('scan');
    expect((await read('s1')).sort()).toEqual(expected('s1'));
    expect(await read('nothing')).toEqual([]);
    store.close();
  });
});
