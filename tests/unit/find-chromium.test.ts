import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumCandidates, ChromiumMissingError, findChromium, locateChromium, missingChromiumMessage } from '../../scripts/find-chromium';

// Fake PATH directories with fake browsers (shell scripts). No install path runs here: every
// search that could find nothing passes `install: false` or finds something.
const dirs: string[] = [];
function fakeDir(files: Record<string, boolean>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'find-chromium-'));
  dirs.push(dir);
  for (const [name, executable] of Object.entries(files)) {
    const file = path.join(dir, name);
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, executable ? 0o755 : 0o644);
  }
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const search = (PATH: string, extra: NodeJS.ProcessEnv = {}) => ({ env: { PATH, ...extra }, systemDirs: [] as string[] });

describe('find-chromium', () => {
  it('takes chromium before chromium-browser before google-chrome, whatever PATH directory holds them', () => {
    const first = fakeDir({ 'google-chrome': true });
    const second = fakeDir({ 'chromium-browser': true });
    const third = fakeDir({ chromium: true });
    const PATH = [first, second, third].join(path.delimiter);
    expect(locateChromium(search(PATH))).toBe(path.join(third, 'chromium'));
    expect(locateChromium(search([first, second].join(path.delimiter)))).toBe(path.join(second, 'chromium-browser'));
    expect(locateChromium(search(first))).toBe(path.join(first, 'google-chrome'));
  });

  it('CHROMIUM_PATH comes first, and a wrong one is said, not replaced', () => {
    const onPath = fakeDir({ chromium: true });
    const mine = fakeDir({ 'my-chrome': true, 'not-exec': false });
    expect(locateChromium(search(onPath, { CHROMIUM_PATH: path.join(mine, 'my-chrome') }))).toBe(path.join(mine, 'my-chrome'));
    expect(() => locateChromium(search(onPath, { CHROMIUM_PATH: path.join(mine, 'not-exec') }))).toThrow(/CHROMIUM_PATH=.*not an executable/);
  });

  it('skips files that are not executable, then looks in /usr/bin after PATH', () => {
    const dir = fakeDir({ chromium: false });
    const system = fakeDir({ chromium: true });
    expect(locateChromium({ env: { PATH: dir }, systemDirs: [system] })).toBe(path.join(system, 'chromium'));
    expect(chromiumCandidates({ env: { PATH: dir } })).toEqual([
      path.join(dir, 'chromium'),
      '/usr/bin/chromium',
      path.join(dir, 'chromium-browser'),
      '/usr/bin/chromium-browser',
      path.join(dir, 'google-chrome'),
      '/usr/bin/google-chrome',
    ]);
  });

  it('without a Chromium (and no install) stops with one line naming the command', () => {
    const empty = fakeDir({});
    mkdirSync(path.join(empty, 'chromium')); // a directory is no browser
    let error: unknown;
    try {
      findChromium({ ...search(empty), install: false });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChromiumMissingError);
    expect((error as Error).message).not.toContain('\n');
    expect(missingChromiumMessage(true, false)).toContain('sudo apt-get install -y chromium');
    expect(missingChromiumMessage(true, true)).toContain('apt-get install -y chromium');
    expect(missingChromiumMessage(false, false)).toContain('CHROMIUM_PATH');
  });
});
