import type { WxtBrowser as Browser } from 'wxt/browser';
import { onMessage } from '../messaging/protocol';
import { createNetworkCollector, readTbmMessage } from '../providers/google';
import { collectGooglePage, navigationStatus } from './collect-google';

/**
 * Wires the Google Maps content script. Messages from the page's world are accepted only
 * when they come from this very window and have the hook's exact shape; even then they only
 * feed a cross-check, never the store.
 */
export function startGoogleContent(win: Window, browser: Browser): void {
  const network = createNetworkCollector();
  win.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== win || event.origin !== win.location.origin) return;
    const message = readTbmMessage(event.data);
    if (message) network.accept(message.body);
  });

  onMessage('collect', async (message) => {
    // Only the extension's background may ask (a tabs.sendMessage has no tab in its sender).
    if (message.sender.id !== browser.runtime.id || message.sender.tab) throw new Error('Not accepted.');
    return collectGooglePage(
      {
        doc: win.document,
        url: () => win.location.href,
        now: () => Date.now(),
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        random: Math.random,
        network,
        httpStatus: () => navigationStatus(win.performance),
        hidden: () => win.document.visibilityState === 'hidden',
      },
      message.data,
    );
  });
}
