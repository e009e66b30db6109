/**
 * E-mail addresses in a page's text and links, including the obfuscations people write to hide
 * them from harvesters (`info [at] cafe [dot] com`), and the rules that keep what is not a
 * business's address out: file names, template placeholders, site-builder and error-tracker
 * addresses, addresses that refuse replies.
 *
 * Accepted local parts are a deliberately narrow dot-atom: letters, digits and `. _ + -`, first
 * character a letter, digit or `_`. RFC 5322 allows more (`! # $ % & ' * / = ? ^ ` { | } ~`), but
 * no business publishes such an address, in page text they are punctuation or markup, and a
 * local part that cannot start with `= + - @` cannot become a spreadsheet formula (the exports
 * neutralise those cells anyway). When such a character is glued to the front of an address
 * (`=cmd@x.com`) the whole token is refused rather than cut into an address the page never showed.
 *
 * A domain must end in a suffix of the Public Suffix List's ICANN section (tldts): `jquery@3.6.min`
 * and `logo@cafe.seoul`-like tokens are not addresses, and `info@카페.한국` is one.
 */
import { parse as parseHost } from 'tldts';
import { isBuilderDomain } from './builders';

export type TextEmailWriting = 'text' | 'obfuscated';

export interface TextEmail {
  email: string;
  how: TextEmailWriting;
}

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

const LOCAL_CHAR = /[A-Za-z0-9._+-]/;
const LOCAL_PART = /^[A-Za-z0-9_][A-Za-z0-9_+-]*(?:\.[A-Za-z0-9_+-]+)*$/;
/**
 * RFC 5322's dot-atom local part, for an address the page gives as an address (a `mailto:` link,
 * Cloudflare's encoding): nothing around it can be mistaken for part of it, so `=info@cafe.kr`
 * is the page's own address (hostile or not; exports neutralise it), where in text it is not.
 */
const ADDRESS_LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/**
 * Characters RFC 5322 allows in a local part that we do not, less the ones a sentence puts in
 * front of an address (quotes, slashes, brackets): glued to an address, they void it.
 */
