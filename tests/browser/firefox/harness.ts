/**
 * Debian's Firefox ESR with the production Firefox build installed in its profile, as a user's
 * installed add-on is, driven over WebDriver BiDi by puppeteer-core. The Firefox counterpart of
 * ../harness.ts:
 *
 * - The build is packed into <profile>/extensions/<gecko id>.xpi once, on the first launch
 *   (./xpi.ts); Firefox installs it at start-up (unsigned: ESR honours
 *   xpinstall.signatures.required=false). It stays installed across a SIGKILL and a relaunch on
 *   the same profile, with its IndexedDB and storage, as a person's add-on does.
 * - Its moz-extension UUID is fixed by pref, so the popup is at EXTENSION_ORIGIN/popup.html.
 * - The map hosts reach the replicas through a CONNECT proxy in the test process (./proxy.ts);
 *   the replicas' self-signed certificate is accepted by the BiDi session's acceptInsecureCerts,
 *   which Firefox applies to the whole browser (pages and the extension's own requests alike).
 * - Firefox is our child in its own process group: `kill` is a SIGKILL of the group, a crash.
 *
 * Firefox's BiDi leaves extension pages alone (Bug 1755014): it refuses to navigate a tab to a
 * moz-extension: URL unless started with --remote-allow-system-access, and even then sends no
 * navigation or load events for it. So an extension page is opened by navigating with the raw
 * BiDi command and waiting for the document from inside it (openExtensionPage); scripts,
 * selectors and clicks in it work as in any page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { addonPrefs, behaviourPrefs, downloadPrefs, proxyPrefs, quietPrefs, writeUserJs } from './prefs';
import { packXpi } from './xpi';
import { readStoreInPage, type StoreName } from '../in-page';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
/** The production Firefox build (MAPSWEEP_FIREFOX_BUILD: another folder, e.g. a build kept aside while the tree is rebuilt). */
export const EXTENSION_DIR = process.env.MAPSWEEP_FIREFOX_BUILD ?? path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../.output/firefox-mv3');
/** The manifest's browser_specific_settings.gecko.id (wxt.config.ts GECKO_ID). */
export const ADDON_ID = 'mapsweep@mapsweep.app';
/** Any fixed UUID: Firefox gives the add-on this one instead of a random one (extensions.webextensions.uuids). */
export const EXTENSION_UUID = '6d0c7b2e-3f5a-4c8e-9b1d-2a7f4e6c8d10';
export const EXTENSION_ORIGIN = `moz-extension://${EXTENSION_UUID}`;

