/**
 * npm run mutants: a small mutation check of the proof and safety code (issue 21). Each mutant
 * is one deliberate one-line bug of the kind that ends a cell "done" without proof; the unit
 * tests listed beside it must fail with it in place. A mutant the tests let through is a hole in
 * the proof, so the run fails; a snippet no longer in its file (the code moved) is "stale" and
 * fails too, so the table is kept in step with the code.
 *
 * Mutants are applied one at a time to a throwaway copy of the repo (/tmp/mutants-<pid>,
 * node_modules linked), never to the working tree: other work may be going on in it. Options:
 * --only=<id>[,<id>…] runs those mutants; --keep leaves the copy for a look.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Mutant {
  id: string;
  file: string;
  /** The exact original text; it must occur once in `file`. */
  from: string;
  to: string;
  /** Unit test files that must fail with the mutant in place. */
  tests: string[];
  /** The hole it would be: what a sweep would get wrong. */
  bug: string;
}

const JUDGE = ['tests/unit/sweep-judge.test.ts', 'tests/unit/proof-mutants.test.ts'];
const GEOMETRY = ['tests/unit/coverage-geometry.test.ts', 'tests/unit/calibration-update.test.ts', 'tests/unit/proof-mutants.test.ts'];
const LIMITED = ['tests/unit/google-limited-view.test.ts', 'tests/unit/google-limited-cards.test.ts'];
const KAKAO = ['tests/unit/kakao-replica-page.test.ts', 'tests/unit/proof-mutants.test.ts'];
const DECIDE = ['tests/unit/grid-decide.test.ts'];
const PAGES = ['tests/unit/proof-mutants.test.ts'];
const BOUNDS = ['tests/unit/proof-mutants.test.ts'];