const VOIDING_BEFORE = /[=!#$%&*?^~|@＠]/;
/** A label: ASCII letters, digits and hyphens, or (an IDN, left as written) letters of one other script. */
const ASCII_LABEL_CHAR = /[A-Za-z0-9-]/;
const OTHER_LABEL_CHAR = /[\p{L}\p{N}\p{M}-]/u;

/**
 * What stands for `@`: the sign itself (also full-width ＠ and small ﹫), or "at" / "@" in brackets
 * with a little space, or the bare word "at". Quantifiers are bounded: page text is hostile and may
 * be megabytes of one character.
 */
const AT_TOKEN = /[[({<]\s{0,3}(?:at|@)\s{0,3}[\])}>]|[@＠﹫]|(?<![A-Za-z])at(?![A-Za-z])/giu;
/** What stands for `.` between labels, bracketed or not; the bare word "dot" is read separately. */
const DOT_TOKEN = /^(?:\s{0,3}[[({<]\s{0,3}(?:dot|\.)\s{0,3}[\])}>]\s{0,3}|[.．])/iu;
const DOT_WORD = /^\s{1,3}dot\s{1,3}/i;

/** Addresses in running text, in order of appearance, each once (case-insensitively). */
export function findEmails(text: string): TextEmail[] {
  const found = new Map<string, TextEmail>();
  for (const match of text.matchAll(AT_TOKEN)) {
    const candidate = readAround(text, match.index, match[0]);
    if (!candidate || isCredit(text, candidate.start)) continue;
    const email = normaliseEmail(candidate.email);
    if (email && !found.has(email.toLowerCase())) found.set(email.toLowerCase(), { email, how: candidate.how });
  }
  return [...found.values()];
}

/**
 * A web agency's or host's credit in a footer ("design by studio@agency.co.kr", "홈페이지 제작:
 * …", "호스팅 제공 …"): the address after it is theirs. Only phrases that say who made or hosts
 * the site count (a sign maker's "간판제작 문의" or "Handmade by Jane" is the business's own),
 * and only in the phrase just before the address, up to a separator or a sentence's end, so
 * "Design by Studio | Contact: info@cafe.kr" is the cafe's.
 */
const CREDIT =
  /(?:^|[^a-z])(?:(?:web\s*)?design(?:ed)?\s+by|(?:developed|powered|hosted|maintained)\s+by|(?:web)?site\s+by|web\s*agency)(?![a-z])|홈페이지\s*제작|웹\s*에이전시|제작사|호스팅\s*(?:제공|업체|사)/i;
const PHRASE_END = /[|\n\r·•,;/]|[.!?](?=\s)|\s{3,}/g;

function isCredit(text: string, start: number): boolean {
  const before = text.slice(Math.max(0, start - 60), start);
  let from = 0;
  for (const m of before.matchAll(PHRASE_END)) from = m.index + m[0].length;
  return CREDIT.test(before.slice(from));
}

/** The address around one `@`-like token, or null when the token is not part of one. */
function readAround(text: string, at: number, token: string): (TextEmail & { start: number }) | null {
  const plain = token === '@';
  const bareWord = /^at$/i.test(token);
  // A bare "at" must stand between spaces ("info at cafe dot com"), or "meet at noon" would match.
  let left = at;
  let right = at + token.length;
  if (!plain && token !== '＠' && token !== '﹫') {
    const spacesLeft = text.slice(Math.max(0, at - 3), at).match(/\s*$/)![0].length;
    const spacesRight = text.slice(right, right + 3).match(/^\s*/)![0].length;
    if (bareWord && (spacesLeft === 0 || spacesRight === 0)) return null;
    left -= spacesLeft;
    right += spacesRight;
  }
  let start = left;
  while (start > 0 && left - start < MAX_LOCAL && LOCAL_CHAR.test(text[start - 1]!)) start--;
  // Longer than a local part may be, or glued to a character we refuse: not an address as written.
  if (start > 0 && (LOCAL_CHAR.test(text[start - 1]!) || VOIDING_BEFORE.test(text[start - 1]!))) return null;
  const local = text.slice(start, left);
  const domain = readDomain(text, right, bareWord);
  if (!local || !domain) return null;
  const how: TextEmailWriting = plain && !domain.obfuscated ? 'text' : 'obfuscated';
  return { email: `${local}@${domain.name}`, how, start };
}

/**
 * Labels and dots from `from` on. After a bare "at" only a written dot (the word, or a bracketed
 * dot) separates labels, and at least one must: "find us at cafe.com" is a sentence, not `us@cafe.com`.
 */
function readDomain(text: string, from: number, bareWord: boolean): { name: string; obfuscated: boolean } | null {
  const labels: string[] = [];
  let obfuscated = false;
  let i = from;
  for (;;) {
    const label = readLabel(text, i);
    if (!label) break;
    labels.push(label);
    i += label.length;
    if (i - from > MAX_DOMAIN) return null;
    const rest = text.slice(i, i + 16);
    const dot = rest.match(DOT_TOKEN) ?? rest.match(DOT_WORD);
    if (!dot) break;
    const next = readLabel(text, i + dot[0].length);
    // A dot not followed by a label ends the sentence, not the domain; nor does an ASCII label
    // continue into another script (`cafe.com.전화`), as an ASCII-only TLD must end the domain.
    if (!next || (isAscii(label) && !isAscii(next))) break;
    if (dot[0] === '.') {
      if (bareWord) return null;
    } else {
      obfuscated = true;
    }
    i += dot[0].length;
  }
  if (labels.length < 2 || (bareWord && !obfuscated)) return null;
  return { name: labels.join('.'), obfuscated };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is every code point up to 0x7f, control characters included.
const isAscii = (label: string) => /^[\x00-\x7f]*$/.test(label);

/** One label at `i`: ASCII, or one other script, never the two mixed (`cafe.com으로` ends at `com`). */
function readLabel(text: string, i: number): string {
  const first = text[i];
  if (first === undefined) return '';
  const ascii = ASCII_LABEL_CHAR.test(first);
  const pattern = ascii ? ASCII_LABEL_CHAR : OTHER_LABEL_CHAR;
  if (!ascii && !OTHER_LABEL_CHAR.test(first)) return '';
  let end = i;
  while (end < text.length && end - i < 63 && pattern.test(text[end]!) && (ascii || !/[A-Za-z0-9]/.test(text[end]!))) end++;
  // Letters or digits glued past 63 characters: not a label.
  if (end - i === 63 && end < text.length && pattern.test(text[end]!)) return '';
  return text.slice(i, end).replace(/-+$/, '');
}

/** TLDs that are file extensions, so `logo@2x.png` or `bg@3x.webp` are images, not addresses. */
const FILE_EXTENSIONS = new Set(
  'png jpg jpeg gif webp svg bmp ico tif tiff avif heic css js mjs json xml map txt htm html php asp aspx jsp pdf zip gz rar mp3 mp4 webm mov avi woff woff2 ttf otf eot'.split(
    ' ',
  ),
);
/**
 * Names of template and documentation domains (RFC 2606 and what themes ship with), under any
 * public suffix and any subdomain: `mail.example.com`, `example.co.kr`, `domain.co.kr`.
 */
const PLACEHOLDER_NAMES = new Set([
  'example',
  'domain',
  'yourdomain',
  'yoursite',
  'yourwebsite',
  'yourcompany',
  'mysite',
  'mydomain',
  'mycompany',
  'companyname',
  'sample',
]);
/** Template domains that are also real words of real domains elsewhere: only these exact ones. */
const PLACEHOLDER_DOMAINS = new Set(['email.com', 'company.com', 'website.com']);
/**
 * `Instagram@cafe.seoul`, `IG@cafe.official`: a profile's handle written after a network's name,
 * not a mailbox. Only names no business gives a mailbox (`blog@`, `kakao@` can be real ones).
 */
const HANDLE_PREFIXES = new Set(['instagram', 'insta', 'ig', 'facebook', 'fb', 'twitter', 'tiktok', 'youtube', 'threads', 'naver']);
const RESERVED_TLDS = new Set(['example', 'test', 'invalid', 'localhost', 'local']);
/** Local parts a theme or a form shows as a hint, not a mailbox (`name@`, `yourname@`, `test@`). */
const PLACEHOLDER_LOCALS = new Set([
  'name',
  'yourname',
  'your.name',
  'your-name',
  'your_name',
  'user',
  'username',
  'test',
  'example',
  'email',
  'youremail',
  'your.email',
  'your-email',
  'your_email',
  'someone',
  'xxx',
]);
/** An address that by its name takes no replies cannot be used to reach the business. */
const NO_REPLY = /^(?:no[-_.]?reply|do[-_.]?not[-_.]?reply|mailer-daemon)(?:[-_.+].*)?$/i;

/**
 * One candidate address (from text, a `mailto:` link or Cloudflare's encoding: `given`
 * 'as-address') as kept: the local part as written, the domain lower-cased; null when it is not a
 * business's address.
 */
export function normaliseEmail(candidate: string, given: 'in-text' | 'as-address' = 'in-text'): string | null {
  const trimmed = candidate
    .trim()
    .replace(/^[<("'[]+/, '')
    .replace(/[>)"'\].,;:!?]+$/, '');
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1).toLowerCase();
  if (local.length > MAX_LOCAL || !(given === 'as-address' ? ADDRESS_LOCAL_PART : LOCAL_PART).test(local)) return null;
  if (domain.length > MAX_DOMAIN) return null;
  const labels = domain.split('.');
  if (labels.length < 2) return null;
  for (const label of labels) {
    if (!label || label.length > 63 || label.startsWith('-') || label.endsWith('-')) return null;
    if (!/^(?:[a-z0-9-]+|[\p{L}\p{N}\p{M}-]+)$/u.test(label) || (/[a-z0-9]/.test(label) && /[^a-z0-9-]/.test(label))) return null;
  }
  const tld = labels[labels.length - 1]!;
  if (FILE_EXTENSIONS.has(tld) || RESERVED_TLDS.has(tld)) return null;
  const host = parseHost(domain);
  if (!host.isIcann || host.isIp || !host.domainWithoutSuffix) return null;
  if (PLACEHOLDER_NAMES.has(host.domainWithoutSuffix) || PLACEHOLDER_DOMAINS.has(domain) || PLACEHOLDER_LOCALS.has(local.toLowerCase())) return null;
  if (given === 'in-text' && HANDLE_PREFIXES.has(local.toLowerCase())) return null;
  // A site builder's, a host's or an error tracker's address (builders.ts): never the business's.
  if (isBuilderDomain(domain)) return null;
  if (NO_REPLY.test(local)) return null;
  return `${local}@${domain}`;
}

/**
 * Cloudflare's e-mail obfuscation (`data-cfemail="…"`, `/cdn-cgi/l/email-protection#…`): hex
 * bytes, the first the XOR key of the rest, which are the address in UTF-8.
 */
export function decodeCloudflareEmail(hex: string): string | null {
  if (!/^(?:[0-9a-f]{2}){2,256}$/i.test(hex)) return null;
  const key = parseInt(hex.slice(0, 2), 16);
  const bytes = new Uint8Array(hex.length / 2 - 1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16) ^ key;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The addresses of a `mailto:` URL: percent-escapes decoded, `?subject=…` dropped, `a@x, b@y` split. */
export function mailtoAddresses(href: string): string[] {
  const body = href.replace(/^\s*mailto:/i, '').split('?')[0]!;
  let decoded = body;
  try {
    decoded = decodeURIComponent(body);
  } catch {
    // A stray `%` that is no escape: the address as written is still worth reading.
  }
  // `Cafe <info@cafe.com>` is allowed in a mailto and seen on pages; the address is in the brackets.
  return decoded
    .split(/[,;]/)
    .map((part) => part.match(/<([^<>]*)>/)?.[1] ?? part)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
