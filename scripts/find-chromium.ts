/**
 * Which Chromium `npm run demo`, the browser tests and the bench launch.
 *
 * A new user's first command must not end in a raw `spawn ENOENT` stack trace. So:
 *
 *   1. CHROMIUM_PATH, when set (and then it must be an executable file: a typo is said, not
 *      silently replaced by another browser);
 *   2. `chromium`, `chromium-browser`, `google-chrome`, in that order, each looked for in every
 *      PATH directory and then /usr/bin (Debian's package installs /usr/bin/chromium; a
 *      minimal PATH may not list /usr/bin);
 *   3. none found: as root on Debian (the CI and container case) Debian's `chromium` is
 *      installed here, the way .ci/run does it; otherwise one clear line says what to run.
 *
 * Searching has no side effects (`locateChromium`); only `findChromium` may install.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import path from 'node:path';

export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;
const SYSTEM_DIRS = ['/usr/bin'];

export interface ChromiumSearch {
  env?: NodeJS.ProcessEnv;
  /** Searched after PATH; /usr/bin unless a test says otherwise. */
  systemDirs?: readonly string[];
}

/** Chromium is not there and was not installed: `message` is the one line to show. */
export class ChromiumMissingError extends Error {
  override name = 'ChromiumMissingError';
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Every place looked at, in order (CHROMIUM_PATH excluded). */
export function chromiumCandidates(opts: ChromiumSearch = {}): string[] {
  const env = opts.env ?? process.env;
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter((d) => d !== ''), ...(opts.systemDirs ?? SYSTEM_DIRS)];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      const file = path.join(dir, name);
      if (!seen.has(file)) out.push(file);
      seen.add(file);
    }
  }
  return out;
}

/**
 * The Chromium to launch, or null when there is none. Throws only for a CHROMIUM_PATH that
 * is not an executable file.
 */
export function locateChromium(opts: ChromiumSearch = {}): string | null {
  const env = opts.env ?? process.env;
  const explicit = env.CHROMIUM_PATH?.trim();
  if (explicit) {
    if (isExecutableFile(explicit)) return explicit;
    throw new ChromiumMissingError(`CHROMIUM_PATH=${explicit} is not an executable file: point it at a Chromium or Chrome binary, or unset it.`);
  }
  return chromiumCandidates(opts).find(isExecutableFile) ?? null;
}

export function isDebian(): boolean {
  return existsSync('/etc/debian_version');
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The one line to show when no Chromium is found and none can be installed here. */
export function missingChromiumMessage(debian: boolean, root: boolean): string {
  const where = `looked for ${CHROMIUM_NAMES.join(', ')} on PATH and in /usr/bin`;
  if (debian) {
    return `Chromium is not installed (${where}). Run: ${root ? '' : 'sudo '}apt-get update && ${root ? '' : 'sudo '}apt-get install -y chromium (or set CHROMIUM_PATH).`;
  }
  return `Chromium is not installed (${where}). Install Chromium or Google Chrome, or set CHROMIUM_PATH=/path/to/chromium.`;
}

/**
 * The Chromium to launch. As root on Debian, installs Debian's `chromium` when none is found
 * (as .ci/run does); otherwise throws ChromiumMissingError with one line naming the command.
 */
export function findChromium(opts: ChromiumSearch & { install?: boolean } = {}): string {
  const found = locateChromium(opts);
  if (found) return found;
  const debian = isDebian();
  const root = isRoot();
  if (opts.install !== false && debian && root) {
    process.stderr.write("No Chromium found: installing Debian's chromium (apt-get install -y chromium)…\n");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
      execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    } catch (e) {
      throw new ChromiumMissingError(
        `Installing Chromium failed (${e instanceof Error ? e.message.split('\n')[0] : String(e)}). Run: apt-get update && apt-get install -y chromium`,
      );
    }
    const installed = locateChromium(opts);
    if (installed) return installed;
  }
  throw new ChromiumMissingError(missingChromiumMessage(debian, root));
}
