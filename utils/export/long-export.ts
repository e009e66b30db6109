import { guarded, type SenderEnv } from '../messaging/senders';
import type { Store } from '../store';
import { onExportMessage, sendExportMessage, type LongExportRequest, type Reply } from '../messaging/protocol';
import { ALL_PLACES_WORDS, EXPORT_BATCH, writeExport, type ExportSink } from './build';
import { normaliseFilter } from '../config/settings';
import type { DocumentExports } from './document-export';
import { KEEP_ALIVE_MS, keptAlive } from '../browser/keep-alive';

/**
 * Long exports run where they can finish: not in the popup, which the browser closes the
 * moment it loses focus, but in an offscreen document started by the service worker (a worker
 * has no URL.createObjectURL, and a data: URL of a 100,000-place file is over the browser's
 * URL limit); in Firefox, which has no offscreen documents, in its background event page. The offscreen document reads the store batch by batch (utils/export/build.ts),
 * writes each batch's text into a file of its origin private file system (so neither the page
 * nor the browser holds the whole file in memory) and hands back a blob: URL of that file;
 * the worker gives it to the downloads API, then has the document revoke it and delete the file. Progress lives in storage.session, so a popup opened again shows where it is.
 */

export { LONG_EXPORT_PLACES } from './limits';

export const EXPORT_STATE_KEY = 'long-export';

export type LongExportPhase = 'reading' | 'downloading' | 'done' | 'failed';

export interface LongExportState {
  id: string;
  format: LongExportRequest['format'];
  phase: LongExportPhase;
  done: number;
  total: number;
  fileName: string | null;
  error: string | null;
  startedAt: number;
  updatedAt: number;
}

/** An export that has not moved for this long is taken as dead (its worker or document was killed). */
export const STALE_EXPORT_MS = 120_000;

export function readExportState(v: unknown): LongExportState | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as Partial<LongExportState>;
  if (typeof s.id !== 'string' || typeof s.phase !== 'string' || typeof s.done !== 'number' || typeof s.total !== 'number') return null;
  return s as LongExportState;
}

export function isActive(s: LongExportState | null, now: number): boolean {
  return !!s && (s.phase === 'reading' || s.phase === 'downloading') && now - s.updatedAt < STALE_EXPORT_MS;
}

interface SessionArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export interface LongExportDeps {
  session: SessionArea;
  /** Open the offscreen document if it is not open. */
  ensureOffscreen(): Promise<void>;
  closeOffscreen(): Promise<void>;
  build(req: LongExportRequest & { exportId: string; now: number }): Promise<Reply<{ url: string; fileName: string; places: number }>>;
  revoke(url: string): Promise<void>;
  /** Start the download; resolves when the browser has the whole file (or gave up). */
  download(url: string, fileName: string): Promise<{ ok: boolean; error?: string }>;
  now(): number;
  newId(): string;
}

/** The service worker's side: start an export, record its progress, hand the file to the downloads API. */
export function createLongExports(deps: LongExportDeps) {
  let current: LongExportState | null = null;
  async function save(patch: Partial<LongExportState>) {
    if (!current) return;
    current = { ...current, ...patch, updatedAt: deps.now() };
    await deps.session.set({ [EXPORT_STATE_KEY]: current });
  }

  async function run(req: LongExportRequest, id: string) {
    let url: string | null = null;
    try {
      await deps.ensureOffscreen();
      const reply = await deps.build({ ...req, exportId: id, now: deps.now() });
      if (!reply.ok) throw new Error(reply.error.message);
      url = reply.url;
      await save({ phase: 'downloading', done: reply.places, total: Math.max(current?.total ?? 0, reply.places), fileName: reply.fileName });
      const result = await deps.download(reply.url, reply.fileName);
      if (!result.ok) throw new Error(result.error ?? 'The download was interrupted.');
      await save({ phase: 'done' });
    } catch (e) {
      await save({ phase: 'failed', error: e instanceof Error ? e.message : String(e) });
    } finally {
      if (url) await deps.revoke(url).catch(() => {});
      await deps.closeOffscreen().catch(() => {});
    }
  }

  return {
    async start(req: LongExportRequest): Promise<Reply<{ exportId: string }>> {
      const stored = readExportState((await deps.session.get(EXPORT_STATE_KEY))[EXPORT_STATE_KEY]);
      if (isActive(current, deps.now()) || isActive(stored, deps.now())) {
        return { ok: false, error: { code: 'export_busy', message: 'An export is already running; wait for it to finish.' } };
      }
      const id = deps.newId();
      const at = deps.now();
      current = { id, format: req.format, phase: 'reading', done: 0, total: 0, fileName: null, error: null, startedAt: at, updatedAt: at };
      await deps.session.set({ [EXPORT_STATE_KEY]: current });
      void run(req, id);
      return { ok: true, exportId: id };
    },
    async progress(p: { exportId: string; done: number; total: number }): Promise<void> {
      if (current?.id !== p.exportId || current.phase !== 'reading') return;
      await save({ done: p.done, total: p.total });
    },
  };
}

