/**
 * What every bench section needs to run on its own (`npx tsx scripts/bench/<section>.ts`): the
 * output folder from `--out=`, its figures merged into that folder's summary.json beside what
 * `npm run bench` (or another section) wrote there, and "run main when started as a script".
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** `--out=<dir>`, else bench-output (where `npm run bench` writes). */
export function outDirOf(argv: readonly string[]): string {
  return argv.find((a) => a.startsWith('--out='))?.slice('--out='.length) ?? 'bench-output';
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
  await mkdir(outDir, { recursive: true });
  await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`);
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
