// @vitest-environment happy-dom
/**
 * The reviews as JSON (issue 38, utils/export/reviews.ts): the CSV's rows as records with JSON's
 * own types, hostile and Korean texts exactly as read (JSON is no spreadsheet: nothing is
 * neutralised), written by the one file builder the popup's reviews panel and the dashboard share.
 */
import Papa from 'papaparse';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReviewsPanel } from '../../components/ReviewsPanel';
import type { Review } from '../../utils/domain/review';
import type { StoredListing } from '../../utils/domain/listing';
import { buildReviewsExport, REVIEW_COLUMNS } from '../../utils/export/reviews';
import { enqueueReviews } from '../../utils/reviews/queue';
import { openStore, type Store } from '../../utils/store';
import { useEnglishMessages } from '../helpers/english-messages';
import { makeReview } from '../helpers/store-records';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const HOSTILE = '=HYPERLINK("http://x","y")\n<img src=x onerror=alert(1)>\u202E 👍 "quoted", done';
const KOREAN = '커피가 정말 맛있어요! 사장님도 친절하세요 😊';
const NOW = new Date(Date.UTC(2026, 11, 3));

const stored = (cid: string, collections: string[]): StoredListing => ({
  ...makeListing(cid, { name: `카페 ${cid}` }),
  firstSeen: 1,
  lastSeen: 1,
  collections,
  keywords: [],
  cells: [],
});

async function seeded(): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: 'reviews-json' });
  const sweep = makeSweep('s1', { keywords: ['카페'], status: 'finished' });
  await store.createSweep({ ...sweep, settings: { ...sweep.settings, reviews: true } as typeof sweep.settings }, [makeCell('s1', 'r0c0')]);
  await store.transact(['listings', 'reviews'], 'readwrite', async (tx) => {
    await tx.objectStore('listings').put(stored('1', ['s1']));
    await tx.objectStore('listings').put(stored('2', ['other']));
    const reviews: Review[] = [
      makeReview('google:1', 'a', { text: HOSTILE, ownerReply: { text: '+1 감사합니다', date: { said: '1주 전', iso: '2026-11-26', precision: 'week' } } }),
      makeReview('google:1', 'b', {
        text: KOREAN,
        idFromSite: false,
        rating: null,
        photos: 2,
        lang: 'ko',
        date: { said: '3일 전', iso: '2026-11-30', precision: 'day' },
      }),
      makeReview('google:2', 'c'),
    ];
    for (const r of reviews) await tx.objectStore('reviews').put(r);
  });
  return store;
}

const textOf = async (file: { parts: BlobPart[] }) => new Blob(file.parts).text();

describe('the reviews JSON', () => {
  it('holds the CSV\u2019s rows in its order, as records of typed values, texts exactly as read', async () => {
    const store = await seeded();
    const json = await buildReviewsExport(store, { collection: 's1', fileWords: ['카페'] }, 'json', NOW);
    const csv = await buildReviewsExport(store, { collection: 's1', fileWords: ['카페'] }, 'csv', NOW);
    expect(json.fileName).toBe('mapsweep_카페+reviews_2026-12-03.json');
    expect(json.type).toBe('application/json;charset=utf-8');
    expect(csv.fileName).toBe('mapsweep_카페+reviews_2026-12-03.csv');

    const records = JSON.parse(await textOf(json)) as Record<string, unknown>[];
    const rows = Papa.parse<Record<string, string>>((await textOf(csv)).slice(1), { header: true, skipEmptyLines: true }).data;
    expect(records.map((r) => r.review_id)).toEqual(rows.map((r) => r.review_id));
    expect(records.map((r) => r.review_id)).toEqual(['b', 'a']);
    for (const r of records) expect(Object.keys(r)).toEqual([...REVIEW_COLUMNS]);

    const [korean, hostile] = records;
    expect(korean).toMatchObject({
      place_key: 'google:1',
      site: 'google',
      place_name: '카페 1',
      id_from_site: false,
      rating: null,
      date: '2026-11-30',
      date_precision: 'day',
      date_as_shown: '3일 전',
      text: KOREAN,
      language: 'ko',
      photos: 2,
      owner_reply: null,
    });
    // No spreadsheet reads JSON: the formula, the markup and the bidi override come back as written.
    expect(hostile).toMatchObject({ id_from_site: true, rating: 4, text: HOSTILE, owner_reply: '+1 감사합니다', owner_reply_date: '2026-11-26', photos: 0 });
    // The CSV of the same rows still neutralises them.
    expect(rows[1]).toMatchObject({ text: `'${HOSTILE}`, owner_reply: "'+1 감사합니다", id_from_site: 'yes' });
    expect(rows[0]).toMatchObject({ text: KOREAN, id_from_site: 'no', rating: '', photos: '2' });
    store.close();
  });

  it('every place\u2019s reviews when no collection is given; an empty scope is an empty list', async () => {
    const store = await seeded();
    const all = JSON.parse(await textOf(await buildReviewsExport(store, { collection: undefined, fileWords: ['all-places'] }, 'json', NOW)));
    expect(all.map((r: { review_id: string }) => r.review_id)).toEqual(['b', 'a', 'c']);
    const none = await buildReviewsExport(store, { collection: 'nothing-here', fileWords: ['x'] }, 'json', NOW);
    expect(await textOf(none)).toBe('[]\n');
    store.close();
  });
});

describe('the popup\u2019s reviews panel', () => {
  let host: HTMLElement;
  beforeEach(() => {
    useEnglishMessages();
    host = document.createElement('div');
    document.body.append(host);
  });
  afterEach(() => {
    render(null, host);
    host.remove();
    vi.restoreAllMocks();
  });

  it('Reviews (JSON) beside Reviews (CSV) saves the sweep\u2019s reviews as JSON', async () => {
    const store = await seeded();
    await enqueueReviews(store, 's1', 1, { provider: 'google' });
    const blobs: Blob[] = [];
    const files: { name: string; blob: Blob }[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blobs.push(b as Blob);
      return `blob:test/${blobs.length}`;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      files.push({ name: this.download, blob: blobs[blobs.length - 1]! });
    });
    const sweep = (await store.getSweep('s1'))!;
    await act(() => {
      render(h(ReviewsPanel, { store, sweep }), host);
    });
    const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === name);
    await vi.waitFor(() => expect(button('Reviews (JSON)')?.disabled).toBe(false));
    expect(button('Reviews (CSV)')).toBeDefined();
    await act(async () => {
      button('Reviews (JSON)')!.click();
      await vi.waitFor(() => expect(files).toHaveLength(1));
    });
    expect(files[0]!.name).toMatch(/^mapsweep_카페\+reviews_\d{4}-\d\d-\d\d\.json$/);
    const records = JSON.parse(await files[0]!.blob.text()) as { review_id: string; text: string }[];
    expect(records.map((r) => [r.review_id, r.text])).toEqual([
      ['b', KOREAN],
      ['a', HOSTILE],
    ]);
    store.close();
  });
});