export interface RunningFirefox {
  process: ChildProcess;
  browser: Browser;
  profileDir: string;
  downloadDir: string;
  /** The last of what Firefox wrote to stderr (for a failure's message). */
  log(): string;
  /** Each distinct uncaught error Firefox reported from the extension's own scripts (stderr's `JavaScript error: moz-extension://…`). */
  extensionErrors(): string[];
  /** SIGKILL of Firefox and its content processes, as a crash: nothing flushed, no unload handler. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export function newProfileDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'mapsweep-firefox-'));
}

export function removeDir(dir: string): void {
  // A content process may still be writing for a moment after the browser exits.
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.warn(`could not remove ${dir} yet: ${String(e)}`);
  }
}

/**
 * The add-on file in the profile, written on the first launch only: a relaunch must find the
 * add-on the crash left, not a fresh copy (a changed file would be an update).
 */
function installAddon(profileDir: string): void {
  const dir = path.join(profileDir, 'extensions');
  const xpi = path.join(dir, `${ADDON_ID}.xpi`);
  if (existsSync(xpi)) return;
  mkdirSync(dir, { recursive: true });
  packXpi(EXTENSION_DIR, xpi);
}

export async function launchFirefox(opts: {
  profileDir: string;
  proxyPort: number;
  /** Where downloads land (default: <profile>/downloads). */
  downloadDir?: string;
  /** Whether Firefox grants the map hosts when it installs the add-on (./prefs.ts addonPrefs; default: Firefox's own, yes). */
  hostsAtInstall?: boolean;
  headless?: boolean;
}): Promise<RunningFirefox> {
  if (!existsSync(FIREFOX)) {
    throw new Error(`No Firefox at ${FIREFOX}: install Debian's (apt-get install -y firefox-esr; .ci/run does), or set FIREFOX_PATH.`);
  }
  const headless = opts.headless ?? !process.env.DISPLAY;
  const downloadDir = opts.downloadDir ?? path.join(opts.profileDir, 'downloads');
  mkdirSync(downloadDir, { recursive: true });
  installAddon(opts.profileDir);
  writeUserJs(opts.profileDir, {
    ...quietPrefs(),
    ...behaviourPrefs(),
    ...addonPrefs(ADDON_ID, EXTENSION_UUID, opts.hostsAtInstall),
    ...proxyPrefs(opts.proxyPort),
    ...downloadPrefs(downloadDir),
  });
  const args = [
    ...(headless ? ['--headless'] : []),
    '--no-remote',
    '--profile',
    opts.profileDir,
    '--remote-debugging-port=0',
    // Without it BiDi refuses to navigate to moz-extension: (isWebdriverSafeNavigationURL).
    '--remote-allow-system-access',
    '--window-size=1280,900',
    'about:blank',
  ];
  const child = spawn(FIREFOX, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group, so kill() and close() reach the content processes too.
    detached: true,
    // No crash reporter after the SIGKILL; no GTK accessibility bus to wait for. Release and ESR
    // builds ignore services.settings.server (./prefs.ts) unless this is set, and then poll
    // firefox.settings.services.mozilla.com (seen in the proxy's refusals without it).
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1', NO_AT_BRIDGE: '1', MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' },
  });
  let stderr = '';
  const errors = new Set<string>();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // A Firefox that started but could not be driven is ended here: no caller holds it to close.
  const abandon = async (e: unknown): Promise<never> => {
    killGroup(child, 'SIGKILL');
    await exited;
    throw e;
  };
  const wsUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Firefox did not start: ${stderr.slice(-2000)}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-20_000);
      for (const line of d.toString().matchAll(/^JavaScript error: moz-extension:\/\/.*$/gm)) errors.add(line[0]);
      const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Firefox exited with ${code}: ${stderr.slice(-2000)}`));
    });
  }).catch(abandon);
  const browser = await puppeteer
    .connect({
      browserWSEndpoint: `${wsUrl}/session`,
      protocol: 'webDriverBiDi',
      // The replicas' self-signed certificate, for every request of the browser (not only this session's pages).
      acceptInsecureCerts: true,
      defaultViewport: null,
      protocolTimeout: 120_000,
    })
    .catch(abandon);
  return {
    process: child,
    browser,
    profileDir: opts.profileDir,
    downloadDir,
    log: () => stderr,
    extensionErrors: () => [...errors],
    async kill() {
      killGroup(child, 'SIGKILL');
      await exited;
      await browser.disconnect().catch(() => {});
    },
    async close() {
      await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 10_000))]);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      killGroup(child, 'SIGKILL');
      await exited;
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** The BiDi browsing context behind a puppeteer page: the one way to navigate it to an extension page. */
function bidiContext(page: Page): { navigate(url: string, wait?: 'none' | 'interactive' | 'complete'): Promise<void> } {
  const context = (page.mainFrame() as unknown as { browsingContext?: { navigate?: unknown } }).browsingContext;
  if (typeof context?.navigate !== 'function') throw new Error('puppeteer-core no longer exposes the BiDi browsing context of a frame');
  return context as ReturnType<typeof bidiContext>;
}

/**
 * A new tab at one of the extension's pages (`popup.html`, `options.html`, …), its document
 * loaded. puppeteer's goto would wait for navigation events Firefox never sends for extension
 * pages, and page.url() stays about:blank: the document itself says when it is there.
 */
export async function openExtensionPage(browser: Browser, file: string): Promise<Page> {
  const page = await browser.newPage();
  const url = `${EXTENSION_ORIGIN}/${file}`;
  await bidiContext(page).navigate(url, 'complete');
  await waitFor(() => page.evaluate((want) => location.href === want && document.readyState === 'complete', url), `${url} loaded`, 30_000, 50);
  return page;
}

/** The popup, opened as a tab (as a person with the popup pinned would see it). */
export async function openPopup(browser: Browser): Promise<Page> {
  const page = await openExtensionPage(browser, 'popup.html');
  await page.waitForSelector('::-p-aria(Keywords)', { timeout: 30_000 });
  return page;
}

/** Options through the real storage key the options page writes. */
export async function setSettings(page: Page, settings: Record<string, number | boolean>): Promise<void> {
  await page.evaluate(async (s) => {
    const api = (globalThis as unknown as { browser: { storage: { local: { set(v: object): Promise<void> } } } }).browser;
    await api.storage.local.set({ settings: s });
  }, settings);
}

/** Every record of one object store of the extension's IndexedDB, read from an extension page. */
export async function readAll<T>(page: Page, storeName: StoreName): Promise<T[]> {
  return (await page.evaluate(readStoreInPage, storeName)) as T[];
}

export interface SweepRow {
  id: string;
  provider?: string;
  status: string;
  pauseReason: string | null;
  counters: Record<string, number>;
  problem: { kind: string; message: string } | null;
}

export const readSweeps = (page: Page) => readAll<SweepRow>(page, 'sweeps');

export const readListings = (page: Page) =>
  readAll<{ key: string; cid: string | null; name: string; collections: string[]; keywords: string[] }>(page, 'listings');

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 240_000, everyMs = 500): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
