/**
 * What the Chromium bench needs around the test harness: the page-side bench code bundled and
 * installed in an extension page, a plain Chromium without the extension, and the browser's
 * memory read from /proc.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, EXTENSION_DIR } from '../../tests/browser/harness';
import type * as PageApi from './chromium-page';

export type BenchApi = typeof PageApi;

const PAGE_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'chromium-page.ts');
let bundle: Promise<string> | null = null;

/** Why the Chromium figures cannot be measured here, or null when they can. */
export function chromiumUnavailable(): string | null {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`;
  if (!existsSync(path.join(EXTENSION_DIR, 'manifest.json'))) return `no production build in ${EXTENSION_DIR}: run npm run build`;
  return null;
}

/** chromium-page.ts as one script defining `globalThis.MapSweepBench`. */
function pageBundle(): Promise<string> {
  bundle ??= import('esbuild').then(async ({ build }) => {
    const out = await build({
      entryPoints: [PAGE_ENTRY],
      bundle: true,
      format: 'iife',
      globalName: 'MapSweepBench',
      platform: 'browser',
      target: 'chrome120',
      write: false,
      logLevel: 'error',
      // commit.ts checks import.meta.url to see whether it was run directly; in the page it never is.
      define: { 'import.meta.url': '""' },
    });
    return `${out.outputFiles[0]!.text};globalThis.MapSweepBench = MapSweepBench;`;
  });
  return bundle;
}

/**
 * Install the bench code in an extension page (its CSP forbids inline scripts, but CDP's
 * evaluate is not a script the page loads). Lines it logs as `[bench] …` go to `log`.
 */
export async function installBench(page: Page, log: (line: string) => void): Promise<void> {
  page.on('console', (m) => {
    const text = m.text();
    if (text.startsWith('[bench] ')) log(`  chromium: ${text.slice(8)}`);
  });
  await page.evaluate(await pageBundle());
}

/** Call one function of the installed bench code with JSON arguments; resolves with its result. */
export function callBench<K extends keyof BenchApi>(
  page: Page,
  name: K,
  ...args: Parameters<BenchApi[K]>
): Promise<Awaited<ReturnType<BenchApi[K]>>> {
  // A source string, not a function: tsx would wrap a function's source in helpers the page lacks.
  return page.evaluate(`globalThis.MapSweepBench[${JSON.stringify(name)}](...${JSON.stringify(args)})`);
}

/**
 * Chromium with the same window, language and flags as the harness's, but no extension: the
 * baseline a person's browser would be.
 */
export async function launchPlainBrowser(resolverArgs: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...resolverArgs, '--no-sandbox', '--disable-gpu', '--lang=en-US', '--window-size=1280,900', '--disable-background-networking', '--disable-smooth-scrolling'],
  });
  const context = await browser.newContext({ viewport: null, ignoreHTTPSErrors: true });
  return { browser, page: await context.newPage() };
}

/** Every process under `root` (the browser and its renderers, GPU and utility processes). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/pid/stat is the parent pid; the name (field 2) may hold spaces, so split after it.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process ended between readdir and read.
    }
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Resident memory of the whole tree, MB (shared pages count once per process, as `ps` shows them). */
export function treeRssMb(root: number): number {
  let kb = 0;
  for (const pid of processTree(root)) {
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {
      // Gone already.
    }
  }
  return kb / 1024;
}

export interface RssSampler {
  /** Stop sampling; peak and mean of the samples, MB. */
  stop(): { peakMb: number; samples: number };
}

export function sampleRss(root: number, everyMs = 100): RssSampler {
  let peak = treeRssMb(root);
  let samples = 1;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssMb(root));
    samples += 1;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, treeRssMb(root));
      return { peakMb: peak, samples: samples + 1 };
    },
  };
}
