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

  /** Runs the layer check on `paths` (repo-relative) and returns what it reported. */
  function layerCheck(paths: string[]): string {
    const depcruise = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
    try {
      execFileSync(process.execPath, [depcruise, ...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: root, encoding: 'utf8' });
      return '';
    } catch (e) {
      return String((e as { stdout?: string }).stdout ?? '');
    }
  }

  it('the rule file refuses an import that climbs, a type-only one too', () => {
    // Throwaway modules in the bottom layers that import the top: the tool must report them.
    const dir = mkdtempSync(join(root, 'utils', 'geo', 'climb-'));
    try {
      writeFileSync(join(dir, 'climb.ts'), "import { createBackground } from '../../app/background';\nexport const x = createBackground;\n");
      writeFileSync(join(dir, 'types.ts'), "import type { Store } from '../../store';\nexport type S = Store;\n");
      const out = layerCheck([dir.slice(root.length + 1)]);
      expect(out).toMatch(/layer-geo: utils\/geo\/climb-[^/]+\/climb\.ts → utils\/app\/background\.ts/);
      expect(out).toMatch(/layer-geo: utils\/geo\/climb-[^/]+\/types\.ts → utils\/store\/index\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a module with no folder is refused; a content script reaches no background folder, even through the components', () => {
    const tag = `zz-probe-${process.pid}`;
    const loose = join(root, 'utils', `${tag}.ts`);
    const component = join(root, 'components', `${tag}.ts`);
    const content = join(root, 'entrypoints', `${tag}.content.ts`);
    try {
      writeFileSync(loose, "export { runWorker } from './sweep/driver';\n");
      writeFileSync(component, "export { openStore } from '../utils/store';\n");
      writeFileSync(content, `import { openStore } from '../components/${tag}';\nexport const x = openStore;\n`);
      const out = layerCheck([`utils/${tag}.ts`, `entrypoints/${tag}.content.ts`]);
      expect(out).toMatch(new RegExp(`every-module-in-a-layer: utils/${tag}\\.ts`));
      expect(out).toMatch(new RegExp(`content-scripts-not-background: entrypoints/${tag}\\.content\\.ts → utils/store/`));
    } finally {
      for (const f of [loose, component, content]) rmSync(f, { force: true });
    }
  }, 60_000);
});
