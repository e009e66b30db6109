/**
 * What every bench section needs to run on its own (`npx tsx scripts/bench/<section>.ts`): its
 * options from the command line, the output folder from `--out=`, its figures merged into that
 * folder's summary.json beside what `npm run bench` (or another section) wrote there, and "run
 * main when started as a script". Not for code that is bundled into a page (chromium-page.ts):
 * it reads and writes files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** What sections log while they measure: standard error, so standard output holds only the figures. */
export const logLine = (line: string) => console.error(line);

/** `--<name>=<value>`'s value, or undefined. */
export function optionOf(argv: readonly string[], name: string): string | undefined {
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** `--<name>=1,2,3` as numbers, or undefined. */
export function numbersOf(argv: readonly string[], name: string): number[] | undefined {
  return optionOf(argv, name)?.split(',').map(Number);
}

/** `--out=<dir>`, else bench-output (where `npm run bench` writes). */
export function outDirOf(argv: readonly string[]): string {
  return optionOf(argv, 'out') ?? 'bench-output';
}

/** Writes `value` as indented JSON, making the folder first. */
export async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Puts `figures` into `<outDir>/summary.json` under `key`, keeping the other sections; returns the file. */
export async function writeSection(outDir: string, key: string, figures: unknown): Promise<string> {
  const file = path.join(outDir, 'summary.json');
  let summary: Record<string, unknown> = {};
  try {
    summary = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // No earlier bench run: the file holds this section only until `npm run bench` writes the rest.
  }
  summary[key] = figures;
  await writeJson(file, summary);
  return file;
}

/** Runs `main` with the command line when `moduleUrl` (the caller's import.meta.url) is the script node started. */
export function runIfMain(moduleUrl: string, main: (argv: string[]) => Promise<void>): void {
  if (process.argv[1] === undefined || moduleUrl !== `file://${process.argv[1]}`) return;
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}

/**
 * A section with a table, run alone: measures, puts the figures into <out>/summary.json under
 * `key`, prints the table and the file written.
 */
export function runSection<F>(moduleUrl: string, key: string, measure: (argv: string[]) => Promise<F>, format: (figures: F) => string): void {
  runIfMain(moduleUrl, async (argv) => {
    const figures = await measure(argv);
    const file = await writeSection(outDirOf(argv), key, figures);
    console.log(format(figures));
    console.log(`\nwritten: ${file} (${key})`);
  });
}

/** A section whose figures are only printed, run alone: measures and prints them as JSON. */
export function runPrinted(moduleUrl: string, measure: (argv: string[]) => Promise<unknown>): void {
  runIfMain(moduleUrl, async (argv) => console.log(JSON.stringify(await measure(argv), null, 2)));
}

/**
 * Installs fake-indexeddb's globals: idb recognises IndexedDB objects by the global classes, so
 * they go in before any store opens (an untyped specifier: the package has no declarations for
 * this entry).
 */
export async function installFakeIndexedDb(): Promise<void> {
  const installGlobals: string = 'fake-indexeddb/auto';
  await import(installGlobals);
}
