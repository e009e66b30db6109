import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvChunks } from '../../utils/export/csv';
import { buildInOffscreen, createLongExports, EXPORT_STATE_KEY, readExportState, STALE_EXPORT_MS, type LongExportDeps } from '../../utils/export/long-export';
import type { StoredListing } from '../../utils/domain/listing';
import { openStore } from '../../utils/store';
import { inBatches, storedListing } from '../helpers/listings';
import { rawOpen, rawPut } from './store-fixtures';

function fakeDeps(over: Partial<LongExportDeps> = {}) {
  const session = new Map<string, unknown>();
  const states: string[] = [];
  const calls: string[] = [];
  let clock = 1_000;
  let finishDownload: (r: { ok: boolean; error?: string }) => void = () => {};
  const deps: LongExportDeps = {
    session: {
      get: async (k) => ({ [k]: session.get(k) }),
      set: async (items) => {
        for (const [k, v] of Object.entries(items)) session.set(k, v);
        const s = readExportState(items[EXPORT_STATE_KEY]);
        if (s) states.push(`${s.phase} ${s.done}/${s.total}`);
      },
    },
    ensureOffscreen: async () => void calls.push('open'),
    closeOffscreen: async () => void calls.push('close'),
    build: async (req) => {
      calls.push(`build ${req.format} ${req.collection ?? 'all'} ${req.exportId}`);
      await exports.progress({ exportId: req.exportId, done: 50_000, total: 100_000 });
      await exports.progress({ exportId: 'another', done: 1, total: 1 });
      return { ok: true, url: 'blob:x/1', fileName: 'mapsweep_cafe_2026-12-01.csv', places: 100_000 };
    },
    revoke: async (url) => void calls.push(`revoke ${url}`),
    download: (url, name) => {
      calls.push(`download ${url} ${name}`);
      return new Promise((r) => (finishDownload = r));
    },
    now: () => clock,
    newId: () => 'x1',
    ...over,
  };
  const exports = createLongExports(deps);
  return { exports, session, states, calls, finish: (r: { ok: boolean; error?: string }) => finishDownload(r), tick: (ms: number) => (clock += ms) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('long exports in the background', () => {
  it('records progress in session storage, hands the file to the downloads API, then frees the blob and the document', async () => {
    const f = fakeDeps();
    expect(await f.exports.start({ collection: 's1', fileWords: ['cafe'], format: 'csv' })).toEqual({ ok: true, exportId: 'x1' });
    await flush();
    // A second export while one runs is refused (one offscreen document, one file at a time).
    expect(await f.exports.start({ fileWords: [], format: 'xlsx' })).toMatchObject({ ok: false, error: { code: 'export_busy' } });
    f.finish({ ok: true });
    await flush();
    await flush();
    expect(f.states).toEqual(['reading 0/0', 'reading 50000/100000', 'downloading 100000/100000', 'done 100000/100000']);
    expect(f.calls).toEqual(['open', 'build csv s1 x1', 'download blob:x/1 mapsweep_cafe_2026-12-01.csv', 'revoke blob:x/1', 'close']);
    expect(readExportState(f.session.get(EXPORT_STATE_KEY))).toMatchObject({ phase: 'done', fileName: 'mapsweep_cafe_2026-12-01.csv' });
  });

  it('says why it failed (build or download), and still frees the document; a stale export does not block the next', async () => {
    const f = fakeDeps({ build: async () => ({ ok: false, error: { code: 'export_failed', message: 'The database refused the read' } }) });
    await f.exports.start({ fileWords: [], format: 'csv' });
    await flush();
    await flush();
    expect(readExportState(f.session.get(EXPORT_STATE_KEY))).toMatchObject({ phase: 'failed', error: 'The database refused the read' });
    expect(f.calls).toEqual(['open', 'close']);

    const g = fakeDeps();
    await g.exports.start({ fileWords: [], format: 'csv' });
    await flush();
    g.finish({ ok: false, error: 'FILE_NO_SPACE' });
    await flush();
    await flush();
    expect(readExportState(g.session.get(EXPORT_STATE_KEY))).toMatchObject({ phase: 'failed', error: 'FILE_NO_SPACE' });
    expect(g.calls.slice(-2)).toEqual(['revoke blob:x/1', 'close']);

    // An export whose worker died mid-way (its state never moved again) is not "running" for ever.
    const h = fakeDeps();
    h.session.set(EXPORT_STATE_KEY, {
      id: 'old',
      format: 'csv',
      phase: 'reading',
      done: 5,
      total: 9,
      fileName: null,
      error: null,
      startedAt: 0,
      updatedAt: 1_000,
    });
    expect(await h.exports.start({ fileWords: [], format: 'csv' })).toMatchObject({ ok: false });
    h.tick(STALE_EXPORT_MS);
    expect(await h.exports.start({ fileWords: [], format: 'csv' })).toMatchObject({ ok: true });
  });
});

describe('the offscreen document builds the file', () => {
  it('reads the store in batches, reports progress every 5,000 places, and the blob holds exactly the CSV', async () => {
    const store = await openStore({ name: 'offscreen-test' });
    const all: StoredListing[] = Array.from({ length: 12_000 }, (_, i) => storedListing(i, { collections: ['s9'] }));
    const db = await rawOpen(indexedDB, 'offscreen-test');
    await rawPut(db, 'listings', [...all, storedListing(99_999, { collections: ['other'] })]);
    db.close();
    const progress: number[] = [];
    let blob: Blob | null = null;
    const reply = await buildInOffscreen(
      store,
      { collection: 's9', fileWords: ['cafe'], format: 'csv', exportId: 'x', now: Date.UTC(2026, 11, 1) },
      (d) => progress.push(d),
      (b) => {
        blob = b;
        return 'blob:test/1';
      },
    );
    expect(reply).toEqual({ ok: true, url: 'blob:test/1', fileName: 'mapsweep_cafe_2026-12-01.csv', places: 12_000 });
    expect(progress).toEqual([0, 5000, 10_000, 12_000]);
    let expected = '';
    const sorted = [...all].sort((a, b) => (a.key < b.key ? -1 : 1));
    for await (const chunk of csvChunks(inBatches(sorted, 1000))) expected += chunk;
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob!.arrayBuffer());
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text === expected).toBe(true);
    expect(Papa.parse(text.slice(1), { skipEmptyLines: true }).data.length).toBe(12_001);
    store.close();
  });

  it('a failed read is a reply with the reason, not a thrown error', async () => {
    const store = await openStore({ name: 'offscreen-fail' });
    store.iterateListings = async function* () {
      yield [];
      throw new Error('read failed');
    };
    const reply = await buildInOffscreen(
      store,
      { fileWords: [], format: 'xlsx', exportId: 'x', now: 0 },
      () => {},
      () => 'blob:none',
    );
    expect(reply).toEqual({ ok: false, error: { code: 'export_failed', message: 'read failed' } });
    store.close();
  });
});
