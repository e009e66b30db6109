import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatBeforeAfter, measureBundle, readBaseline, type Baseline } from '../../scripts/bench/bundle';

// A build laid out as WXT writes one: a module service worker and HTML pages importing chunks
// minified (`from"./x.js"`, `import"./x.js"`, `import(`./x.js`)`), self-contained content scripts.
const FILES: Record<string, string> = {
  'manifest.json': JSON.stringify({ background: { service_worker: 'background.js', type: 'module' }, content_scripts: [{ js: ['content-scripts/site.js'] }] }),
  'background.js': 'import{a}from"./chunks/shared-1.js";a();',
  'popup.html': '<script type="module" crossorigin src="/chunks/popup-2.js"></script><link rel="modulepreload" href="/chunks/shared-1.js">',
  'chunks/popup-2.js': 'import"./shared-1.js";const x=()=>import(`./xlsx-3.js`);',
  'chunks/shared-1.js': 'import{b}from"./deep-4.js";export const a=b;',
  'chunks/deep-4.js': 'export const b=1;',
  'chunks/xlsx-3.js': `export const big="${'x'.repeat(100)}";`,
  'chunks/orphan-5.js': 'export {};',
  'content-scripts/site.js': '(function(){})();',
};

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function build(files: Record<string, string>): string {
  dir = mkdtempSync(path.join(tmpdir(), 'bench-bundle-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const size = (...files: string[]) => files.reduce((n, f) => n + Buffer.byteLength(FILES[f]!), 0);

describe('the bundle section (scripts/bench/bundle.ts)', () => {
  it('counts each entry with the chunks it imports, through their imports, and on-demand chunks apart', () => {
    const f = measureBundle(build(FILES));
    expect(Object.keys(f.entries).sort()).toEqual(['background.js', 'content-scripts/site.js', 'popup.html']);
    expect(f.entries['background.js']).toEqual({
      bytes: size('background.js', 'chunks/shared-1.js', 'chunks/deep-4.js'),
      files: ['background.js', 'chunks/deep-4.js', 'chunks/shared-1.js'],
      on_demand_bytes: 0,
      on_demand: [],
    });
    expect(f.entries['popup.html']).toEqual({
      bytes: size('chunks/popup-2.js', 'chunks/shared-1.js', 'chunks/deep-4.js'),
      files: ['chunks/deep-4.js', 'chunks/popup-2.js', 'chunks/shared-1.js'],
      on_demand_bytes: size('chunks/xlsx-3.js'),
      on_demand: ['chunks/xlsx-3.js'],
    });
    expect(f.entries['content-scripts/site.js']!.bytes).toBe(size('content-scripts/site.js'));
    // Every JS file is counted once in the total, and the one no entry reaches is named.
    expect(f.js_bytes).toBe(size(...Object.keys(FILES).filter((k) => k.endsWith('.js'))));
    expect(f.unreached).toEqual(['chunks/orphan-5.js']);
  });

  it('refuses a folder without a build', () => {
    expect(() => measureBundle(build({ 'background.js': '' }))).toThrow(/no production build/);
  });

  it('prints each entry before and now with the change, and the overhead ratio of both', () => {
    const now = measureBundle(build(FILES));
    const before: Baseline = {
      commit: 'abc1234',
      note: '',
      overhead: { ratio: 1.65, rounds: [{ extension_ms_per_cell: 1097, plain_ms_per_cell: 697, ratio: 1.58 }], command: 'the command' },
      bundle: { ...now, entries: { ...now.entries, 'background.js': { ...now.entries['background.js']!, bytes: 1000 } } },
    };
    const table = formatBeforeAfter(now, { ratio: 1.1, rounds: [{ extension_ms_per_cell: 800, plain_ms_per_cell: 727, ratio: 1.1, cells: 44 }] }, before);
    const line = (start: string) => table.split('\n').find((l) => l.startsWith(start));
    const bg = now.entries['background.js']!.bytes;
    const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;
    expect(line('background.js')).toMatch(new RegExp(`1\\.00 kB\\s+${kB(bg)}\\s+−${kB(1000 - bg)} \\(−${((100 * (1000 - bg)) / 1000).toFixed(1)}%\\)$`));
    expect(line('popup.html')).toMatch(/same$/);
    expect(line('  + on demand (xlsx-3.js)')).toMatch(/0\.12 kB\s+0\.12 kB\s+same$/);
    expect(line('overhead ratio')).toMatch(/1\.65x\s+1\.10x\s+−0\.55 \(−33\.3%\)$/);
    expect(table).toContain('extension 800 ms vs plain Playwright 727 ms per cell, pacing 0, 44 cells');
    expect(table).toContain('JS files no entry reaches: chunks/orphan-5.js');
  });

  it('has a committed baseline with every entry of a build', () => {
    const b = readBaseline();
    expect(b.commit).toBe('ec091ff');
    expect(Object.keys(b.bundle.entries)).toEqual(expect.arrayContaining(['background.js', 'popup.html', 'dashboard.html', 'content-scripts/google-maps.js']));
    expect(b.bundle.unreached).toEqual([]);
  });
});
