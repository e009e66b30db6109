/**
 * What each entry point of the built extension weighs (issue 25), read from a production build
 * on disk (`npm run build` writes .output/chrome-mv3); no browser. The entries are the
 * manifest's service worker and content scripts, and every HTML page. An entry needs its own
 * file and every chunk it imports statically, followed through the chunks' own imports: what is
 * loaded before it runs. Chunks reached only through `import()` are counted apart, as loaded on
 * demand. A JS file no entry reaches is listed, so none goes uncounted.
 *
 * Beside today's figures, the figures before issue 25's changes (baseline-ec091ff.json): this
 * section's own figures on the build of commit ec091ff (the same file sizes as that build's
 * `wxt build` output), and the overhead ratio `npx tsx scripts/bench/chromium.ts overhead`
 * measured there.
 *
 * Run alone: `npx tsx scripts/bench/bundle.ts [--dir=.output/chrome-mv3] [--out=<dir>]` (merges
 * its figures into <dir>/summary.json under `bundle`); `npm run bench` runs it too, and prints
 * the overhead ratio it measures in the same table.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OverheadRound } from './chromium-overhead';
import { tableRows } from './stats';
import { optionOf, runSection } from './standalone';

export const BUILD_DIR = '.output/chrome-mv3';

export interface EntryFigures {
  /** Its own file and the chunks it imports statically, in bytes. */
  bytes: number;
  files: string[];
  /** Chunks only its `import()`s reach (not already counted in `files`). */
  on_demand_bytes: number;
  on_demand: string[];
}

export interface BundleFigures {
  dir: string;
  /** By entry: the service worker, each content script, each HTML page. */
  entries: Record<string, EntryFigures>;
  /** Every JS file of the build, in bytes. */
  js_files: Record<string, number>;
  js_bytes: number;
  /** JS files no entry reaches, statically or on demand. */
  unreached: string[];
}

/** The overhead ratio and its rounds, as scripts/bench/chromium-overhead.ts reports them (the baseline's rounds give no cell count). */
export interface OverheadFigures {
  ratio: number;
  rounds: (Pick<OverheadRound, 'extension_ms_per_cell' | 'plain_ms_per_cell' | 'ratio'> & Partial<Pick<OverheadRound, 'cells'>>)[];
}

export interface Baseline {
  commit: string;
  note: string;
  overhead: OverheadFigures & { command: string };
  bundle: BundleFigures;
}

const BASELINE_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'baseline-ec091ff.json');

export function readBaseline(file = BASELINE_FILE): Baseline {
  return JSON.parse(readFileSync(file, 'utf8')) as Baseline;
}

interface Manifest {
  background?: { service_worker?: string };
  content_scripts?: { js?: string[] }[];
}

// Minified module syntax: `from"./x.js"` or `import"./x.js"` (static), `import("./x.js")` (on demand).
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'`]([^"'`]+\.js)["'`]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g;
const HTML_SCRIPT = /<script\b[^>]*\bsrc="([^"]+\.js)"/g;

export function measureBundle(dir = BUILD_DIR): BundleFigures {
  if (!existsSync(path.join(dir, 'manifest.json'))) throw new Error(`no production build in ${dir}: run npm run build`);
  const js_files: Record<string, number> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const file = path.posix.join(rel, name);
      if (statSync(path.join(dir, file)).isDirectory()) walk(file);
      else if (name.endsWith('.js')) js_files[file] = statSync(path.join(dir, file)).size;
    }
  };
  walk('');
  // A specifier as a path from the build's root: '/x' from the root, './x' from the importer.
  const resolve = (from: string, spec: string) => (spec.startsWith('/') ? spec.slice(1) : path.posix.join(path.posix.dirname(from), spec));
  const importsOf = (file: string, pattern: RegExp) => [...readFileSync(path.join(dir, file), 'utf8').matchAll(pattern)].map((m) => resolve(file, m[1]!));
  const closure = (roots: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file) || !(file in js_files)) return;
      seen.add(file);
      for (const next of importsOf(file, STATIC_IMPORT)) visit(next);
    };
    for (const r of roots) visit(r);
    return seen;
  };
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const roots: Record<string, string[]> = {};
  if (manifest.background?.service_worker) roots[manifest.background.service_worker] = [manifest.background.service_worker];
  for (const file of (manifest.content_scripts ?? []).flatMap((c) => c.js ?? [])) roots[file] = [file];
  for (const page of readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort()) {
    roots[page] = [...readFileSync(path.join(dir, page), 'utf8').matchAll(HTML_SCRIPT)].map((m) => resolve(page, m[1]!));
  }
  const entries: Record<string, EntryFigures> = {};
  const reached = new Set<string>();
  const bytesOf = (files: Iterable<string>) => [...files].reduce((n, f) => n + js_files[f]!, 0);
  for (const [entry, files] of Object.entries(roots)) {
    const loaded = closure(files);
    const lazy = [...closure([...loaded].flatMap((f) => importsOf(f, DYNAMIC_IMPORT)))].filter((f) => !loaded.has(f));
    for (const f of [...loaded, ...lazy]) reached.add(f);
    entries[entry] = { bytes: bytesOf(loaded), files: [...loaded].sort(), on_demand_bytes: bytesOf(lazy), on_demand: lazy.sort() };
  }
  return { dir, entries, js_files, js_bytes: bytesOf(Object.keys(js_files)), unreached: Object.keys(js_files).filter((f) => !reached.has(f)) };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;

