// @vitest-environment happy-dom
/**
 * Filters in the pages (issue 40): the options page's Filters section saves what reads and shows
 * the reason for what does not (the stored filters unchanged); the popup counts the places of
 * what it would export that pass ("2 of 3 places pass the filters") and exports only those,
 * its file named after the filters; the dashboard does the same for the collection shown.
 */
import Papa from 'papaparse';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CollectionsPanel } from '../../components/dashboard/CollectionsPanel';
import { FilterCount } from '../../components/FilterCount';
import { Options } from '../../components/Options';
import { Popup } from '../../components/Popup';
import { NO_FILTER, normaliseSettings, type PlaceFilter } from '../../utils/config/settings';
import { BROWSING, openStore } from '../../utils/store';
import { DEFAULT_DB_NAME } from '../../utils/store/open';
import { useEnglishMessages } from '../helpers/english-messages';
import { storedListing } from '../helpers/listings';
import { summarise } from '../../utils/dashboard/collections';
import { freshFactory, makeCells, makeSweep, rawOpen, rawPut } from './store-fixtures';

const host = document.createElement('div');
afterEach(() => {
  render(null, host);
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

/** Let the page run until `until` (or, without one, a few turns: a save to storage). */
const flush = async (until?: () => boolean) => {
  for (let i = 0; i < (until ? 100 : 5) && !until?.(); i++) await act(() => new Promise<void>((r) => setTimeout(r, until ? 20 : 0)));
};
const storedFilter = async () => normaliseSettings((await fakeBrowser.storage.local.get('settings')).settings).filters;

/** The input a label names, as a person (or a screen reader) finds it. */
function field(label: string): HTMLInputElement {
  const found = [...host.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(label));
  if (!found) throw new Error(`no field labelled ${label}`);
  return found.querySelector('input')!;
}
async function type(label: string, value: string) {
  await act(async () => {
    const input = field(label);
    input.value = value;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await flush();
}

describe('options: Filters', () => {
  it('saves words, numbers and choices as typed; refuses bad input with its reason and keeps what was stored', async () => {
    useEnglishMessages();
    document.body.append(host);
    await act(async () => {
      render(h(Options, {}), host);
    });
    await flush(() => host.querySelector('fieldset.filters') !== null);
    expect(host.querySelector('fieldset.filters legend')?.textContent).toBe('Filters');
    expect(host.querySelector('[data-testid=filters-now]')?.textContent).toBe('No filters: every place counts.');

    await type('Categories to keep', '카페,  cafe ,');
    await type('Names to leave out', '스타벅스');
    await type('Lowest rating', '4');
    await act(async () => {
      const radio = field('Has no website');
      radio.checked = true;
      radio.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await flush();
    const expected: PlaceFilter = { ...NO_FILTER, categories: ['카페', 'cafe'], excludeNames: ['스타벅스'], minRating: 4, website: 'none' };
    expect(await storedFilter()).toEqual(expected);
    expect(host.querySelector('[data-testid=filters-now]')?.textContent).toBe('Now: category: 카페, cafe; not name: 스타벅스; rating ≥ 4; no website');
    expect(host.querySelector('[role=alert]')).toBeNull();

    // A rating out of range: the reason shows, nothing is saved.
    await type('Lowest rating', '7');
    expect(host.querySelector('[role=alert]')?.textContent).toBe('Lowest rating: a number from 0 to 5, or empty for no limit.');
    expect(await storedFilter()).toEqual(expected);
    // Too many words: the same.
    await type('Categories to leave out', Array.from({ length: 51 }, (_, i) => `w${i}`).join(', '));
    expect(host.querySelector('[role=alert]')?.textContent).toContain('at most 50 words (51 given)');
    expect(await storedFilter()).toEqual(expected);

    // Mended, it saves again.
    await type('Categories to leave out', '');
    await type('Lowest rating', '4.5');
    expect(host.querySelector('[role=alert]')).toBeNull();
    expect(await storedFilter()).toEqual({ ...expected, minRating: 4.5 });
    // The other settings are stored alongside, untouched.
    expect((await fakeBrowser.storage.local.get('settings')).settings).toMatchObject({ delayMs: 2000, reviews: false });
  });
});

describe('popup: the count and the export with filters', () => {
  it('"2 of 3 places pass the filters" for what it would export, and the CSV holds those two under the filters’ name', async () => {
    useEnglishMessages();
    document.body.append(host);
    const places = [
      storedListing(1, { collections: [BROWSING], name: '카페 하나', category: '카페', rating: 4.6 }),
      storedListing(2, { collections: [BROWSING], name: '카페 둘', category: '카페', rating: 3.1 }),
      storedListing(3, { collections: [BROWSING], name: '카페 셋', category: '카페', rating: null, reviews: null }),
    ];
    // The schema first (the popup opens the same database), then the places as a sweep would leave them.
    const store = await openStore();
    const db = await rawOpen(indexedDB, DEFAULT_DB_NAME);
    const tx = db.transaction('listings', 'readwrite');
    tx.objectStore('listings').clear();
    await new Promise((r) => (tx.oncomplete = r));
    await rawPut(db, 'listings', places);
    db.close();
    await fakeBrowser.storage.local.set({ settings: { filters: { ...NO_FILTER, categories: ['카페'], minRating: 4 } } });

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

    await act(() => {
      render(h(Popup, {}), host);
    });
    const count = () => host.querySelector('[data-testid=filter-count]')?.textContent ?? '';
    await flush(() => count().startsWith('2 of 3'));
    expect(count()).toBe('2 of 3 places pass the filters (1 of them on fields not read yet)Filters: category: 카페; rating ≥ 4');

    const csvButton = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Export CSV')!;
    await act(() => {
      csvButton.click();
    });
    await flush(() => files.length > 0);
    expect(files[0]!.name).toMatch(/^mapsweep_browsing_filtered-카페-r4_\d{4}-\d\d-\d\d\.csv$/);
    const rows = Papa.parse<Record<string, string>>((await files[0]!.blob.text()).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => r.name).sort()).toEqual(['카페 셋', '카페 하나']);

    // Filters cleared in the options: the count goes away.
    await act(() => fakeBrowser.storage.local.set({ settings: { filters: NO_FILTER } }));
    await flush(() => count() === '');
    expect(host.querySelector('[data-testid=filter-count]')).toBeNull();
    store.close();
  });
});

describe('dashboard: a collection counted and exported with the filters', () => {
  it('the count line for the collection, and its JSON export says which filters made it', async () => {
    useEnglishMessages();
    document.body.append(host);
    const factory = freshFactory();
    const store = await openStore({ factory, name: 'filters-dashboard' });
    const sweep = makeSweep('d1', { keywords: ['cafe'], status: 'finished' });
    await store.createSweep(sweep, makeCells('d1', 1));
    const db = await rawOpen(factory, 'filters-dashboard');
    await rawPut(db, 'listings', [
      storedListing(1, { collections: ['d1'], name: 'Kept', website: 'https://kept.kr/' }),
      storedListing(2, { collections: ['d1'], name: 'No site', website: null, sources: { category: 'panel' } }),
      storedListing(3, { collections: ['d1'], name: 'Not read yet', website: null }),
    ]);
    db.close();
    const filter: PlaceFilter = { ...NO_FILTER, website: 'has' };
    const blobs: Blob[] = [];
    const names: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return 'blob:test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const collections = summarise([sweep], new Map([['d1', 3]]));
    await act(() => {
      render(
        h('div', {}, [
          h(CollectionsPanel, { store, collections, selectedId: 'd1', onSelect: () => {}, onChanged: () => {}, confirm: () => true, now: () => 0, filter }),
          h(FilterCount, { store, collection: 'd1', filter, places: 3 }),
        ]),
        host,
      );
    });
    const count = () => host.querySelector('[data-testid=filter-count]')?.textContent ?? '';
    await flush(() => count().startsWith('2 of 3'));
    expect(count()).toContain('2 of 3 places pass the filters (1 of them on fields not read yet)');

    const json = [...host.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === 'Export JSON – cafe')!;
    await act(() => {
      json.click();
    });
    await flush(() => blobs.length > 0);
    expect(names).toEqual(['mapsweep_cafe_filtered-web_1970-01-01.json']);
    const file = JSON.parse(await blobs[0]!.text()) as { filters: string; places: { name: string }[] };
    expect(file.filters).toBe('has website');
    expect(file.places.map((p) => p.name).sort()).toEqual(['Kept', 'Not read yet']);
    store.close();
  });
});
