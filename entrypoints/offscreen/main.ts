// The offscreen document of long exports (utils/export/long-export.ts): started and closed by the service worker.
import { guarded } from '../../utils/messaging/senders';
import { browser } from 'wxt/browser';
import { buildInOffscreen, type ExportFile } from '../../utils/export/long-export';
import { onExportMessage, sendExportMessage } from '../../utils/messaging/protocol';
import { openStore } from '../../utils/store';

/** Only the background asks (utils/messaging/senders.ts). */
const senders = { runtime: browser.runtime };

/** Export files in the origin private file system are named so; one export runs at a time. */
const FILE_PREFIX = 'export-';

/** The file of each blob: URL handed out, deleted when the worker revokes the URL. */
const files = new Map<string, string>();

/**
 * A file in the origin private file system, written batch by batch: the file is on disk, so
 * neither this document nor the browser's Blob storage holds the whole export. Null where the
 * browser has no such file system; then the export is built in memory, as before.
 */
async function openExportFile(exportId: string): Promise<ExportFile | null> {
  if (!navigator.storage?.getDirectory) return null;
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

onExportMessage(
  'offscreenBuildExport',
  guarded('offscreenBuildExport', senders, async ({ data }) => {
    const store = await openStore();
    let fileName: string | null = null;
    try {
      return await buildInOffscreen(
        store,
        data,
        (done, total) => void sendExportMessage('offscreenExportProgress', { exportId: data.exportId, done, total }).catch(() => {}),
        (blob) => {
          const url = URL.createObjectURL(blob);
          if (fileName) files.set(url, fileName);
          return url;
        },
        async () => {
          const file = await openExportFile(data.exportId);
          if (file) fileName = `${FILE_PREFIX}${data.exportId}`;
          return file;
        },
      );
    } finally {
      store.close();
    }
  }),
);

onExportMessage(
  'offscreenRevoke',
  guarded('offscreenRevoke', senders, async ({ data }) => {
    URL.revokeObjectURL(data);
    const name = files.get(data);
    files.delete(data);
    if (name) await (await navigator.storage.getDirectory()).removeEntry(name).catch(() => {});
  }),
);
