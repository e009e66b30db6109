// @vitest-environment happy-dom
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Popup } from '../../components/Popup';
import { buildExport } from '../../components/dashboard/export-collection';
import { CSV_COLUMNS } from '../../utils/export/columns';
import type { StoredListing } from '../../utils/domain/listing';
import { BROWSING, openStore, type Store } from '../../utils/store';
import { DEFAULT_DB_NAME } from '../../utils/store/open';
import { EXPORT_STATE_KEY } from '../../utils/export/long-export';
import { storedListing } from '../helpers/listings';
import { makeCells, makeSweep, rawOpen, rawPut } from './store-fixtures';
import { useEnglishMessages } from '../helpers/english-messages';

async function putListings(listings: StoredListing[]) {
  const db = await rawOpen(indexedDB, DEFAULT_DB_NAME);
  await rawPut(db, 'listings', listings);
  db.close();
}

/** The browser's download is the boundary: the Blob handed to it and the link's file name. */
function catchDownloads() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    blobs.push(b as Blob);
    return `blob:test/${blobs.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, blob: blobs[blobs.length - 1]! });
  });
  return files;
}

const csvRows = async (blob: Blob) => Papa.parse<string[]>((await blob.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

describe('popup export of every collection', () => {
  const host = document.createElement('div');
  let store: Store;
  beforeEach(async () => {
    useEnglishMessages();
    store = await openStore();
    // One database for the file: each test starts with no places.
    const db = await rawOpen(indexedDB, DEFAULT_DB_NAME);
    const tx = db.transaction('listings', 'readwrite');
    tx.objectStore('listings').clear();
    await new Promise((r) => (tx.oncomplete = r));
    db.close();
    document.body.append(host);
  });
  afterEach(() => {
    render(null, host);
    store.close();
    vi.restoreAllMocks();
  });

  /** Open the popup and wait until it has read the store (its counts come from the first reads). */
  const mount = async (ready: () => boolean) => {
    await act(() => {
      render(h(Popup, {}), host);
    });
    await settle(ready);
  };
  /** Let the popup run (act flushes its renders when it returns) until `ready`. */
  const settle = async (ready: () => boolean) => {
    for (let i = 0; i < 100 && !ready(); i++) await act(() => new Promise<void>((r) => setTimeout(r, 50)));
    expect(ready()).toBe(true);
  };
  const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === name);
  const select = () => {
    // The select named by its label, as a screen reader (and Playwright's getByLabel) finds it.
    const label = [...host.querySelectorAll('label')].find((l) => l.textContent === 'Places to export');
    return label ? (host.querySelector<HTMLSelectElement>(`select#${label.htmlFor}`) ?? null) : null;
  };
  const click = async (name: string, files: unknown[]) => {
    const before = files.length;
    await act(() => {
      button(name)!.click();
    });
    await settle(() => files.length > before && !button(name)!.disabled);
  };

  it('with no sweep yet offers Export for Browsing: CSV and XLSX of the places collected while browsing, the XLSX cells equal to the CSV', async () => {
    const browsing = [1, 2, 3].map((n) => storedListing(n, { collections: [BROWSING], name: `둘러본 곳 ${n}` }));
    await putListings(browsing);
    const files = catchDownloads();
    await mount(() => !!select()?.options[0]?.textContent?.includes('(3 places)'));
    const choice = select()!;
    expect([...choice.options].map((o) => o.value)).toEqual(['browsing', 'all']);
    expect(choice.value).toBe('browsing');
    expect(choice.options[0]!.textContent).toBe('Collected while browsing (3 places)');

    await click('Export CSV', files);
    expect(files.map((f) => f.name)).toEqual([expect.stringMatching(/^mapsweep_browsing_\d{4}-\d\d-\d\d\.csv$/)]);
    const csv = await csvRows(files[0]!.blob);
    expect(csv[0]).toEqual([...CSV_COLUMNS]);
    expect(
      csv
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(browsing.map((l) => l.name).sort());

    await click('Export XLSX', files);
    expect(files[1]!.name).toMatch(/^mapsweep_browsing_\d{4}-\d\d-\d\d\.xlsx$/);
    expect(files[1]!.blob.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = XLSX.read(new Uint8Array(await files[1]!.blob.arrayBuffer()), { type: 'array' });
    const sheet = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1, raw: true, defval: '' });
    expect(sheet.map((r) => r.map(String))).toEqual(csv);
  });

  it('exports what it shows: the sweep by default, then Browsing or all places as chosen', async () => {
    await store.createSweep(makeSweep('pe1', { keywords: ['cafe'], status: 'finished', createdAt: Date.now() }), makeCells('pe1', 1));
    await putListings([
      storedListing(11, { collections: ['pe1'], name: 'Sweep only' }),
      storedListing(12, { collections: ['pe1', BROWSING], name: 'Both' }),
      storedListing(13, { collections: [BROWSING], name: 'Browsing only' }),
      storedListing(14, { collections: ['other'], name: 'Another sweep' }),
    ]);
    const files = catchDownloads();
    await mount(() => select()?.options.length === 3 && !!select()?.options[2]?.textContent?.includes('(4)'));
    const choice = select()!;
    expect([...choice.options].map((o) => [o.value, o.textContent])).toEqual([
      ['sweep', 'This sweep: cafe (2 places)'],
      ['browsing', 'Collected while browsing (2 places)'],
      ['all', 'All places (4)'],
    ]);
    expect(choice.value).toBe('sweep');
    const names = async () =>
      (await csvRows(files[files.length - 1]!.blob))
        .slice(1)
        .map((r) => r[1])
        .sort();

    await click('Export CSV', files);
    expect(files[0]!.name).toMatch(/^mapsweep_cafe_/);
    expect(await names()).toEqual(['Both', 'Sweep only']);

    for (const [value, expected, prefix] of [
      ['browsing', ['Both', 'Browsing only'], 'mapsweep_browsing_'],
      ['all', ['Another sweep', 'Both', 'Browsing only', 'Sweep only'], 'mapsweep_all-places_'],
    ] as const) {
      await act(async () => {
        choice.value = value;
        choice.dispatchEvent(new Event('change'));
      });
      expect(select()!.value).toBe(value);
      await click('Export CSV', files);
      expect(files[files.length - 1]!.name.startsWith(prefix)).toBe(true);
      expect(await names()).toEqual(expected);
    }
    // The controls of the sweep are still there; Export is not among them any more but below.
    expect(button('Pause')).toBeDefined();
    expect([...host.querySelectorAll('button')].filter((b) => b.textContent === 'Export CSV').length).toBe(1);
  });

  it('shows a long export running in the background (from session storage), buttons off until it is done; a failure says so', async () => {
    const state = {
      id: 'x1',
      format: 'csv',
      phase: 'reading',
      done: 40_000,
      total: 100_000,
      fileName: null,
      error: null,
      startedAt: Date.now(),
      updatedAt: Date.now(),
    };
    await fakeBrowser.storage.session.set({ [EXPORT_STATE_KEY]: state });
    await mount(() => !!select());
    const status = () => host.querySelector('[data-testid=export-status]')!.textContent;
    await settle(() => status() === 'Exporting: 40,000 of 100,000 places…');
    expect(button('Export CSV')!.disabled).toBe(true);
    expect(button('Export XLSX')!.disabled).toBe(true);
    await act(() =>
      fakeBrowser.storage.session.set({
        [EXPORT_STATE_KEY]: { ...state, phase: 'done', done: 100_000, fileName: 'mapsweep_all-places_2026-12-01.csv', updatedAt: Date.now() },
      }),
    );
    await settle(() => status() === 'Exported 100,000 places to mapsweep_all-places_2026-12-01.csv.' && !button('Export CSV')!.disabled);
    await act(() => fakeBrowser.storage.session.set({ [EXPORT_STATE_KEY]: { ...state, phase: 'failed', error: 'FILE_NO_SPACE', updatedAt: Date.now() } }));
    await settle(() => [...host.querySelectorAll('[role=alert]')].some((e) => e.textContent === 'The export failed, nothing was downloaded: FILE_NO_SPACE'));
  });
});

describe('export progress', () => {
  it('reports places read of the total counted at the start, batch by batch, up to the total', async () => {
    const store = await openStore({ name: 'progress-test' });
    const all = Array.from({ length: 2500 }, (_, i) => storedListing(100 + i, { collections: ['pp'] }));
    const db = await rawOpen(indexedDB, 'progress-test');
    await rawPut(db, 'listings', all);
    db.close();
    const seen: [number, number][] = [];
    const built = await buildExport(store, { collection: 'pp', fileWords: ['pp'] }, 'csv', new Date(Date.UTC(2026, 11, 1)), (d, t) => seen.push([d, t]));
    expect(seen).toEqual([
      [0, 2500],
      [1000, 2500],
      [2000, 2500],
      [2500, 2500],
    ]);
    expect(built.places).toBe(2500);
    expect(built.fileName).toBe('mapsweep_pp_2026-12-01.csv');
    store.close();
  });
});