export const MUTANTS: readonly Mutant[] = [
  // The five that once survived (issue 21), first.
  {
    id: 'judge-ads-organic',
    file: 'utils/sweep/judge.ts',
    from: "verdict: 'accepted',\n    organic,\n",
    to: "verdict: 'accepted',\n    organic: obs.listings,\n",
    tests: JUDGE,
    bug: "ads handed on as organic: an ad's position widens the calibrated box",
  },
  {
    id: 'geometry-vertical-larger',
    file: 'utils/coverage/geometry.ts',
    from: 'const half = Math.min(Math.abs(ext.top), Math.abs(ext.bottom));',
    to: 'const half = Math.max(Math.abs(ext.top), Math.abs(ext.bottom));',
    tests: GEOMETRY,
    bug: 'vertical shrink to the larger extent: unsearched rows counted as searched',
  },
  {
    id: 'calibration-capped-shrinks',
    file: 'utils/coverage/calibration.ts',
    from: 'if (ev.complete && offsets.length >= DENSE_RESULTS) {',
    to: 'if (offsets.length >= DENSE_RESULTS) {',
    tests: GEOMETRY,
    bug: 'capped lists taken as negative evidence: the safe box shrinks from a truncated list',
  },
  {
    id: 'limited-min-rated',
    file: 'utils/providers/google/limited-view.ts',
    from: 'if (rated >= MIN_RATED_CARDS && bare >= MISSING_COUNT_SHARE * rated)',
    to: 'if (rated > MIN_RATED_CARDS && bare >= MISSING_COUNT_SHARE * rated)',
    tests: LIMITED,
    bug: 'limited view missed at exactly MIN_RATED_CARDS bare ratings: a handful of places taken for the cell',
  },
  {
    id: 'kakao-cap-page-full',
    file: 'utils/providers/kakao/observe.ts',
    from: "if (page >= capPages) return 'capped';",
    to: "if (page > capPages) return 'capped';",
    tests: KAKAO,
    bug: "Kakao's last allowed page, full, no next control, no count: read as complete",
  },
  // Others in the same code.
  {
    id: 'geometry-audit-limit-larger',
    file: 'utils/coverage/geometry.ts',
    from: 'const half = Math.min(-(limits.top ?? -Infinity), limits.bottom ?? Infinity);',
    to: 'const half = Math.max(-(limits.top ?? -Infinity), limits.bottom ?? Infinity);',
    tests: GEOMETRY,
    bug: 'the audit-proven vertical limit taken on its larger side: rows the audit found unsearched counted as searched',
  },
  {
    id: 'geometry-dense-too-soon',
    file: 'utils/coverage/geometry.ts',
    from: 'if (ext && cal.denseSearches >= DENSE_SEARCHES_NEEDED && cal.unexplained === 0) {',
    to: 'if (ext && cal.unexplained === 0) {',
    tests: GEOMETRY,
    bug: 'one complete search shrinks the safe box: a sparse first search decides the geometry',
  },
  {
    id: 'calibration-outside-learnt',
    file: 'utils/coverage/calibration.ts',
    from: 'if (outside > 0 || base.unexplained > 0) {',
    to: 'if (base.unexplained > 0) {',
    tests: GEOMETRY,
    bug: 'a place outside the whole canvas still narrows the bounds: positions of a site that lists beyond its view trusted',
  },
  {
    id: 'judge-ads-all-organic',
    file: 'utils/sweep/judge.ts',
    from: 'const organic = obs.listings.filter((l) => !l.sponsored);',
    to: 'const organic = obs.listings;',
    tests: JUDGE,
    bug: 'ads counted as organic everywhere in the judgement: a page of only ads accepted',
  },
  {
    id: 'judge-only-ads-accepted',
    file: 'utils/sweep/judge.ts',
    from: 'if (organic.length === 0) {',
    to: 'if (organic.length < 0) {',
    tests: JUDGE,
    bug: 'a page of only sponsored cards accepted: an empty organic list taken as "no results"',
  },
  {
    id: 'judge-unread-short-list',
    file: 'utils/sweep/judge.ts',
    from: "if (!crowdedList(obs)) return { verdict: 'failed', error };",
    to: "if (crowdedList(obs) && false) return { verdict: 'failed', error };",
    tests: JUDGE,
    bug: 'a complete list with unread cards accepted: each unread card a place lost',
  },
  {
    id: 'judge-limited-ignored',
    file: 'utils/sweep/judge.ts',
    from: "if (obs.pageKind === 'results' && obs.limitedView) {",
    to: "if (obs.pageKind === 'place' && obs.limitedView) {",
    tests: JUDGE,
    bug: "Google's limited view accepted as the cell's list",
  },
  {
    id: 'decide-not-covered-done',
    file: 'utils/grid/decide.ts',
    from: "if (!covered) return crowdedVerdict(input, opts, 'view-not-covering');",
    to: '',
    tests: DECIDE,
    bug: 'a search whose box did not hold the cell proves it done',
  },
  {
    id: 'decide-cap-margin',
    file: 'utils/grid/decide.ts',
    from: 'input.capHit || input.organic >= opts.cap - CAP_MARGIN',
    to: 'input.capHit || input.organic >= opts.cap',
    tests: DECIDE,
    bug: 'a list just under the "about 120" cap, unflagged, taken as complete',
  },
  {
    id: 'decide-no-end-marker',
    file: 'utils/grid/decide.ts',
    from: 'if (!capHit && input.endOfList) return',
    to: 'if (!capHit) return',
    tests: DECIDE,
    bug: 'a list that never showed its end taken as complete',
  },
  {
    id: 'pages-cap-any',
    file: 'utils/sweep/pages.ts',
    from: 'capHit: pages.some((p) => p.capHit),',
    to: 'capHit: pages.every((p) => p.capHit),',
    tests: PAGES,
    bug: 'a paged list capped on its last page but not on the first counts as uncapped',
  },
  {
    id: 'pages-kind-mixed',
    file: 'utils/sweep/pages.ts',
    from: "return kinds.every((k) => k === kinds[0]) ? kinds[0]! : 'unknown';",
    to: 'return kinds[0]!;',
    tests: PAGES,
    bug: 'a later page that says "nothing found" after results: the list changed, yet the visit counts',
  },
  {
    id: 'pages-box-differs',
    file: 'utils/sweep/pages.ts',
    from: 'if (all.every((b) => b !== undefined && sameProof(a, b))) return a;',
    to: 'return a;',
    tests: PAGES,
    bug: 'pages of one list that searched different boxes prove the first box',
  },
  {
    id: 'bounds-inset-outward',
    file: 'utils/sweep/bounds-proof.ts',
    from: 'return { south: b.south + dLat, north: b.north - dLat, west: b.west + dLng, east: b.east - dLng };',
    to: 'return { south: b.south - dLat, north: b.north + dLat, west: b.west - dLng, east: b.east + dLng };',
    tests: BOUNDS,
    bug: "a reported box's untrusted edge added instead of left out: the edge a site may not search proves the cell",
  },
  {
    id: 'bounds-covered-always',
    file: 'utils/sweep/bounds-proof.ts',
    from: "return { kind: 'measured', covered: bboxContainsBBox(trusted, cell),",
    to: "return { kind: 'measured', covered: true,",
    tests: BOUNDS,
    bug: 'a reported box that does not hold the cell proves it',
  },
  {
    id: 'reported-narrowest-widest',
    file: 'utils/sweep/reported-box.ts',
    from: 'return { left: Math.min(a.left, b.left), right: Math.min(a.right, b.right), top: Math.min(a.top, b.top), bottom: Math.min(a.bottom, b.bottom) };',
    to: 'return { left: Math.max(a.left, b.left), right: Math.min(a.right, b.right), top: Math.min(a.top, b.top), bottom: Math.min(a.bottom, b.bottom) };',
    tests: BOUNDS,
    bug: 'the next cell planned to what one search covered, not what every search covered',
  },
];

