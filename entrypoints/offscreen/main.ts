// The offscreen document of long exports (utils/export/long-export.ts): started and closed by the service worker.
import { browser } from 'wxt/browser';
import { buildInOffscreen } from '../../utils/export/long-export';
import { onExportMessage, sendExportMessage } from '../../utils/messaging/protocol';
import { openStore } from '../../utils/store';

const fromExtension = (sender: { id?: string }) => sender.id === browser.runtime.id;

onExportMessage('offscreenBuildExport', async ({ data, sender }) => {
  if (!fromExtension(sender)) throw new Error('Not from MapSweep.');
  const store = await openStore();
  try {
    return await buildInOffscreen(
      store,
      data,
      (done, total) => void sendExportMessage('offscreenExportProgress', { exportId: data.exportId, done, total }).catch(() => {}),
      (blob) => URL.createObjectURL(blob),
    );
  } finally {
    store.close();
  }
});

onExportMessage('offscreenRevoke', ({ data, sender }) => {
  if (fromExtension(sender)) URL.revokeObjectURL(data);
});
