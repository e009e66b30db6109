// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { MatchPattern } from 'wxt/utils/match-patterns';
import type { WxtBrowser } from 'wxt/browser';
import config from '../../wxt.config';
import googleContent from '../../entrypoints/google-maps.content';
import googleHook from '../../entrypoints/google-maps-hook.content';
import { findMapTab } from '../../utils/browser/tabs';
import { GOOGLE_DOMAINS, GOOGLE_MAPS_PATTERNS, isGoogleHost, isGoogleMapsUrl } from '../../utils/providers/google/hosts';
import { isTbmUrl } from '../../utils/providers/google/network-hook';
import { detectPageKind } from '../../utils/providers/google/page-kind';
import { googleProvider } from '../../utils/providers/google/provider';
import { blockedPageKind } from '../../utils/providers/google/urls';
import { PROVIDERS, providerOfUrl } from '../../utils/providers/registry';
import { openStore } from '../../utils/store';
import { makeListing } from './store-fixtures';

// Google Maps on its country domains (issue 22): people's own map tabs are on
// www.google.co.kr/maps, www.google.de/maps, …; collecting while browsing and starting a sweep
// from such a tab work there, and the manifest asks for those hosts' map pages only.

const SEOUL_TAB = 'https://www.google.co.kr/maps/search/%EC%B9%B4%ED%8E%98/@37.5665,126.978,15z?hl=ko';
const COUNTRY_MAPS = [
  SEOUL_TAB,
  'https://www.google.de/maps/place/Caf%C3%A9/@52.52,13.405,17z/data=!3m1!4b1',
  'https://www.google.com.au/maps/@-33.8688,151.2093,14z',
  'https://www.google.co.jp/maps/search/cafe/',
  'https://www.google.fr/maps',
];
const NOT_MAPS = [
  'https://www.google.co.kr/search?q=cafe', // web search on a maps host
  'https://mail.google.com/maps/', // another Google host
  'https://www.google.co.kr.evil.example/maps/',
  'https://www.google.evil/maps/',
  'https://www.notgoogle.com/maps/',
  'http://www.google.de/maps/', // the content scripts run on https only
  'not a url',
];

/** The patterns the built manifest lists for Google's hosts. */
const manifest = (config.manifest as (env: { browser: string }) => { host_permissions: string[] })({ browser: 'chrome' });
const googlePermissions = manifest.host_permissions.filter((p) => /google/.test(p));
/** The content scripts' `matches` (a plain list for Chrome). */
const contentMatches = googleContent.matches as string[];
const hookMatches = googleHook.matches as string[];

describe('Google Maps on its country domains: the URL tests', () => {
  it.each(COUNTRY_MAPS)('%s is a Google Maps tab', (url) => {
    expect(googleProvider.ownsUrl(url)).toBe(true);
    // What the background asks of a browsing tab's frame before it saves what it saw.
    expect(providerOfUrl(url)?.id).toBe('google');
  });

  it.each(NOT_MAPS)('%s is not', (url) => {
    expect(googleProvider.ownsUrl(url)).toBe(false);
    expect(providerOfUrl(url)).toBeNull();
  });

  it('the block pages of every Google host, and of no look-alike', () => {
    expect(blockedPageKind('https://www.google.co.kr/sorry/index?continue=https://www.google.co.kr/maps&q=EgR')).toBe('captcha');
    expect(blockedPageKind('https://ipv4.google.com/sorry/index?continue=https://www.google.com/maps')).toBe('captcha');
    expect(blockedPageKind('https://www.google.com/sorry/index')).toBe('captcha');
    expect(blockedPageKind('https://consent.google.de/m?continue=https://www.google.de/maps')).toBe('consent');
    expect(blockedPageKind('https://consent.google.com/m?continue=https://www.google.com/maps')).toBe('consent');
    expect(blockedPageKind('https://notgoogle.com/sorry/index')).toBeNull();
    expect(blockedPageKind('https://www.google.com.evil.example/sorry/index')).toBeNull();
    expect(blockedPageKind('https://consent.google.evil.example/m')).toBeNull();
    expect(blockedPageKind('https://www.google.co.kr/maps/search/cafe')).toBeNull();
    const blank = new DOMParser().parseFromString('<p>x</p>', 'text/html');
    expect(detectPageKind(blank, 'https://www.google.co.kr/sorry/index?continue=x')).toBe('captcha');
    expect(detectPageKind(blank, 'https://www.google.co.kr.evil.example/sorry/index')).not.toBe('captcha');
  });

  it("the page's own search requests are read on a country domain's page, and on no other host", () => {
    expect(isTbmUrl('/search?tbm=map&q=cafe', 'https://www.google.co.kr/maps/search/cafe')).toBe(true);
    expect(isTbmUrl('https://www.google.de/search?tbm=map&q=cafe')).toBe(true);
    expect(isTbmUrl('https://evil.example/search?tbm=map&q=cafe', 'https://www.google.com/maps')).toBe(false);
    expect(isTbmUrl('/search?tbm=map', 'https://www.google.co.kr.evil.example/maps')).toBe(false);
  });

  it('hosts: subdomains of every Google domain, never a look-alike', () => {
    expect(isGoogleHost('www.google.co.kr')).toBe(true);
    expect(isGoogleHost('WWW.GOOGLE.DE')).toBe(true);
    expect(isGoogleHost('google.com')).toBe(true);
    expect(isGoogleHost('evilgoogle.com')).toBe(false);
    expect(isGoogleHost('google.co.kr.evil.example')).toBe(false);
    expect(isGoogleHost('google.example')).toBe(false);
  });
});

