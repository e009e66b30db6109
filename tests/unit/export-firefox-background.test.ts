/**
 * Firefox has no offscreen documents; its background is an event page, a document, so a long
 * export is built right there (utils/export/document-export.ts) and still reaches the downloads
 * API after the popup closed. Before, the export failed with "This browser has no offscreen
 * documents."
 */
import { resolveObjectURL } from 'node:buffer';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { createDocumentExports } from '../../utils/export/document-export';
import { backgroundLongExports, EXPORT_STATE_KEY, readExportState } from '../../utils/export/long-export';
import { openStore } from '../../utils/store';
import { storedListing } from '../helpers/listings';
import { rawOpen, rawPut } from './store-fixtures';

function firefoxLike() {
  const session = new Map<string, unknown>();
  const downloaded: { url: string; filename: string; text: Promise<string> }[] = [];
  type Change = { id: number; state?: { current?: string } };
  const listeners = new Set<(d: Change) => void>();
  return {
    session,
    downloaded,
    browser: {
      runtime: { id: 'mapsweep@mapsweep.app', getURL: (p: string) => `moz-extension://x${p}` },
      storage: {
        session: {
          get: async (k: string) => ({ [k]: session.get(k) }),
          set: async (items: Record<string, unknown>) => {
            for (const [k, v] of Object.entries(items)) session.set(k, v);
          },
        },
      },
      // No `offscreen` here, as in Firefox.
      downloads: {
        async download(o: { url: string; filename: string }) {
          // The blob: URL must still be alive when the downloads API reads it.
          const blob = resolveObjectURL(o.url);
          downloaded.push({
            ...o,
            text: blob ? blob.arrayBuffer().then((b) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b)) : Promise.resolve('(revoked)'),
          });
          setTimeout(() => {
            for (const f of listeners) f({ id: 7, state: { current: 'complete' } });
          }, 5);
          return 7;
        },
        onChanged: { addListener: (f: (d: Change) => void) => void listeners.add(f), removeListener: (f: (d: Change) => void) => void listeners.delete(f) },
      },
    },
  };
}

describe('a long export where the background is a document (Firefox)', () => {
  it('is built in the background itself, with progress, and the downloads API gets the whole file', async () => {
    (await openStore({ name: 'firefox-export' })).close();
    const db = await rawOpen(indexedDB, 'firefox-export');
    await rawPut(
      db,
      'listings',
      Array.from({ length: 12_000 }, (_, i) => storedListing(i, { collections: ['s1'] })),
    );
    db.close();
    const f = firefoxLike();
    const progress: number[] = [];
    const exports = backgroundLongExports(f.browser, (report) =>
      createDocumentExports({
        openStore: () => openStore({ name: 'firefox-export' }),
        progress: (p) => {
          progress.push(p.done);
          report(p);
        },
      }),
    );
    expect(await exports.start({ collection: 's1', fileWords: ['cafe'], format: 'csv' })).toMatchObject({ ok: true });
    const until = Date.now() + 20_000;
    let state = readExportState(f.session.get(EXPORT_STATE_KEY));
    while (state?.phase !== 'done' && state?.phase !== 'failed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
      state = readExportState(f.session.get(EXPORT_STATE_KEY));
    }
    expect(state).toMatchObject({ phase: 'done', done: 12_000, total: 12_000, error: null });
    expect(progress).toEqual([0, 5000, 10_000, 12_000]);
    expect(f.downloaded).toHaveLength(1);
    const text = await f.downloaded[0]!.text;
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(Papa.parse(text.slice(1), { skipEmptyLines: true }).data).toHaveLength(12_001);
    // Freed once downloaded.
    expect(resolveObjectURL(f.downloaded[0]!.url)).toBeUndefined();
  });

  it('keeps the event page at work while it builds (an API call every few seconds), and stops when the file is handed over', async () => {
    (await openStore({ name: 'firefox-keepalive' })).close();
    const f = firefoxLike();
    let pings = 0;
    const runtime = f.browser.runtime as typeof f.browser.runtime & { getPlatformInfo(): Promise<unknown> };
    runtime.getPlatformInfo = async () => void pings++;
    let finishBuild: () => void = () => {};
    const exports = backgroundLongExports(
      f.browser,
      () => ({
        build: () =>
          new Promise((resolve) => {
            finishBuild = () => resolve({ ok: true, url: 'blob:x', fileName: 'mapsweep_cafe.csv', places: 1 });
          }),
        revoke: async () => {},
      }),
      5,
    );
    await exports.start({ fileWords: ['cafe'], format: 'csv' });
    await new Promise((r) => setTimeout(r, 60));
    const during = pings;
    expect(during).toBeGreaterThanOrEqual(5);
    finishBuild();
    await new Promise((r) => setTimeout(r, 60));
    expect(pings - during).toBeLessThanOrEqual(1);
  });
});
