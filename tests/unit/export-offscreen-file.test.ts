/**
 * Long exports are written into a file as they are made (the offscreen document's origin
 * private file system), so memory does not grow with the collection: the file must get exactly
 * the bytes the in-memory path gives, be closed before its URL is handed out, carry the
 * format's type, and a file system that fails mid-way must cost the file, not the export.
 */
import { describe, expect, it } from 'vitest';
import { buildInOffscreen, type ExportFile } from '../../utils/export/long-export';
import { openStore } from '../../utils/store';
import { variedListings } from '../../scripts/bench/export-listings';
import { rawOpen, rawPut } from './store-fixtures';

function fakeFile(failAfterWrites = Infinity) {
  const parts: BlobPart[] = [];
  const log: string[] = [];
  const file: ExportFile = {
    async write(part) {
      if (parts.length >= failAfterWrites) throw new Error('QuotaExceededError');
      parts.push(part);
    },
    async close() {
      log.push('close');
      return new Blob(parts);
    },
    async discard() {
      log.push('discard');
    },
  };
  return { file, parts, log };
}

async function seeded(name: string, places: number) {
  const store = await openStore({ name });
  const db = await rawOpen(indexedDB, name);
  await rawPut(db, 'listings', variedListings(places, 0, 'f1'));
  db.close();
  return store;
}

const req = { collection: 'f1', fileWords: ['cafe'], format: 'csv' as const, exportId: 'x', now: Date.UTC(2026, 11, 1) };
/**
 * Batches of 100 instead of the shipped 1,000: the same paths (several batches, a failure after
 * the second write) with a tenth of the places, so the test's cost is its logic, not fake
 * IndexedDB writing thousands of records on a busy machine (it went over 5 s there, issue 22).
 */
const BATCH = 100;

describe('long exports written into a file', () => {
  it('the file gets the same bytes as the in-memory export, batch by batch, closed before the URL is made', async () => {
    const store = await seeded('offscreen-file', 350);
    let inMemory: Blob | null = null;
    const a = await buildInOffscreen(
      store,
      req,
      () => {},
      (b) => {
        inMemory = b;
        return 'blob:mem';
      },
      undefined,
      BATCH,
    );
    const f = fakeFile();
    let fromFile: Blob | null = null;
    const b = await buildInOffscreen(
      store,
      req,
      () => {},
      (blob) => {
        f.log.push('url');
        fromFile = blob;
        return 'blob:file';
      },
      async () => f.file,
      BATCH,
    );
    expect(a).toEqual({ ok: true, url: 'blob:mem', fileName: 'mapsweep_cafe_2026-12-01.csv', places: 350 });
    expect(b).toEqual({ ok: true, url: 'blob:file', fileName: 'mapsweep_cafe_2026-12-01.csv', places: 350 });
    // The header, then one part per batch: never the whole file in one piece.
    expect(f.parts.length).toBe(5);
    expect(f.log).toEqual(['close', 'url']);
    expect(fromFile!.type).toBe('text/csv;charset=utf-8');
    expect(new Uint8Array(await fromFile!.arrayBuffer())).toEqual(new Uint8Array(await inMemory!.arrayBuffer()));
    store.close();
  });

  it('a file that fails mid-way is discarded and the export finishes in memory', async () => {
    const store = await seeded('offscreen-file-fail', 250);
    const f = fakeFile(2);
    let blob: Blob | null = null;
    const reply = await buildInOffscreen(
      store,
      req,
      () => {},
      (b) => {
        blob = b;
        return 'blob:mem';
      },
      async () => f.file,
      BATCH,
    );
    expect(reply).toMatchObject({ ok: true, places: 250 });
    expect(f.log).toEqual(['discard']);
    let expected: Blob | null = null;
    await buildInOffscreen(
      store,
      req,
      () => {},
      (b) => {
        expected = b;
        return 'blob:x';
      },
      undefined,
      BATCH,
    );
    expect(new Uint8Array(await blob!.arrayBuffer())).toEqual(new Uint8Array(await expected!.arrayBuffer()));
    store.close();
  });

  it('no file system (openFile gives null or throws): the export is built in memory', async () => {
    const store = await seeded('offscreen-file-none', 120);
    for (const openFile of [async () => null, async () => Promise.reject(new Error('SecurityError'))]) {
      const reply = await buildInOffscreen(
        store,
        req,
        () => {},
        () => 'blob:mem',
        openFile,
        BATCH,
      );
      expect(reply).toMatchObject({ ok: true, url: 'blob:mem', places: 120 });
    }
    store.close();
  });
});
