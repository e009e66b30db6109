// @vitest-environment node
/**
 * The layers are code (.dependency-cruiser.cjs, run by `npm run layers` in `npm test`); the
 * architecture document describes them in the same order, every folder of utils/ has a rank,
 * and the rules refuse an import that climbs (issue 37: "the rule file is the architecture's
 * source; docs/ARCHITECTURE.md is checked against it").
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

  /**
   * Runs the repo's rule file over a small tree of its own (a temporary folder, never this
   * repo's: a test killed half-way must leave no stray module, least of all a content script
   * the next build would ship). `files`: repo-relative path → source.
   */
  function layerCheck(files: Record<string, string>, check: string[]): string {
    const tree = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      copyFileSync(join(root, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
      writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
      for (const [path, source] of Object.entries(files)) {
        mkdirSync(dirname(join(tree, path)), { recursive: true });
        writeFileSync(join(tree, path), source);
      }
      const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
      try {
        execFileSync(process.execPath, [depcruise, ...check, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: tree, encoding: 'utf8' });
        return '';
      } catch (e) {
        return String((e as { stdout?: string }).stdout ?? '');
      }
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  }

  /** Stand-ins for the folders the planted modules reach. */
  const TOP = {
    'utils/app/background.ts': 'export function createBackground(): void {}\n',
    'utils/store/index.ts': 'export interface Store { x: number }\nexport function openStore(): void {}\n',
    'utils/sweep/driver.ts': 'export function runWorker(): void {}\n',
  };

  it('the rule file refuses an import that climbs, a type-only one too', () => {
    const out = layerCheck(
      {
        ...TOP,
        'utils/geo/climb.ts': "import { createBackground } from '../app/background';\nexport const x = createBackground;\n",
        'utils/geo/types.ts': "import type { Store } from '../store';\nexport type S = Store;\n",
      },
      ['utils'],
    );
    expect(out).toMatch(/layer-geo: utils\/geo\/climb\.ts → utils\/app\/background\.ts/);
    expect(out).toMatch(/layer-geo: utils\/geo\/types\.ts → utils\/store\/index\.ts/);
  }, 60_000);

  it('a module with no folder is refused; a content script reaches no background folder, even through the components', () => {
    const out = layerCheck(
      {
        ...TOP,
        'utils/loose.ts': "export { runWorker } from './sweep/driver';\n",
        'components/probe.ts': "export { openStore } from '../utils/store';\n",
        'entrypoints/probe.content.ts': "import { openStore } from '../components/probe';\nexport const x = openStore;\n",
      },
      ['utils', 'components', 'entrypoints'],
    );
    expect(out).toMatch(/every-module-in-a-layer: utils\/loose\.ts/);
    expect(out).toMatch(/content-scripts-not-background: entrypoints\/probe\.content\.ts → utils\/store\//);
  }, 60_000);

  it('a tree that climbs nowhere passes (the control: the refusals above come from the rules, not the set-up)', () => {
    expect(layerCheck({ ...TOP, 'utils/geo/fine.ts': 'export const fine = 1;\n' }, ['utils'])).toBe('');
  }, 60_000);
});
