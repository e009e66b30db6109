/**
 * Real Chromium (Debian's /usr/bin/chromium) with the production build loaded, pointed at the
 * replica map site: www.google.com and consent.google.com resolve to the replica's port. The
 * browser is a child process we own, driven over CDP, so a test can SIGKILL it and relaunch it
 * on the same profile, exactly like a user's crash.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { EXTENSION_ID } from './extension-id';
import { readStoreInPage, type StoreName } from './in-page';
import { findChromium, isExecutableFile, locateChromium } from '../../scripts/find-chromium';

export const EXTENSION_DIR = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../.output/chrome-mv3');
/**
 * The Chromium found on this machine now (CHROMIUM_PATH, then chromium, chromium-browser,
 * google-chrome: scripts/find-chromium.ts). When there is none, launchBrowser installs it
 * (root on Debian) or stops with one line naming the command, never a raw spawn ENOENT.
 */
export const CHROMIUM = safeLocateChromium() ?? '/usr/bin/chromium';

function safeLocateChromium(): string | null {
  try {
    return locateChromium();
  } catch {
    return null; // a bad CHROMIUM_PATH: launchBrowser's findChromium says so
  }
}
export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}`;

export interface RunningBrowser {
  process: ChildProcess;
  browser: Browser;
  context: BrowserContext;
  profileDir: string;
  /** SIGKILL, as a crash: nothing is flushed, no unload handler runs. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export function newProfileDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'mapsweep-profile-'));
}

export function removeProfileDir(dir: string): void {
  // Chromium's helper processes may still be writing for a moment after the browser exits.
  // A temporary profile left behind is not a test failure: say so and go on.
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.warn(`could not remove ${dir} yet: ${String(e)}`);
  }
}

export async function launchBrowser(opts: {
  profileDir: string;
  resolverArgs: string[];
  headless?: boolean;
  /** Window size in px (default 1280 × 900). */
  windowSize?: { width: number; height: number };
}): Promise<RunningBrowser> {
  const headless = opts.headless ?? !process.env.DISPLAY;
  const args = [
    ...(headless ? ['--headless=new'] : []),
    '--remote-debugging-port=0',
    `--user-data-dir=${opts.profileDir}`,
    `--disable-extensions-except=${EXTENSION_DIR}`,
    `--load-extension=${EXTENSION_DIR}`,
    ...opts.resolverArgs,
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider',
    // Background tabs must not be throttled into timeouts on a loaded 2-core machine.
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
    '--lang=en-US',
    `--window-size=${opts.windowSize?.width ?? 1280},${opts.windowSize?.height ?? 900}`,
    'about:blank',
  ];
  // Its own process group, so closing ends the helper processes too (not only the browser).
  const child = spawn(isExecutableFile(CHROMIUM) ? CHROMIUM : findChromium(), args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const wsUrl = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${buffer.slice(-2000)}`)), 30_000);
    child.stderr!.on('data', (d: Buffer) => {
      buffer += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(buffer);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}: ${buffer.slice(-2000)}`)));
  });
  child.stderr!.resume();
  const browser = await chromium.connectOverCDP(wsUrl);
  const context = browser.contexts()[0]!;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    process: child,
    browser,
    context,
    profileDir: opts.profileDir,
    async kill() {
      killGroup(child, 'SIGKILL');
      await exited;
    },
    async close() {
      await browser.close().catch(() => {});
      if (child.exitCode === null) killGroup(child, 'SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      killGroup(child, 'SIGKILL');
    },
  };
}

/** Signal the browser and every helper process it started (they share its process group). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export async function serviceWorker(context: BrowserContext): Promise<Worker> {
  const url = `${EXTENSION_ORIGIN}/background.js`;
  const found = context.serviceWorkers().find((w) => w.url() === url);
  return found ?? (await context.waitForEvent('serviceworker', { predicate: (w) => w.url() === url, timeout: 30_000 }));
}

/** The popup, opened as a tab (as a person with the popup pinned would see it). */
export async function openPopup(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${EXTENSION_ORIGIN}/popup.html`);
  return page;
}

/** Options through the real storage key the options page writes. */
export async function setSettings(page: Page, settings: Record<string, number | boolean>): Promise<void> {
  await page.evaluate(async (s) => {
    const api = (globalThis as unknown as { chrome: { storage: { local: { set(v: object): Promise<void> } } } }).chrome;
    await api.storage.local.set({ settings: s });
  }, settings);
}

/** Every record of one object store of the extension's IndexedDB, read from an extension page. */
export async function readAll<T>(page: Page, storeName: StoreName): Promise<T[]> {
  return (await page.evaluate(readStoreInPage, storeName)) as T[];
}

export interface SweepRow {
  id: string;
  /** Absent on Google sweeps from before providers. */
  provider?: string;
  status: string;
  pauseReason: string | null;
  counters: Record<string, number>;
  problem: { kind: string; message: string } | null;
}

export const readSweeps = (page: Page) => readAll<SweepRow>(page, 'sweeps');

export const readCells = (page: Page) =>
  readAll<{
    id: string;
    status: string;
    bbox: { south: number; west: number; north: number; east: number };
    lastError: { kind: string; message: string } | null;
  }>(page, 'cells');

export const readListings = (page: Page) =>
  readAll<{ key: string; cid: string | null; name: string; lat: number | null; lng: number | null; collections: string[]; keywords: string[] }>(
    page,
    'listings',
  );

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