/** "+1.23 kB (+0.4%)": the change from before to now, in the unit the figures print in. */
function change(before: number | null, now: number | null, print: (x: number) => string): string {
  if (before === null || now === null) return '-';
  const d = now - before;
  if (d === 0) return 'same';
  const sign = d > 0 ? '+' : '−';
  return `${sign}${print(Math.abs(d))} (${sign}${Math.abs((100 * d) / before).toFixed(1)}%)`;
}

/**
 * The before-and-after table: each entry's size, then the overhead ratio (null now: not
 * measured in this run).
 */
export function formatBeforeAfter(now: BundleFigures | null, overhead: OverheadFigures | null, before: Baseline = readBaseline()): string {
  const cols: [string, number][] = [
    ['entry', 40],
    ['before', 11],
    ['now', 11],
    ['change', 22],
  ];
  const { header, row } = tableRows(cols, 1);
  const lines = [`before issue 25 (commit ${before.commit}) and now: each entry point's JS (with the chunks it imports), and the overhead ratio`, header];
  const names = [...new Set([...Object.keys(before.bundle.entries), ...Object.keys(now?.entries ?? {})])];
  const sizeRow = (label: string, b: number | null, n: number | null) => row([label, b === null ? '-' : kB(b), n === null ? '-' : kB(n), change(b, n, kB)]);
  for (const name of names) {
    const b = before.bundle.entries[name];
    const n = now?.entries[name];
    lines.push(sizeRow(name, b?.bytes ?? null, n?.bytes ?? null));
    if (b?.on_demand_bytes || n?.on_demand_bytes) {
      lines.push(
        sizeRow(`  + on demand (${(n ?? b)!.on_demand.map((f) => path.posix.basename(f)).join(', ')})`, b?.on_demand_bytes ?? null, n?.on_demand_bytes ?? null),
      );
    }
  }
  lines.push(sizeRow('every JS file of the build', before.bundle.js_bytes, now?.js_bytes ?? null));
  const ratio = (x: number) => x.toFixed(2);
  const perCell = (o: OverheadFigures) =>
    `extension ${o.rounds.map((r) => r.extension_ms_per_cell).join('/')} ms vs plain Playwright ${o.rounds.map((r) => r.plain_ms_per_cell).join('/')} ms per cell, pacing 0` +
    (o.rounds[0]?.cells === undefined ? '' : `, ${o.rounds[0].cells} cells`);
  lines.push(
    row([
      'overhead ratio (extension ÷ plain)',
      `${ratio(before.overhead.ratio)}x`,
      overhead ? `${ratio(overhead.ratio)}x` : '-',
      change(before.overhead.ratio, overhead?.ratio ?? null, ratio),
    ]),
  );
  lines.push(`  before: rounds ${before.overhead.rounds.map((r) => r.ratio).join(' / ')}, ${perCell(before.overhead)} (${before.overhead.command})`);
  lines.push(
    `  now: ${overhead ? `rounds ${overhead.rounds.map((r) => r.ratio).join(' / ')}, ${perCell(overhead)}` : 'not measured in this run (npm run bench measures it, unless --no-chromium)'}`,
  );
  if (now?.unreached.length) lines.push(`  JS files no entry reaches: ${now.unreached.join(', ')}`);
  return lines.join('\n');
}

runSection(
  import.meta.url,
  'bundle',
  async (argv) => measureBundle(optionOf(argv, 'dir')),
  (figures) => formatBeforeAfter(figures, null),
);
