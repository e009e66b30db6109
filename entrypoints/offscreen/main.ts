// The offscreen document of long exports in Chrome (utils/export/long-export.ts): started and closed by the service worker.
import { guarded } from '../../utils/messaging/senders';
import { browser } from 'wxt/browser';
import { createDocumentExports } from '../../utils/export/document-export';
import { onExportMessage, sendExportMessage } from '../../utils/messaging/protocol';
import { openStore } from '../../utils/store';

/** Only the background asks (utils/messaging/senders.ts). */
const senders = { runtime: browser.runtime };

const exports = createDocumentExports({
  openStore,
  progress: (p) => void sendExportMessage('offscreenExportProgress', p).catch(() => {}),
});

onExportMessage(
  'offscreenBuildExport',
  guarded('offscreenBuildExport', senders, ({ data }) => exports.build(data)),
);

onExportMessage(
  'offscreenRevoke',
  guarded('offscreenRevoke', senders, ({ data }) => exports.revoke(data)),
);
