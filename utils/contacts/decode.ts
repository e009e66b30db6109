/**
 * A fetched page's bytes as text, in the order a browser decides the charset (WHATWG Encoding,
 * HTML "determining the character encoding"): byte order mark, then the Content-Type charset,
 * then a `<meta>` in the first 1024 bytes. TextDecoder only, so it runs in the service worker.
 *
 * Labels are resolved by TextDecoder itself, which implements the WHATWG label table
 * (`ks_c_5601-1987`, `korean`, `windows-949` → `euc-kr`, decoded as the windows-949 superset).
 */

/** Bytes the HTML spec's prescan reads before it gives up on a `<meta>` declaration. */
const PRESCAN_BYTES = 1024;

/**
 * Labels older Korean sites write that the WHATWG table lacks. A browser in a Korean locale falls
 * back to EUC-KR for an unknown label, so these pages render as EUC-KR for their readers; we
 * name it directly instead of guessing.
 */
const KOREAN_ALIASES = new Set(['cp949', 'ms949', 'uhc', 'x-windows-949']);

export interface DecodedPage {
  text: string;
  /** The encoding's WHATWG name (`utf-8`, `euc-kr`, `windows-1252`, …). */
  charset: string;
}

export function decodePage(bytes: Uint8Array, contentType: string | null): DecodedPage {
  const declared = bomEncoding(bytes) ?? encodingOfLabel(contentTypeCharset(contentType)) ?? prescanMeta(bytes);
  if (declared) return { text: new TextDecoder(declared).decode(bytes), charset: declared };
  // Nothing declared: many older Korean sites declare nothing and are EUC-KR. Valid UTF-8 is
  // almost never valid by accident, so a clean UTF-8 decode decides. `stream: true` keeps a
  // multi-byte character cut by the fetcher's size cap from counting as invalid.
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8' };
  } catch {
    return { text: new TextDecoder('euc-kr').decode(bytes), charset: 'euc-kr' };
  }
}

function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The WHATWG encoding a label names, or null for an unknown label (which a browser ignores). */
function encodingOfLabel(label: string | null): string | null {
  if (label === null) return null;
  const trimmed = label.trim().toLowerCase();
  if (KOREAN_ALIASES.has(trimmed)) return 'euc-kr';
  // The spec maps x-user-defined to windows-1252 for a <meta>; Node's TextDecoder lacks it, and
  // the two agree on every ASCII byte, which is all an address or a link is made of.
  if (trimmed === 'x-user-defined') return 'windows-1252';
  try {
    return new TextDecoder(trimmed).encoding;
  } catch {
    // Unknown, or the "replacement" encoding (iso-2022-kr, hz-gb-2312…) TextDecoder refuses:
    // fall through to the next source, as for an unknown label.
    return null;
  }
}

/** The `charset` parameter of a Content-Type value (the first one, as WHATWG MIME parsing). */
function contentTypeCharset(contentType: string | null): string | null {
  if (!contentType) return null;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = param.slice(eq + 1).trim();
    return value.startsWith('"') ? value.slice(1).split('"')[0]! : value;
  }
  return null;
}

const isSpace = (b: number | undefined) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
const lower = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

/**
 * The HTML spec's "prescan a byte stream to determine its encoding", over the first 1024 bytes:
 * comments and other tags are skipped so a `charset` in a comment or a script string does not count.
 */
function prescanMeta(all: Uint8Array): string | null {
  const bytes = all.subarray(0, PRESCAN_BYTES);
  const startsWith = (at: number, ascii: string) => {
    for (let k = 0; k < ascii.length; k++) if (lower(bytes[at + k] ?? 0) !== ascii.charCodeAt(k)) return false;
    return true;
  };
  let i = 0;
  while (i < bytes.length) {
    if (startsWith(i, '<!--')) {
      const end = indexOfAscii(bytes, '-->', i + 2);
      if (end < 0) return null;
      i = end + 3;
    } else if (startsWith(i, '<meta') && (isSpace(bytes[i + 5]) || bytes[i + 5] === 0x2f)) {
      i += 6;
      const found = metaEncoding(bytes, i);
      if (found.encoding) return found.encoding;
      i = found.end;
    } else if (bytes[i] === 0x3c && isAsciiLetter(bytes[i + 1] ?? 0)) {
      i = skipTag(bytes, i + 1);
    } else if (bytes[i] === 0x3c && bytes[i + 1] === 0x2f && isAsciiLetter(bytes[i + 2] ?? 0)) {
      i = skipTag(bytes, i + 2);
    } else if (bytes[i] === 0x3c && (bytes[i + 1] === 0x21 || bytes[i + 1] === 0x2f || bytes[i + 1] === 0x3f)) {
      const end = bytes.indexOf(0x3e, i);
      if (end < 0) return null;
      i = end + 1;
    } else {
      i++;
    }
  }
  return null;
}