/**
 * A file the export is written into as it is made (the offscreen document's is in the origin
 * private file system): the page then holds one batch at a time and the browser no Blob of the
 * whole file, so memory does not grow with the collection. `close` ends the writing and gives
 * the file (on disk) to hand to the downloads API; `discard` removes it.
 */
export interface ExportFile {
  write: ExportSink;
  close(): Promise<Blob>;
  discard(): Promise<void>;
}

/**
 * The offscreen document's side: build the file from the store, return a blob: URL for it.
 * Written into `openFile`'s file when there is one; without (no origin private file system, or
 * it refused), as Blob parts in memory, as before.
 */
export async function buildInOffscreen(
  store: Store,
  req: LongExportRequest & { exportId: string; now: number },
  progress: (done: number, total: number) => void,
  createUrl: (blob: Blob) => string,
  openFile?: () => Promise<ExportFile | null>,
  /** Listings per store read (utils/export/build.ts EXPORT_BATCH). */
  batchSize = EXPORT_BATCH,
): Promise<Reply<{ url: string; fileName: string; places: number }>> {
  let file: ExportFile | null = null;
  try {
    const given = req.filter;
    const scope = {
      collection: req.collection,
      fileWords: req.fileWords.length ? req.fileWords : ALL_PLACES_WORDS,
      ...(given === undefined ? {} : { filter: normaliseFilter(given) }),
    };
    let last = 0;
    const onProgress = (done: number, total: number) => {
      // One message per 5,000 places (and the last): progress, not a message per batch.
      if (done === total || done - last >= 5000 || done === 0) {
        last = done;
        progress(done, total);
      }
    };
    file = openFile ? await openFile().catch(() => null) : null;
    const parts: BlobPart[] = [];
    const sink: ExportSink = file ? file.write : async (part) => void parts.push(typeof part === 'string' ? new Blob([part]) : part);
    const built = await writeExport(store, scope, req.format, new Date(req.now), sink, onProgress, batchSize);
    const blob = file ? await file.close() : new Blob(parts, { type: built.type });
    // A file from disk has no type of its own: the download's type is the format's.
    const url = createUrl(file ? blob.slice(0, blob.size, built.type) : blob);
    return { ok: true, url, fileName: built.fileName, places: built.places };
  } catch (e) {
    if (file) {
      // The file system failed us (quota, a write refused): the export still finishes, in memory.
      await file.discard().catch(() => {});
      return buildInOffscreen(store, req, progress, createUrl, undefined, batchSize);
    }
    return { ok: false, error: { code: 'export_failed', message: e instanceof Error ? e.message : String(e) } };
  }
}

type WiringBrowser = {
  runtime: { id: string; getURL(path: string): string; getPlatformInfo?(): Promise<unknown> };
  storage: { session: SessionArea };
  offscreen?: {
    createDocument(p: { url: string; reasons: string[]; justification: string }): Promise<void>;
    closeDocument(): Promise<void>;
  };
  downloads?: {
    download(o: { url: string; filename: string; conflictAction?: 'uniquify'; saveAs?: boolean }): Promise<number>;
    onChanged: {
      addListener(f: (d: { id: number; state?: { current?: string }; error?: { current?: string } }) => void): void;
      removeListener(f: (d: { id: number; state?: { current?: string }; error?: { current?: string } }) => void): void;
    };
  };
};

