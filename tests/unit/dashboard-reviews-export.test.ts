// @vitest-environment happy-dom
/**
 * The dashboard's reviews export (components/dashboard/ReviewsExport.tsx, issue 38): the popup's
 * files (CSV or JSON) for the collection shown and for every place stored, shown once any review
 * is; the CSV neutralised, the JSON exactly as read, names from the page rendered as text.
 */
import Papa from 'papaparse';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReviewsExport } from '../../components/dashboard/ReviewsExport';
import { summarise } from '../../utils/dashboard/collections';
import type { StoredListing } from '../../utils/domain/listing';
import { BROWSING, openStore, type Store } from '../../utils/store';
import { useEnglishMessages } from '../helpers/english-messages';
import { makeReview } from '../helpers/store-records';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const HOSTILE = '@SUM(1+1)*cmd|" /C calc"!A0 <script>alert(1)</script>';
const KEYWORD = '<b>카페</b>';

const stored = (cid: string, collections: string[]): StoredListing => ({
  ...makeListing(cid, { name: `카페 ${cid}` }),
  firstSeen: 1,
  lastSeen: 1,
  collections,
  keywords: [],
  cells: [],
});

describe('the dashboard\u2019s reviews export', () => {
  let host: HTMLElement;
  let store: Store;
  let files: { name: string; blob: Blob }[];
  beforeEach(async () => {
    useEnglishMessages();
    host = document.createElement('div');
    document.body.append(host);
    store = await openStore({ factory: freshFactory(), name: 'dashboard-reviews' });
    await store.createSweep(makeSweep('s1', { keywords: [KEYWORD], status: 'finished' }), [makeCell('s1', 'r0c0')]);
    await store.transact(['listings'], 'readwrite', async (tx) => {
      await tx.objectStore('listings').put(stored('1', ['s1']));
      await tx.objectStore('listings').put(stored('2', [BROWSING]));
    });
    files = [];
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return `blob:test/${blobs.length}`;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      files.push({ name: this.download, blob: blobs[blobs.length - 1]! });
    });
  });
  afterEach(() => {
    render(null, host);
    host.remove();
    store.close();
    vi.restoreAllMocks();
  });

  async function mount(tick = 1) {
    const sweeps = await store.listSweeps();
    const collections = summarise(
      sweeps,
      new Map([
        ['s1', 1],
        [BROWSING, 1],
      ]),
    );
    await act(() => {
      render(h(ReviewsExport, { store, selected: collections[0]!, totalPlaces: 2, tick, now: () => Date.UTC(2026, 11, 4) }), host);
    });
  }
  const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === name);
  const addReviews = () =>
    store.transact(['reviews'], 'readwrite', async (tx) => {
      await tx.objectStore('reviews').put(makeReview('google:1', 'a', { text: HOSTILE }));
      await tx.objectStore('reviews').put(makeReview('google:2', 'b', { text: '분위기 좋아요' }));
    });

  it('shows nothing until a review is stored, then offers both files for the sweep shown and for all places', async () => {
    await mount(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(host.querySelector('section')).toBeNull();
    await addReviews();
    // The next poll of the dashboard asks again.
    await mount(2);
    await vi.waitFor(() => expect(host.querySelectorAll('button')).toHaveLength(4));
    expect([...host.querySelectorAll('button')].map((b) => b.getAttribute('aria-label'))).toEqual([
      `Reviews (CSV) – ${KEYWORD}`,
      `Reviews (JSON) – ${KEYWORD}`,
      'Reviews (CSV) – All places (2)',
      'Reviews (JSON) – All places (2)',
    ]);
    // The sweep's keywords are page-independent but user text: rendered as text, never as markup.
    expect(host.querySelector('b')).toBeNull();
    expect(host.textContent).toContain(KEYWORD);
  });

  it('the sweep\u2019s reviews as JSON, exactly as read; every place\u2019s as CSV, neutralised', async () => {
    await addReviews();
    await mount();
    await vi.waitFor(() => expect(button(`Reviews (JSON) – ${KEYWORD}`)).toBeDefined());
    await act(async () => {
      button(`Reviews (JSON) – ${KEYWORD}`)!.click();
      await vi.waitFor(() => expect(files).toHaveLength(1));
    });
    expect(files[0]!.name).toBe('mapsweep_-b-카페-b-+reviews_2026-12-04.json');
    expect((JSON.parse(await files[0]!.blob.text()) as { review_id: string; text: string }[]).map((r) => [r.review_id, r.text])).toEqual([['a', HOSTILE]]);

    await act(async () => {
      button('Reviews (CSV) – All places (2)')!.click();
      await vi.waitFor(() => expect(files).toHaveLength(2));
    });
    expect(files[1]!.name).toBe('mapsweep_all-places+reviews_2026-12-04.csv');
    const text = await files[1]!.blob.text();
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => [r.review_id, r.text])).toEqual([
      ['a', `'${HOSTILE}`],
      ['b', '분위기 좋아요'],
    ]);
  });

  it('a failed export says so, nothing downloaded', async () => {
    await addReviews();
    await mount();
    await vi.waitFor(() => expect(button('Reviews (JSON) – All places (2)')).toBeDefined());
    vi.spyOn(store, 'iterateListings').mockImplementation(async function* () {
      yield [];
      throw new Error('The database refused the read');
    });
    await act(async () => {
      button('Reviews (JSON) – All places (2)')!.click();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(host.querySelector('[role=alert]')!.textContent).toBe('The export failed, nothing was downloaded: The database refused the read');
    expect(files).toEqual([]);
  });
});