const isAsciiLetter = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);

function indexOfAscii(bytes: Uint8Array, ascii: string, from: number): number {
  outer: for (let i = from; i + ascii.length <= bytes.length; i++) {
    for (let k = 0; k < ascii.length; k++) if (bytes[i + k] !== ascii.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}

/** Past a non-meta tag: its name, then its attributes (a `>` inside a quoted value does not end it). */
function skipTag(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i < bytes.length && !isSpace(bytes[i]) && bytes[i] !== 0x3e) i++;
  for (;;) {
    const attribute = readAttribute(bytes, i);
    i = attribute.end;
    if (!attribute.name) return i;
  }
}

/** The spec's steps for a `<meta>`: charset, or http-equiv=content-type with a content charset. */
function metaEncoding(bytes: Uint8Array, at: number): { encoding: string | null; end: number } {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  let charset: string | null = null;
  let i = at;
  for (;;) {
    const attribute = readAttribute(bytes, i);
    i = attribute.end;
    if (!attribute.name) break;
    if (seen.has(attribute.name)) continue;
    seen.add(attribute.name);
    if (attribute.name === 'http-equiv') {
      if (attribute.value === 'content-type') gotPragma = true;
    } else if (attribute.name === 'content') {
      const label = charsetInContent(attribute.value);
      if (label !== null && charset === null) {
        charset = encodingOfLabel(label);
        needPragma = true;
      }
    } else if (attribute.name === 'charset') {
      charset = encodingOfLabel(attribute.value);
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma) || charset === null) return { encoding: null, end: i };
  // A page cannot really be UTF-16 if its ASCII prescan just read it.
  if (charset === 'utf-16be' || charset === 'utf-16le') charset = 'utf-8';
  return { encoding: charset, end: i };
}

/** The spec's "get an attribute"; names and values lower-cased as the spec does. `name` '' = none left. */
function readAttribute(bytes: Uint8Array, at: number): { name: string; value: string; end: number } {
  let i = at;
  while (i < bytes.length && (isSpace(bytes[i]) || bytes[i] === 0x2f)) i++;
  if (i >= bytes.length || bytes[i] === 0x3e) return { name: '', value: '', end: i + 1 };
  let name = '';
  let value = '';
  for (;;) {
    const b = bytes[i];
    if (b === undefined) return { name, value, end: i };
    if (b === 0x3d && name !== '') {
      i++;
      break;
    }
    if (isSpace(b)) {
      while (isSpace(bytes[i])) i++;
      if (bytes[i] !== 0x3d) return { name, value, end: i };
      i++;
      break;
    }
    if (b === 0x2f || b === 0x3e) return { name, value, end: i };
    name += String.fromCharCode(lower(b));
    i++;
  }
  while (isSpace(bytes[i])) i++;
  const quote = bytes[i];
  if (quote === 0x22 || quote === 0x27) {
    i++;
    while (i < bytes.length && bytes[i] !== quote) {
      value += String.fromCharCode(lower(bytes[i]!));
      i++;
    }
    return { name, value, end: i + 1 };
  }
  while (i < bytes.length && !isSpace(bytes[i]) && bytes[i] !== 0x3e) {
    value += String.fromCharCode(lower(bytes[i]!));
    i++;
  }
  return { name, value, end: i };
}

/** The spec's "extracting a character encoding from a meta element" (`text/html; charset=euc-kr`). */
function charsetInContent(content: string): string | null {
  let from = 0;
  for (;;) {
    const at = content.indexOf('charset', from);
    if (at < 0) return null;
    let i = at + 7;
    while (/\s/.test(content[i] ?? '')) i++;
    if (content[i] !== '=') {
      from = i;
      continue;
    }
    i++;
    while (/\s/.test(content[i] ?? '')) i++;
    const quote = content[i];
    if (quote === '"' || quote === "'") {
      const end = content.indexOf(quote, i + 1);
      return end < 0 ? null : content.slice(i + 1, end);
    }
    const rest = content.slice(i).match(/^[^\s;]+/);
    return rest ? rest[0] : null;
  }
}
