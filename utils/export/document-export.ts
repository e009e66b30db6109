import type { Store } from '../store';
import type { LongExportRequest, Reply } from '../messaging/protocol';
import { buildInOffscreen, type ExportFile } from './long-export';

/**
 * The side of a long export that needs a document (URL.createObjectURL, the origin private file
 * system): Chrome's offscreen document (entrypoints/offscreen/main.ts), or Firefox's background,
 * which is an event page and so a document itself (utils/export/long-export.ts wireLongExports).
 * One export runs at a time.
 */

/** Export files in the origin private file system are named so. */
const FILE_PREFIX = 'export-';

export type BuildRequest = LongExportRequest & { exportId: string; now: number };

export interface DocumentExports {
  build(req: BuildRequest): Promise<Reply<{ url: string; fileName: string; places: number }>>;
  /** Revoke a blob: URL handed out, and delete its file. */
  revoke(url: string): Promise<void>;
}

/**
 * A file in the origin private file system, written batch by batch: the file is on disk, so
 * neither this document nor the browser's Blob storage holds the whole export. Null where the
 * browser has no such file system; then the export is built in memory.
 */
async function openExportFile(exportId: string): Promise<ExportFile | null> {
  if (typeof navigator === 'undefined' || !navigator.storage?.getDirectory) return null;
  const root = await navigator.storage.getDirectory();
  // A file left by an export whose document was killed before it could clean up.
  for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) {
    if (name.startsWith(FILE_PREFIX)) await root.removeEntry(name).catch(() => {});
  }
  const name = `${FILE_PREFIX}${exportId}`;
  const handle = await root.getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  return {
    write: (part) => writable.write(part as FileSystemWriteChunkType),
    async close() {
      await writable.close();
      return handle.getFile();
    },
    async discard() {
      await writable.abort().catch(() => {});
      await root.removeEntry(name).catch(() => {});
    },
  };
}

export function createDocumentExports(deps: {
  openStore(): Promise<Store>;
  progress(p: { exportId: string; done: number; total: number }): void;
}): DocumentExports {
  /** The file of each blob: URL handed out, deleted when the URL is revoked. */
  const files = new Map<string, string>();
  return {
    async build(req) {
      const store = await deps.openStore();
      let fileName: string | null = null;
      try {
        return await buildInOffscreen(
          store,
          req,
          (done, total) => deps.progress({ exportId: req.exportId, done, total }),
          (blob) => {
            const url = URL.createObjectURL(blob);
            if (fileName) files.set(url, fileName);
            return url;
          },
          async () => {
            const file = await openExportFile(req.exportId);
            if (file) fileName = `${FILE_PREFIX}${req.exportId}`;
            return file;
          },
        );
      } finally {
        store.close();
      }
    },
    async revoke(url) {
      URL.revokeObjectURL(url);
      const name = files.get(url);
      files.delete(url);
      if (name) await (await navigator.storage.getDirectory()).removeEntry(name).catch(() => {});
    },
  };
}
