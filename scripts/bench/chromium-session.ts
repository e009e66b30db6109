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

/** Throws why the Chromium figures cannot be measured here, if they cannot. */
export function requireChromium(): void {
  const unavailable = chromiumUnavailable();
  if (unavailable) throw new Error(unavailable);
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
export function callBench<K extends keyof BenchApi>(page: Page, name: K, ...args: Parameters<BenchApi[K]>): Promise<Awaited<ReturnType<BenchApi[K]>>> {
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
    args: [
      ...resolverArgs,
      '--no-sandbox',
      '--disable-gpu',
      '--lang=en-US',
      '--window-size=1280,900',
      '--disable-background-networking',
      '--disable-smooth-scrolling',
    ],
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

export interface TreeMemory {
  /** Sum of VmRSS: shared pages (the browser binary, fonts) count once per process, as `ps` shows them. */
  rssMb: number;
  /** Sum of Pss (smaps_rollup): shared pages split between their processes, so the sum is the real footprint. */
  pssMb: number;
}

/** The resident memory of the whole tree, MB. Pss costs ~3 ms a process to read, so it is optional. */
export function treeMemory(root: number, withPss = true): TreeMemory {
  let rssKb = 0;
  let pssKb = 0;
  for (const pid of processTree(root)) {
    try {
      rssKb += kb(/^VmRSS:\s+(\d+) kB/m, readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (withPss) pssKb += kb(/^Pss:\s+(\d+) kB/m, readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    } catch {
      // Gone already.
    }
  }
  return { rssMb: rssKb / 1024, pssMb: withPss ? pssKb / 1024 : Number.NaN };
}

function kb(pattern: RegExp, text: string): number {
  const m = pattern.exec(text);
  return m ? Number(m[1]) : 0;
}

export interface MemorySampler {
  /** Stop sampling; the peaks, MB. */
  stop(): { peakRssMb: number; peakPssMb: number; samples: number };
}

/** RSS every `everyMs`, Pss every fifth sample (reading it is what would otherwise load the machine). */
export function sampleMemory(root: number, everyMs = 100): MemorySampler {
  let peakRss = 0;
  let peakPss = 0;
  let samples = 0;
  const sample = (withPss = samples % 5 === 0) => {
    const m = treeMemory(root, withPss);
    peakRss = Math.max(peakRss, m.rssMb);
    if (!Number.isNaN(m.pssMb)) peakPss = Math.max(peakPss, m.pssMb);
    samples += 1;
  };
  sample();
  const timer = setInterval(() => sample(), everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample(true);
      return { peakRssMb: peakRss, peakPssMb: peakPss, samples };
    },
  };
}
