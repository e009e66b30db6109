// @vitest-environment node
/**
 * The layers are code (.dependency-cruiser.cjs, run by `npm run layers` in `npm test`); the
 * architecture document describes them in the same order, every folder of utils/ has a rank,
 * and the rules refuse an import that climbs (issue 37: "the rule file is the architecture's
 * source; docs/ARCHITECTURE.md is checked against it").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

function layersOfConfig(): string[] {
  const text = readFileSync(join(root, '.dependency-cruiser.cjs'), 'utf8');
  const list = /const LAYERS = \[([\s\S]*?)\];/.exec(text)?.[1] ?? '';
  return [...list.matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1]!);
}

describe('the layers', () => {
  it('every folder of utils/ has a rank, and only those', () => {
    const folders = readdirSync(join(root, 'utils')).filter((f) => statSync(join(root, 'utils', f)).isDirectory());
    expect([...layersOfConfig()].sort()).toEqual(folders.sort());
  });

  it('docs/ARCHITECTURE.md lists utils/ top to bottom in the order of the rule file', () => {
    const doc = readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
    const section = /## Layers\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? '';
    const utils = section.slice(section.indexOf('\nutils/'), section.indexOf('\ntests/'));
    const listed = [...utils.matchAll(/^ {2}([a-z0-9-]+)\//gm)].map((m) => m[1]!);
    expect(listed).toEqual([...layersOfConfig()].reverse());
  });

  it('the rule file refuses an import that climbs, and one into the pages', () => {
    // A throwaway module in the bottom layer that imports the top: the tool must report it.
    const dir = mkdtempSync(join(root, 'utils', 'geo', 'climb-'));
    try {
      writeFileSync(join(dir, 'climb.ts'), "import { createBackground } from '../../app/background';\nexport const x = createBackground;\n");
      const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
      let out = '';
      try {
        execFileSync(process.execPath, [depcruise, dir, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: root, encoding: 'utf8' });
      } catch (e) {
        out = String((e as { stdout?: string }).stdout ?? '');
      }
      expect(out).toMatch(/layer-geo: utils\/geo\/climb-[^/]+\/climb\.ts → utils\/app\/background\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
