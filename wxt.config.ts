import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { GOOGLE_MAPS_PATTERNS } from './utils/providers/google/hosts';

/** Chrome's fixed public key, so the extension id (tests/browser/extension-id.ts) does not depend on the folder. */
const CHROME_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEArhhNEv8gEr0cUUQzyInAEbIglLdq1hiGg6DptuBZanSh4VWjK2s1YF0fO21jNOD8T0ydIRBoxmWlsWNC6HF5NTyfQeF29y9MD4WNDkUmICfL+nxOAbt2MQ3PtLAT9sYf41tYztDWXkzDBEZQ7pkcy9tzc/SKdF3qlUjHDbf4TmrejOECtOWtfDvvrbwJjWVh1/VsvyblBcApBkft77Z64yaLBpFTA9PSog7EZtGt9AucFAe7q5k32HCJiHszOqUnJPkV/PRWu2NvCODx2/5SINpmgUqE3Ly2hl/flAR+xyK5CGTQ0YMB7yO9MWnYSWkFVJ73kbpQRLLfhfPcFPF3zwIDAQAB';

/**
 * Firefox's own settings: the add-on id (AMO and the tests' profile name it: it also fixes the
 * extension's storage across installs), the lowest Firefox its tests run on (Debian's
 * firefox-esr, docs/FIREFOX.md), and the data it collects for its developer: none (PRIVACY.md).
 */
export const GECKO_ID = 'mapsweep@mapsweep.app';
const FIREFOX_ONLY = {
  browser_specific_settings: {
    gecko: { id: GECKO_ID, strict_min_version: '153.0', data_collection_permissions: { required: ['none'] } },
  },
};

/**
 * The manifest is the one we ship and the one the browser tests load: there is no
 * test-only permission. The replica map sites are reached by resolving www.google.com,
 * map.naver.com and pcmap.place.naver.com to 127.0.0.1 in the test browser, not by widening
 * host_permissions.
 */
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  // Explicit imports everywhere: a newcomer can follow every name to its file.
  imports: false,
  vite: () => ({ plugins: [preact()] }),
  // AMO's source package (`npm run zip:firefox`): what builds the add-on, not what the tests and
  // demos left behind (docs/STORE.md says how a reviewer rebuilds it).
  zip: { excludeSources: ['test-results/**', 'demo-output/**', 'bench-output/**', 'tmp-scratch/**'] },
  // Firefox gets MV3 too (WXT's default for it is MV2): one manifest version, one set of promises.
  manifestVersion: 3,
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    ...(browser === 'firefox' ? FIREFOX_ONLY : { key: CHROME_KEY }),
    // offscreen: Chrome's way to build a long export after the popup closes (a service worker has
    // no URL.createObjectURL). Firefox has no offscreen documents and needs none: its background
    // is an event page, a document, and builds the file itself (utils/export/long-export.ts).
    permissions: [
      'storage',
      'unlimitedStorage',
      'alarms',
      'tabs',
      'notifications',
      'downloads',
      ...(browser === 'firefox' ? [] : ['offscreen']),
      'webRequest',
      'declarativeNetRequest',
    ],
    // webRequest: to see (never change) a map site's redirect of its own search request to a
    // block page (Kakao's 302 to kakao.com/500.ko.html), on the map hosts below only.
    // declarativeNetRequest: a session rule per list tab blocks its top-level navigation to anything
    // but the map sites' domains (a list's share links may point anywhere: utils/browser/tab-guard.ts).
    // The map hosts only: Google Maps' pages on every Google domain (www.google.com/maps/*,
    // www.google.co.kr/maps/*, …: utils/providers/google/hosts.ts; Chrome's patterns cannot
    // wildcard a top-level domain, and the rest of those hosts is never asked for); Naver Map's
    // outer page and the list and place pages its iframes load (the content script runs in
    // those frames); Kakao Map, its search answers (search.map.kakao.com, the page's own
    // requests, whose rect the sweep reads back) and its place pages.
    host_permissions: [
      ...GOOGLE_MAPS_PATTERNS,
      'https://map.naver.com/*',
      'https://pcmap.place.naver.com/*',
      'https://map.kakao.com/*',
      'https://search.map.kakao.com/*',
      'https://place.map.kakao.com/*',
    ],
    // The contacts pass (utils/contacts/wire.ts CONTACT_ORIGINS): the businesses' own websites,
    // asked for only when the user turns "Contacts from websites" on, withdrawn when turned off.
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: '__MSG_extName__' },
  }),
});
