/**
 * A filter's words against a place's text (its category texts, its name). Pure.
 *
 * Both sides are folded the same way: NFKC (full-width `ＣＡＦＥ` and half-width forms become
 * plain, decomposed Hangul is composed again), lower case, Latin accents dropped (`Café` is
 * `cafe`), runs of spaces one. Then a word with Hangul in it matches anywhere in the text
 * (`카페` in `북카페`: Korean compounds are written without spaces), and any other word only as a
 * whole word or phrase (`bar` in `Wine bar`, never in `Barber shop`), its edges next to anything
 * but a Latin letter or a digit.
 */

const COMBINING_LATIN = /[\u0300-\u036f]/g;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]/;
const WORD_CHAR = /[\p{Script=Latin}\p{Nd}]/u;

/** The form text and words are compared in. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(COMBINING_LATIN, '').normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function hasHangul(text: string): boolean {
  return HANGUL.test(text);
}

/** A word ready to be looked for: folded once, its way of matching decided once. */
export interface WordMatcher {
  word: string;
  folded: string;
  substring: boolean;
}

export function wordMatcher(word: string): WordMatcher {
  const folded = foldText(word);
  return { word, folded, substring: hasHangul(folded) };
}

/** Whether `m` occurs in already folded `text` by its rule (anywhere, or as a whole word). */
export function occursIn(m: WordMatcher, text: string): boolean {
  if (!m.folded) return false;
  if (m.substring) return text.includes(m.folded);
  for (let at = text.indexOf(m.folded); at !== -1; at = text.indexOf(m.folded, at + 1)) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + m.folded.length] ?? '';
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** Whether any of the words occurs in any of the texts (each text folded once). */
export function anyOccurs(matchers: readonly WordMatcher[], texts: readonly string[]): boolean {
  if (matchers.length === 0 || texts.length === 0) return false;
  const folded = texts.map(foldText);
  return matchers.some((m) => folded.some((t) => occursIn(m, t)));
}