export const OFFSCREEN_PATH = '/offscreen.html';

/**
 * The background's wiring (utils/app/background.ts calls it once, synchronously): the popup's
 * `startLongExport` from MapSweep pages only, and the builder's progress. In Chrome the file is
 * built in the offscreen document; where the browser has none and the background is itself a
 * document (Firefox's event page), `inThisDocument` builds it right here
 * (utils/export/document-export.ts), with no message in between.
 */
export function wireLongExports(
  browser: WiringBrowser,
  senders: SenderEnv,
  inThisDocument?: (progress: (p: { exportId: string; done: number; total: number }) => void) => DocumentExports,
): void {
  const exports = backgroundLongExports(browser, inThisDocument);
  onExportMessage(
    'startLongExport',
    guarded('startLongExport', senders, async (m) => {
      return exports.start(m.data);
    }),
  );
  onExportMessage(
    'offscreenExportProgress',
    guarded('offscreenExportProgress', senders, async (m) => {
      await exports.progress(m.data);
    }),
  );
}

/** The background's long exports, on this browser's APIs: the offscreen document's, or this document's builder. */
export function backgroundLongExports(
  browser: WiringBrowser,
  inThisDocument?: (progress: (p: { exportId: string; done: number; total: number }) => void) => DocumentExports,
  keepAliveMs = KEEP_ALIVE_MS,
): ReturnType<typeof createLongExports> {
  const here = inThisDocument?.((p) => void exports.progress(p));
  const ping = browser.runtime.getPlatformInfo?.bind(browser.runtime);
  const exports = createLongExports({
    session: browser.storage.session,
    async ensureOffscreen() {
      if (here) return;
      if (!browser.offscreen) throw new Error('This browser has no offscreen documents.');
      await browser.offscreen
        .createDocument({
          url: browser.runtime.getURL(OFFSCREEN_PATH),
          reasons: ['BLOBS'],
          justification: 'Builds a long export file as a Blob, so it finishes after the popup closes.',
        })
        .catch((e: unknown) => {
          // Only one offscreen document per extension: one already open is the one we want.
          if (!/single offscreen|only a single/i.test(String(e instanceof Error ? e.message : e))) throw e;
        });
    },
    closeOffscreen: async () => void (here ? undefined : await browser.offscreen?.closeDocument()),
    // Reading the store and writing the file make no API call: kept alive while it builds (utils/browser/keep-alive.ts).
    build: (req) => (here ? keptAlive(ping, () => here.build(req), keepAliveMs) : sendExportMessage('offscreenBuildExport', req)),
    revoke: (url) => (here ? here.revoke(url) : sendExportMessage('offscreenRevoke', url)),
    download: (url, fileName) =>
      new Promise((resolve) => {
        const downloads = browser.downloads;
        if (!downloads) return resolve({ ok: false, error: 'This browser has no downloads API.' });
        let id: number | null = null;
        const early: Parameters<Parameters<typeof downloads.onChanged.addListener>[0]>[0][] = [];
        const listener = (d: Parameters<Parameters<typeof downloads.onChanged.addListener>[0]>[0]) => {
          if (id === null) return void early.push(d);
          if (d.id !== id) return;
          const state = d.state?.current;
          if (state === 'complete' || state === 'interrupted') {
            downloads.onChanged.removeListener(listener);
            resolve(state === 'complete' ? { ok: true } : { ok: false, error: d.error?.current ?? 'The download was interrupted.' });
          }
        };
        downloads.onChanged.addListener(listener);
        downloads.download({ url, filename: fileName, conflictAction: 'uniquify', saveAs: false }).then(
          (started) => {
            id = started;
            for (const d of early.splice(0)) listener(d);
          },
          (e: unknown) => {
            downloads.onChanged.removeListener(listener);
            resolve({ ok: false, error: e instanceof Error ? e.message : String(e) });
          },
        );
      }),
    now: Date.now,
    newId: () => `x${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
  });
  return exports;
}
