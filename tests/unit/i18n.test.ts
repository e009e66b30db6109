import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../scripts/locales';
import { LIST_PROBLEM_KINDS } from '../../utils/lists/records';

const ROOT = path.resolve(__dirname, '../..');
const read = (lang: string) =>
  JSON.parse(readFileSync(path.join(ROOT, 'public/_locales', lang, 'messages.json'), 'utf8')) as Record<string, { message: string }>;

function sources(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full, ext));
    else if (ext.test(name)) out.push(full);
  }
  return out;
}

const placeholders = (text: string) => [...new Set(text.match(/\$\d/g) ?? [])].sort();

describe('Korean and English interface', () => {
  const en = read('en');
  const ko = read('ko');

  it("has words for every reason a list waits (the dashboard builds the key from the list's problem)", () => {
    for (const kind of LIST_PROBLEM_KINDS) {
      const key = `listProblem_${kind.replaceAll('-', '_')}`;
      expect(en[key]?.message, key).toBeTruthy();
      expect(ko[key]?.message, key).toBeTruthy();
    }
  });

  it('has the same keys in both languages, none empty, with the same placeholders', () => {
    expect(Object.keys(ko).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) {
      expect(en[key]!.message.trim(), key).not.toBe('');
      expect(ko[key]!.message.trim(), key).not.toBe('');
      expect(placeholders(ko[key]!.message), key).toEqual(placeholders(en[key]!.message));
    }
  });

  it('ships message files generated from scripts/locales.ts (none edited by hand or stale)', () => {
    for (const [key, [enText, koText]] of Object.entries(MESSAGES)) {
      expect(en[key]?.message, key).toBe(enText);
      expect(ko[key]?.message, key).toBe(koText);
    }
    expect(Object.keys(en).length).toBe(Object.keys(MESSAGES).length);
  });

  it('translates every key the code asks for', () => {
    const code = [...sources(path.join(ROOT, 'components'), /\.tsx?$/), ...sources(path.join(ROOT, 'utils'), /\.tsx?$/)];
    const used = new Set<string>();
    for (const file of code) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([A-Za-z0-9_]+)'/g)) used.add(m[1]!);
    }
    // Keys built from a value: every value they can take.
    for (const s of ['running', 'paused', 'stopped', 'failed', 'finished']) used.add(`state_${s}`);
    for (const w of ['captcha', 'consent', 'extractor', 'quota', 'restart']) used.add(`warning_${w}`);
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((k) => !(k in en))).toEqual([]);
  });

  it('has no literal user-facing text in components: every string a person reads goes through t()', () => {
    const offenders: string[] = [];
    for (const file of sources(path.join(ROOT, 'components'), /\.tsx$/)) {
      const text = readFileSync(file, 'utf8');
      // JSX text between tags, and text-bearing attributes given as literals.
      // (`=>` and TypeScript generics are not JSX: their `>` follows `=`, and code has brackets.)
      for (const m of text.matchAll(/(?<![=-])>\s*([^<>{}()[\]=;\n]*[A-Za-z가-힣][^<>{}()[\]=;\n]*)\s*</g)) {
        if (/^[A-Z]\w*$/.test(m[1]!.trim())) continue; // a type name before a generic's `<`
        offenders.push(`${path.basename(file)}: ${m[1]!.trim()}`);
      }
      for (const m of text.matchAll(/\b(?:placeholder|title|aria-label|alt)="([^"]*[A-Za-z가-힣][^"]*)"/g)) offenders.push(`${path.basename(file)}: ${m[1]}`);
    }
    expect(offenders).toEqual([]);
  });
});
