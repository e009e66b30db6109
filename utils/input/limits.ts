/**
 * How much of a place list is read, and how a refused or bad line is shown. The limits are
 * checked before anything is parsed, so a list over them is refused whole, with the reason,
 * never read in part (a half-read list would start a job the person did not confirm).
 *
 * - 50,000 lines: a list of 10,000 places (issue 40's "accepted" case) is a fifth of it. At the
 *   default pacing one place page costs ≈ 6.75 s (estimate.ts), so 50,000 places are ≈ 94 hours
 *   of loading in one lane; a longer list is better split into collections that each finish.
 *   Reading 50,000 lines takes well under a second (tests/unit/place-list-parse.test.ts).
 * - 20 MB: 50,000 long Google links (≈ 400 characters each) fit with room to spare; a file far
 *   larger than that is not a list of places. A caller reading a File checks `file.size`
 *   against it before reading the file at all.
 * - 4,096 characters a line: Google's longest place links (a Korean name percent-encoded, the
 *   `data=` blob, tracking parameters) stay under 1,500; a longer line is something else.
 */

export const MAX_LIST_LINES = 50_000;
export const MAX_LIST_BYTES = 20 * 1024 * 1024;
export const MAX_LINE_CHARS = 4_096;
/** A bad line's text is shown up to this many characters. */
export const SHOWN_CHARS = 200;

export interface ListLimits {
  maxLines: number;
  /** Compared with the text's length in UTF-16 units (≈ bytes for the links' ASCII). */
  maxBytes: number;
}

export const DEFAULT_LIST_LIMITS: ListLimits = { maxLines: MAX_LIST_LINES, maxBytes: MAX_LIST_BYTES };

/** `1,000,000`: numbers in reasons as people read them, whatever the browser's locale. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Why a text is too big to read, or null. `lines` counts every line, blank ones too (a file of
 * a million blank lines is not read either), without splitting the text.
 */
export function oversize(text: string, limits: ListLimits = DEFAULT_LIST_LIMITS): string | null {
  if (text.length > limits.maxBytes) {
    const mb = (text.length / (1024 * 1024)).toFixed(1);
    return `the list is ${mb} MB; at most ${(limits.maxBytes / (1024 * 1024)).toFixed(0)} MB is read at once: split it into smaller lists`;
  }
  const lines = lineCount(text);
  if (lines > limits.maxLines) {
    return `the list has ${count(lines)} lines; at most ${count(limits.maxLines)} are read at once: split it into lists of ${count(limits.maxLines)} lines or fewer`;
  }
  return null;
}

/** Lines of a text with `\n` line ends (a last line end closes the last line, it opens none). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * A line's text as it may be shown next to its reason: at most SHOWN_CHARS characters, and no
 * control or direction-changing characters (U+202E would show `moc.elgoog` as `google.com`).
 * Rendered as text by the UI, never as HTML.
 */
export function shownText(text: string): string {
  // Only the head is looked at: a bad "line" may be a whole file without line ends. Twice
  // SHOWN_CHARS UTF-16 units hold at least SHOWN_CHARS characters.
  const head = text.length > 2 * SHOWN_CHARS ? text.slice(0, 2 * SHOWN_CHARS) : text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters removed.
  const clean = head.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '\ufffd').replace(/[\t\n]/g, ' ');
  const chars = Array.from(clean);
  return chars.length <= SHOWN_CHARS && head === text ? clean : `${chars.slice(0, SHOWN_CHARS - 1).join('')}…`;
}