describe('the manifest: every Google domain, its map pages only', () => {
  it('lists the map pages of every Google domain (www.google.com, co.kr, de, com.au, …), once each', () => {
    expect(GOOGLE_DOMAINS.length).toBeGreaterThanOrEqual(190);
    for (const p of [
      'https://www.google.com/maps/*',
      'https://www.google.co.kr/maps/*',
      'https://www.google.de/maps/*',
      'https://www.google.com.au/maps/*',
      'https://www.google.co.uk/maps/*',
    ]) {
      expect(manifest.host_permissions).toContain(p);
      expect(contentMatches).toContain(p);
      expect(hookMatches).toContain(p);
    }
    expect(new Set(googlePermissions).size).toBe(GOOGLE_DOMAINS.length);
  });

  it("asks for nothing of Google's hosts outside /maps/ (no web search, mail, accounts), and no wildcard host", () => {
    for (const patterns of [googlePermissions, contentMatches, hookMatches]) {
      // The content scripts also run on `/maps?…` itself (a place opened by its CID): nothing else.
      const path = patterns === googlePermissions ? '\\/maps\\/\\*' : '\\/maps[/?]\\*';
      for (const p of patterns) expect(p).toMatch(new RegExp(`^https:\\/\\/www\\.google\\.[a-z]+(\\.[a-z]+)?${path}$`));
      const granted = patterns.map((p) => new MatchPattern(p));
      for (const url of [
        'https://www.google.co.kr/search?q=cafe',
        'https://www.google.de/',
        'https://accounts.google.com/maps/x',
        'https://www.google.com/mapsfoo',
      ]) {
        expect(granted.some((g) => g.includes(url))).toBe(false);
      }
    }
    // The other sites' permissions are what they were.
    expect(manifest.host_permissions.filter((p) => !/google/.test(p))).toEqual([
      'https://map.naver.com/*',
      'https://pcmap.place.naver.com/*',
      'https://map.kakao.com/*',
      'https://search.map.kakao.com/*',
      'https://place.map.kakao.com/*',
    ]);
  });

  it('the URL tests and the manifest agree: a page the content script runs on is a Google Maps tab, and back', () => {
    const granted = GOOGLE_MAPS_PATTERNS.map((p) => new MatchPattern(p));
    const injected = (url: string) => granted.some((g) => g.includes(url));
    for (const url of [...COUNTRY_MAPS.filter((u) => !u.endsWith('/maps')), ...NOT_MAPS.filter((u) => u !== 'not a url')]) {
      expect(injected(url)).toBe(isGoogleMapsUrl(url));
    }
    expect(googleProvider.tabPatterns).toEqual(manifest.host_permissions.filter((p) => /google/.test(p)));
    // A place opened by its CID loads at /maps?cid=, which the site may rewrite in place: the content script is there from the load.
    // (Chrome matches a pattern's path against the path and query; @webext-core's MatchPattern reads the path only.)
    for (const [url, pattern] of [
      ['https://www.google.com/maps?cid=123', 'https://www.google.com/maps?*'],
      ['https://www.google.co.kr/maps?cid=5&hl=ko', 'https://www.google.co.kr/maps?*'],
    ] as const) {
      expect(contentMatches).toContain(pattern);
      expect(hookMatches).toContain(pattern);
      expect(isGoogleMapsUrl(url), url).toBe(true);
    }
  });
});

describe('a country-domain tab, end to end in the background', () => {
  it('collect while browsing: what a www.google.co.kr/maps tab saw is saved', async () => {
    vi.resetModules();
    const { createBackground } = await import('../../utils/app/background');
    await fakeBrowser.storage.session.set({ 'session-alive': true });
    createBackground(fakeBrowser);
    const listing = makeListing('820001');
    const sender = { id: fakeBrowser.runtime.id, url: SEOUL_TAB, tab: { id: 41, url: SEOUL_TAB } } as unknown as Parameters<
      typeof fakeBrowser.runtime.onMessage.trigger
    >[1];
    // The listeners' own answers (promises) are awaited too, not left floating.
    await Promise.all(
      await fakeBrowser.runtime.onMessage.trigger({ id: 1, type: 'browsingListings', data: [listing], timestamp: Date.now() }, sender, () => {}),
    );
    const store = await openStore();
    await vi.waitFor(async () => expect((await store.getListing(listing.key))?.name).toBe(listing.name), { timeout: 3000 });
    store.close();
  });

  it('a sweep started from it: the tab is found as the map tab, its site is Google and its view is the origin', async () => {
    const tab = { id: 5, url: SEOUL_TAB, width: 1400, height: 900, lastAccessed: 2 };
    // tabs.query as Chrome answers it: the tabs whose URL one of the patterns matches.
    const browser = {
      tabs: { query: async (q: { url: string[] }) => [tab].filter((t) => q.url.some((p) => new MatchPattern(p).includes(t.url))) },
    } as unknown as WxtBrowser;
    const found = await findMapTab(
      browser,
      PROVIDERS.flatMap((p) => p.tabPatterns),
    );
    expect(found?.id).toBe(5);
    expect(providerOfUrl(found!.url)?.id).toBe('google');
    expect(googleProvider.parseView(found!.url)).toEqual({ lat: 37.5665, lng: 126.978, zoom: 15 });
    // The sweep itself searches www.google.com: one host, one pacing lane.
    expect(new URL(googleProvider.searchUrl('cafe', { lat: 37.5665, lng: 126.978, zoom: 15 })).hostname).toBe('www.google.com');
  });
});