interface Outcome {
  id: string;
  result: 'killed' | 'survived' | 'stale';
  seconds: number;
  detail: string;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Not copied: big, or written by others (node_modules is linked instead). */
const NOT_COPIED = new Set(['node_modules', '.output', '.git', 'bench-output']);

function copyRepo(): string {
  const dir = `/tmp/mutants-${process.pid}`;
  rmSync(dir, { recursive: true, force: true });
  cpSync(ROOT, dir, { recursive: true, filter: (src) => !NOT_COPIED.has(path.relative(ROOT, src).split(path.sep)[0]!) });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

/** Runs the unit tests given in the copy; true when they all passed. */
function testsPass(dir: string, tests: readonly string[], bail: boolean): { pass: boolean; tail: string } {
  const vitest = path.join(dir, 'node_modules', '.bin', 'vitest');
  const args = ['run', '--project', 'unit', ...(bail ? ['--bail', '1'] : []), ...tests];
  const run = spawnSync(vitest, args, { cwd: dir, encoding: 'utf8', timeout: 300_000, env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' } });
  // Any colour codes left are stripped, so the FAIL lines can be matched.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is exactly what an ANSI colour code starts with.
  const out = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? `\n${run.error.message}` : ''}`.replace(/\x1b\[[0-9;]*m/g, '');
  // The first failing test names the tests that killed the mutant.
  const failed = out
    .split('\n')
    .filter((l) => /^\s*FAIL\s/.test(l))
    .slice(0, 1)
    .map((l) => l.trim().replace(/^FAIL\s+\|?unit\|?\s+/, ''));
  return { pass: run.status === 0, tail: failed[0] ?? out.trim().split('\n').slice(-3).join(' | ') };
}

function occurrences(text: string, snippet: string): number {
  let n = 0;
  for (let i = text.indexOf(snippet); i !== -1; i = text.indexOf(snippet, i + 1)) n++;
  return n;
}

function main(argv: string[]): number {
  const only = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const keep = argv.includes('--keep');
  const chosen = only ? MUTANTS.filter((m) => only.includes(m.id)) : [...MUTANTS];
  if (only && chosen.length !== only.length) {
    console.error(`Unknown mutant id(s): ${only.filter((id) => !MUTANTS.some((m) => m.id === id)).join(', ')}`);
    return 2;
  }
  const dir = copyRepo();
  console.log(`Mutation check in ${dir} (${chosen.length} mutants)`);
  try {
    // The listed tests must pass unmutated, or a "killed" would mean nothing.
    const all = [...new Set(chosen.flatMap((m) => m.tests))].filter((t) => existsSync(path.join(dir, t)));
    const base = testsPass(dir, all, false);
    if (!base.pass) {
      console.error(`The listed tests fail without any mutant; fix them first: ${base.tail}`);
      return 2;
    }
    const outcomes: Outcome[] = [];
    for (const m of chosen) {
      const file = path.join(dir, m.file);
      const started = Date.now();
      const original = existsSync(file) ? readFileSync(file, 'utf8') : '';
      const missing = m.tests.filter((t) => !existsSync(path.join(dir, t)));
      if (occurrences(original, m.from) !== 1 || missing.length > 0) {
        const why = missing.length > 0 ? `test file(s) missing: ${missing.join(', ')}` : `snippet found ${occurrences(original, m.from)} times in ${m.file}`;
        outcomes.push({ id: m.id, result: 'stale', seconds: 0, detail: why });
      } else {
        writeFileSync(file, original.replace(m.from, m.to));
        try {
          const run = testsPass(dir, m.tests, true);
          outcomes.push({ id: m.id, result: run.pass ? 'survived' : 'killed', seconds: (Date.now() - started) / 1000, detail: run.pass ? m.bug : run.tail });
        } finally {
          writeFileSync(file, original);
        }
      }
      const o = outcomes.at(-1)!;
      console.log(`${o.result.padEnd(8)} ${m.id.padEnd(28)} ${o.seconds.toFixed(0).padStart(4)} s  ${o.detail}`);
    }
    const bad = outcomes.filter((o) => o.result !== 'killed');
    console.log(
      `\n${outcomes.length - bad.length} of ${outcomes.length} mutants killed${bad.length ? `; not killed: ${bad.map((o) => `${o.id} (${o.result})`).join(', ')}` : ''}.`,
    );
    return bad.length === 0 ? 0 : 1;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = main(process.argv.slice(2));
