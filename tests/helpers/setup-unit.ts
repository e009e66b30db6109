// Every unit test file gets a fresh in-memory IndexedDB and a reset fake browser.
import 'fake-indexeddb/auto';
import { beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

beforeEach(() => {
  fakeBrowser.reset();
  // The fake browser is Chrome as installed: the map hosts granted at install (the popup's
  // host-access notice stays hidden). A test of Firefox's withheld hosts sets its own.
  const b = fakeBrowser as unknown as {
    runtime: { getManifest: () => object };
    permissions: { contains: (p: unknown) => Promise<boolean>; onAdded: Listened; onRemoved: Listened };
  };
  b.runtime.getManifest = () => ({
    manifest_version: 3,
    host_permissions: ['https://www.google.com/maps/*', 'https://map.naver.com/*', 'https://map.kakao.com/*'],
  });
  b.permissions.contains = async () => true;
  b.permissions.onAdded = quietEvent();
  b.permissions.onRemoved = quietEvent();
});

type Listened = { addListener(f: () => void): void; removeListener(f: () => void): void };

function quietEvent(): Listened {
  return { addListener: () => {}, removeListener: () => {} };
}
