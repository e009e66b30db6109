/**
 * A map page made safe to attach to a bug report (issue 41): the page's DOM with the personal
 * and business content removed, and kept what MapSweep's readers depend on.
 *
 * Kept: the DOM structure (every element, its tag, its attributes' names), `class`, `role`,
 * `id`, `jsaction` and the other attributes that name the page's own parts, the site's interface
 * words (interface-words.ts), the shape of everything else. Redacted:
 * - text: each letter becomes a letter of its script and case (a/A, 가, 一, α, а, …), each digit
 *   a digit, so a phone still looks like a phone ("00-0000-0000"), a time like a time ("00:00"),
 *   a rating like a rating ("0.0"); punctuation, spaces, symbols and icon glyphs stay. A text
 *   that is an interface phrase is kept whole; one with a number and otherwise only interface words
 *   keeps its words ("0.0 stars 0,000 Reviews"), but with no number only a whole phrase is kept (a
 *   name made of interface words is still a name); a template keeps its fixed part ("Results for …").
 * - ids: a run of 5 or more digits, a `0x…` feature id, a `ChIJ…` place id and any long opaque
 *   token (16+ letters and digits, mixed) become stand-ins of the same shape, numbered in order of
 *   appearance: the same id gets the same stand-in everywhere in the page (a card's link, its
 *   data attribute and the page's data still agree) and two ids never share one.
 * - attributes that carry content (`aria-label`, `title`, `alt`, `value`, `placeholder`, meta
 *   `content`, `data-*` values) as text; URLs keep scheme, the sites' own hosts and the path's
 *   shape (the sites' own path words, as /maps/place/, but none after place, search, dir,
 *   preview: free text; redactUrl, also the report's address), lose query values (keys stay) and
 *   fragment; a `javascript:` URL becomes `about:blank`, a `data:` URL loses its payload.
 * - scripts: a small tokenizer keeps the code and the JSON structure (brackets, commas, numbers'
 *   shape, `null`/`true`/`false`, identifiers, object keys, Apollo `__typename`s) and redacts every
 *   string's content and every number; code that valid JavaScript could not be (a string's content
 *   misread as code) is shaped too (script()).
 * - styles are kept, their `url(...)`s redacted as URLs, their strings' content shaped (`content:
 *   "…"`, `--who: '…'`); comments are dropped.
 * - `class` is kept but for a token that is an e-mail, a phone number or holds a long digit run;
 *   the attributes that name the page's parts (CODE_ATTRS, Google's js*, aria-* references) are
 *   kept but for ids, e-mails and phones (with dashes, dots or spaces); a `data-*` value that is no
 *   text, and any other attribute's value, keeps only the readers' DATA_WORDS.
 * Anything left as it was (an id, a class of styles, code) still loses e-mails, phone numbers
 * and ids.
 *
 * Pure and deterministic: no randomness, no clock; the same page gives the same bytes.
 */
import type { InterfaceWords } from './interface-words';

export interface RedactOptions {
  /** The site's interface words (interface-words.ts): what stays as the page says it. */
  keep: InterfaceWords;
}

export interface RedactionStats {
  elements: number;
  /** Text nodes (not in scripts or styles, not blank): kept whole, partly kept (words kept, numbers redacted), redacted. */
  textNodes: { kept: number; partly: number; redacted: number };
  /** Attribute values left as they were, and changed (of which URLs). */
  attributes: { kept: number; redacted: number; urls: number };
  /** Inline scripts whose strings and numbers were redacted, and their characters. */
  scripts: { redacted: number; chars: number };
  /** Style elements kept (their url()s redacted). */
  styles: number;
  commentsDropped: number;
  /** Distinct ids replaced by stand-ins (digit runs, feature ids, place ids, opaque tokens). */
  ids: number;
}

export interface RedactedCapture {
  /** A complete HTML document (its doctype kept). */
  html: string;
  stats: RedactionStats;
}

export function redactDocument(doc: Document, opts: RedactOptions): RedactedCapture {
  const r = new Redactor(opts.keep);
  const html = r.document(doc);
  return { html, stats: r.stats() };
}

export function redactHtml(html: string, parse: (html: string) => Document, opts: RedactOptions): RedactedCapture {
  return redactDocument(parse(html), opts);
}

const NO_WORDS: InterfaceWords = { phrases: [], words: [], sentences: [], templates: [] };

/** A text's shape alone, no interface word kept (digit runs of 5 or more numbered from 1 within the call). */
export function placeholderText(text: string): string {
  return new Redactor(NO_WORDS).shape(text);
}

/**
 * One URL as a redacted page writes it (the rule of `href`s): the sites' hosts and path words kept,
 * free text (after `/search/`, `/place/`, `/dir/`, `/preview/`, `/contrib/`), other hosts, names and
 * ids shaped, query values and the fragment dropped (ids numbered from 1 within the call).
 */
export function redactUrl(url: string): string {
  return new Redactor(NO_WORDS).url(url);
}

// ---------------------------------------------------------------------------------------------
// Characters

/** The stand-in of one letter: same script, same case. */
function letterFor(ch: string, cp: number): string {
  if (cp < 0x80) return cp <= 0x5a ? 'A' : 'a';
  if (cp >= 0xac00 && cp <= 0xd7a3) return '가';
  if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xd7b0 && cp <= 0xd7ff)) return 'ㅇ';
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x3134f) || cp === 0x3005)
    return '一';
  if (cp >= 0x3040 && cp <= 0x309f) return 'あ';
  if ((cp >= 0x30a0 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f)) return 'ア';
  const upper = ch !== ch.toLowerCase();
  if ((cp >= 0x370 && cp <= 0x3ff) || (cp >= 0x1f00 && cp <= 0x1fff)) return upper ? 'Α' : 'α';
  if (cp >= 0x400 && cp <= 0x52f) return upper ? 'А' : 'а';
  if (cp >= 0x590 && cp <= 0x5ff) return 'א';
  if (
    (cp >= 0x600 && cp <= 0x6ff) ||
    (cp >= 0x750 && cp <= 0x77f) ||
    (cp >= 0x8a0 && cp <= 0x8ff) ||
    (cp >= 0xfb50 && cp <= 0xfdff) ||
    (cp >= 0xfe70 && cp <= 0xfeff)
  )
    return 'ا';
  if (cp >= 0xe00 && cp <= 0xe7f) return 'ก';
  if (cp >= 0x900 && cp <= 0x97f) return 'क';
  if (cp >= 0xff21 && cp <= 0xff5a) return upper ? 'Ａ' : 'ａ';
  if (cp <= 0x24f || (cp >= 0x1e00 && cp <= 0x1eff) || (cp >= 0x2c60 && cp <= 0x2c7f) || (cp >= 0xa720 && cp <= 0xa7ff)) return upper ? 'A' : 'a';
  return upper ? 'X' : 'x';
}

const MARK = /\p{M}/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const DIGIT = /^\p{N}$/u;

/** A run of letters as stand-ins; combining marks are dropped (the letter they sit on stands for both). */
function shapeLetters(run: string): string {
  let out = '';
  for (const ch of run) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x300 && MARK.test(ch)) continue;
    out += letterFor(ch, cp);
  }
  return out;
}

/** One letter or digit's stand-in (for escaped characters in scripts). */
function charFor(ch: string): string {
  if (DIGIT.test(ch)) return '0';
  if (MARK.test(ch)) return '';
  return letterFor(ch, ch.codePointAt(0)!);
}

const LETTER_RUNS = /[\p{L}\p{M}]+/gu;
const HAS_NUMBER = /\p{N}/u;

/**
 * What shape() walks: a feature id `0x…` (1), a long opaque token of letters and digits (2), a
 * `ChIJ…` place id (3), a digit run (4), a letter run (5), another numeral (6). The rest is kept.
 */
const SHAPE_TOKENS =
  /(?<![0-9A-Za-z])(0[xX][0-9a-fA-F]{4,16})(?![0-9A-Za-z])|(?<![A-Za-z0-9])(ChIJ[\w-]{8,})|(?<![A-Za-z0-9])((?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,})(?![A-Za-z0-9])|([0-9]+)|([\p{L}\p{M}]+)|(\p{N})/gu;

/**
 * What scrub() replaces in a value otherwise kept: an e-mail (1), a feature id (2), a place id (3),
 * a phone number written with dashes or dots (4), an opaque token (5), a run of 5+ digits (6), a
 * phone number written with spaces (7: "+82 10 1234 5678", "010 1234 5678").
 */
const SCRUB_TOKENS =
  /(?<![\w.+-])([\w.+-]+@[\w-]+(?:\.[\w-]+)+)|(?<![0-9A-Za-z])(0[xX][0-9a-fA-F]{4,16})(?![0-9A-Za-z])|(?<![A-Za-z0-9])(ChIJ[\w-]{8,})|(?<![\w.])((?:\+\d{1,3}[-. ]?)?\(?0?\d{1,4}\)?[-.]\d{3,4}[-.]\d{4})(?![\w])|(?<![A-Za-z0-9])((?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{16,})(?![A-Za-z0-9])|(?<!\d)(\d{5,})|(?<![\w.+])(\+\d{1,3}(?: \(?\d{1,4}\)?){1,2} \d{3,4} \d{4}|\(?0\d{1,3}\)? \d{3,4} \d{4})(?![\w.])/g;

/** Escapes in a script's string: a backslash run and what it escapes. */
const JS_ESCAPE = /\\+(?:u[dD][89abAB][0-9a-fA-F]{2}\\+u[dD][c-fC-F][0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])?/g;
/** An escaped surrogate pair: a letter beyond the first plane (a rare Han character) is still a letter. */
const JS_ESCAPE_PAIR = /^(\\+)u([dD][89abAB][0-9a-fA-F]{2})\\+u([dD][c-fC-F][0-9a-fA-F]{2})$/;
const JS_ESCAPE_PARTS = /^(\\+)(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))$/;

// ---------------------------------------------------------------------------------------------
// Attributes

/** Left exactly as they are: they name the page's parts, never a business (`class` too, but for e-mails, phones and ids: classValue). */
const VERBATIM_ATTRS = new Set(['role', 'xmlns', 'xmlns:xlink', 'xmlns:svg']);
/** Their value is text a person reads. */
const CONTENT_ATTRS = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'aria-placeholder',
  'aria-braillelabel',
  'aria-brailleroledescription',
  'title',
  'alt',
  'placeholder',
  'value',
  'label',
  'summary',
  'abbr',
  'download',
  'standby',
  'prompt',
  'srcdoc',
]);
const URL_ATTRS = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'cite',
  'background',
  'longdesc',
  'usemap',
  'manifest',
  'codebase',
  'data',
  'xlink:href',
  'itemid',
  'lowsrc',
  'dynsrc',
  'icon',
  'profile',
  'archive',
  'classid',
]);
/** Meta names whose `content` is the page's settings, not its subject. */
const SETTINGS_META = new Set([
  'viewport',
  'referrer',
  'google',
  'googlebot',
  'robots',
  'twitter:card',
  'format-detection',
  'theme-color',
  'color-scheme',
  'og:type',
  'og:locale',
  'og:image:width',
  'og:image:height',
  'apple-mobile-web-app-capable',
  'mobile-web-app-capable',
  'x-ua-compatible',
  'content-type',
  'content-language',
  'origin-trial',
]);

/**
 * Words a `data-*` value or an unknown attribute's value may keep (compared ignoring case): what
 * the readers match (utils/providers/*: Google's `data-item-id` "address", "authority", "oloc",
 * "phone:tel:…", Kakao's `data-id` "screenOutName", "scoreNum"…, Naver's `data-laim-exp-id`
 * "undefined*e") and the enumerated values the real captures show. Any other letter run in such a
 * value is shaped: "starbucks" and "kimMinjun" are names written as identifiers.
 */
const DATA_WORDS = new Set(
  [
    // Google data-item-id (place.ts, the captures), data-value, data-tooltip-alignment, data-style
    'address',
    'laddress',
    'authority',
    'oloc',
    'menu',
    'phone',
    'tel',
    'action',
    'place',
    'info',
    'links',
    'standard',
    'newmaps',
    'mylocation',
    // Kakao data-id (list-dom.ts, place-page.ts)
    'subcategory',
    'screenOutName',
    'scoreNum',
    'numberofscore',
    'periodTxt',
    'otherAddr',
    'moreview',
    'phone',
    // Naver data-laim-exp-id, data-chunk, data-nclicks-area-code, data-did
    'undefined',
    'undefinedundefined',
    'all',
    'restaurantList',
    'map',
    // values of the attributes themselves
    'true',
    'false',
    'null',
    'none',
    'auto',
    'on',
    'off',
    'yes',
    'no',
    'button',
    'submit',
    'reset',
    'text',
    'search',
    'hidden',
    'checkbox',
    'radio',
    'list',
    'dialog',
    'grid',
    'menu',
    'listbox',
    'tree',
    'polite',
    'assertive',
    'ltr',
    'rtl',
    'href',
    'src',
  ].map((w) => w.toLowerCase()),
);
/**
 * Attributes (not content, not URLs, not data-*) whose value is the page's code: ids and references
 * to ids, Google's js* bindings, enumerated values, SVG geometry and paint. Kept but for e-mails,
 * phone numbers and ids; any other attribute's value is redacted but for DATA_WORDS (`<input name>`
 * is a form field's name, a business's own attribute may say anything).
 */
const CODE_ATTRS = new Set([
  'id',
  'for',
  'form',
  'list',
  'headers',
  'itemref',
  'slot',
  'part',
  'is',
  'nonce',
  'integrity',
  'type',
  'rel',
  'rev',
  'as',
  'lang',
  'xml:lang',
  'hreflang',
  'dir',
  'charset',
  'http-equiv',
  'httpequiv',
  'property',
  'itemprop',
  'itemtype',
  'itemscope',
  'crossorigin',
  'decoding',
  'loading',
  'fetchpriority',
  'referrerpolicy',
  'target',
  'method',
  'enctype',
  'accept',
  'autocomplete',
  'autocapitalize',
  'autocorrect',
  'inputmode',
  'enterkeyhint',
  'spellcheck',
  'translate',
  'contenteditable',
  'draggable',
  'hidden',
  'inert',
  'disabled',
  'checked',
  'selected',
  'readonly',
  'required',
  'multiple',
  'open',
  'async',
  'defer',
  'nomodule',
  'tabindex',
  'accesskey',
  'media',
  'sizes',
  'size',
  'maxlength',
  'minlength',
  'min',
  'max',
  'step',
  'pattern',
  'rows',
  'cols',
  'rowspan',
  'colspan',
  'span',
  'start',
  'reversed',
  'scope',
  'shape',
  'coords',
  'width',
  'height',
  'border',
  'align',
  'valign',
  'color',
  'bgcolor',
  'frameborder',
  'scrolling',
  'allow',
  'allowfullscreen',
  'sandbox',
  'popover',
  'popovertarget',
  'popovertargetaction',
  // SVG geometry and paint
  'd',
  'points',
  'viewbox',
  'transform',
  'gradienttransform',
  'patterntransform',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'dx',
  'dy',
  'offset',
  'fill',
  'fill-rule',
  'fill-opacity',
  'clip-rule',
  'clip-path',
  'clippathunits',
  'mask',
  'filter',
  'filterunits',
  'gradientunits',
  'patternunits',
  'primitiveunits',
  'maskunits',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'stop-color',
  'stop-opacity',
  'opacity',
  'stddeviation',
  'in',
  'in2',
  'result',
  'values',
  'mode',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'preserveaspectratio',
  'version',
  'focusable',
  'visibility',
  'display',
  'overflow',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'vector-effect',
  'shape-rendering',
  'color-interpolation-filters',
  // Google's own bindings and tracking (jsaction, jsname, jslog, jstcache, ved…)
  'ved',
  'vet',
  've-visible',
  'guidedhelpid',
  'ng-non-bindable',
  'attributionsrc',
  'splugin-id',
]);
/** Google's template and event bindings: `jsaction`, `jsname`, `jsan`, `jslog`, `jstcache`, `jsdata`… */
const JS_BINDING_ATTR = /^js[a-z]*$/;
/** A value codeWords() reads (one token of printable ASCII); another is a text. */
const CODE_TOKEN = /^[\x21-\x7e]+$/;
const NON_ASCII = /[^\p{ASCII}]/u;
const LOOKS_LIKE_URL = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\/[^\s]+\s*$/i;
/** A valid attribute name to write back: none of the characters that would end it. */
const ATTR_NAME = /^[^\s"'>/=\p{Cc}]+$/u;

// ---------------------------------------------------------------------------------------------
// URLs

/** The sites' own hosts and their static hosts: kept in URLs. Any other host is redacted. */
const KNOWN_HOST =
  /(?:^|\.)(?:google\.[a-z.]+|gstatic\.com|googleapis\.com|googleusercontent\.com|ggpht\.com|googletagmanager\.com|google-analytics\.com|googleadservices\.com|googlesyndication\.com|doubleclick\.net|youtube\.com|ytimg\.com|naver\.com|naver\.net|pstatic\.net|navercorp\.com|kakao\.com|kakaocdn\.net|daum\.net|daumcdn\.net|kakaomobility\.com|schema\.org|w3\.org)$/i;
const URL_PARTS = /^([a-zA-Z][a-zA-Z0-9+.-]*:)?(\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#[\s\S]*)?$/;
/** A path segment that is the site's own word (/maps/place/, /restaurant/, /places/tab/reviews/). */
const PLAIN_SEGMENT = /^[a-z_][a-z_-]{0,31}$/;
/**
 * Segments after which the sites write free text (a place's name, a query, directions' stops, a
 * user): the segments that follow are never kept as words, up to an id (a run of digits: Naver's
 * `/place/1717860225/home` keeps `home`) or one of these words again (`/maps/preview/place`).
 */
const FREE_TEXT_AFTER = new Set(['place', 'search', 'dir', 'preview', 'contrib']);
/** Google's map position segment: "@37.5,127.0,17z". */
const POSITION_SEGMENT = /^@(?:-?\d+(?:\.\d+)?[a-z]?,?)+$/;
const QUERY_KEY = /^[\w.[\]-]{1,40}$/;
const SEGMENT_SAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@]/gu;
const INERT_URL = 'about:blank';

// ---------------------------------------------------------------------------------------------
// Styles

/** What css() walks: a comment, a `url(…)` (1 quote, 2 the URL), a double-quoted (3, 4 its end) or single-quoted (5, 6) string. */
const CSS_TOKENS = /\/\*[\s\S]*?(?:\*\/|$)|url\(\s*(['"]?)([^'")]*)\1\s*\)|"((?:[^"\\\n]|\\[\s\S])*)("?)|'((?:[^'\\\n]|\\[\s\S])*)('?)/gi;
/** An escape in a CSS string: a code point in hex (1), or one character. */
const CSS_ESCAPE = /\\(?:([0-9a-fA-F]{1,6})\s?|[\s\S])/g;

// ---------------------------------------------------------------------------------------------
// Scripts

const JS_TYPES = new Set([
  '',
  'text/javascript',
  'application/javascript',
  'module',
  'application/json',
  'application/ld+json',
  'importmap',
  'speculationrules',
  'text/ecmascript',
  'application/ecmascript',
  'application/x-javascript',
  'text/x-javascript',
  'text/jscript',
]);
/** After these words a `/` starts a regular expression. */
const REGEX_AFTER_WORDS = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);
/**
 * The other keywords (and contextual ones): beside them a name, a number or a string is valid code
 * (`var x`, `import x from 'y'`, `get x()`), so they never mark a stretch of code as misread.
 */
const JS_WORDS = new Set([
  'var',
  'let',
  'const',
  'function',
  'class',
  'extends',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'if',
  'for',
  'while',
  'with',
  'switch',
  'try',
  'catch',
  'finally',
  'break',
  'continue',
  'default',
  'debugger',
  'import',
  'export',
  'from',
  'as',
  'async',
  'get',
  'set',
  'enum',
  'super',
  'this',
  'declare',
  'type',
  'namespace',
  'module',
  'readonly',
  'abstract',
  'accessor',
  'satisfies',
  'using',
]);
/** A misread stretch of a script this long or shorter is shaped whole; in a longer one, this many pieces either side of where it was caught. */
const MISREAD_STRETCH = 400;
const MISREAD_AROUND = 12;
/** A string's content that may be JSON: `[` or `{`, after Google's `)]}'` line if any. */
const NESTED_JSON_START = /^(?:\)\]\}'(?:\\n)?)?(?:\s|\\[nrt])*[[{]/;
const JS_KEY = /^[A-Za-z_$][\w$-]{0,63}$/;
const JS_KEY_PREFIX = /^([A-Za-z_$][\w$]{0,63})([:(][\s\S]*)$/;
const JS_NUMBER = /0[xX][0-9a-fA-F_]+n?|0[bBoO][0-9_]+n?|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?n?/y;

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
  'param',
  'keygen',
  'basefont',
  'bgsound',
  'frame',
]);
const HTML_NS = 'http://www.w3.org/1999/xhtml';

type TextKind = 'kept' | 'partly' | 'redacted';

interface Matcher {
  phrases: Set<string>;
  words: Set<string>;
  sentences: readonly RegExp[];
  templates: { prefix: string; suffix: string }[];
}

const matchers = new WeakMap<InterfaceWords, Matcher>();

function compile(keep: InterfaceWords): Matcher {
  const known = matchers.get(keep);
  if (known) return known;
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const m: Matcher = {
    phrases: new Set(keep.phrases.map(norm)),
    words: new Set(keep.words.map((w) => w.toLowerCase())),
    sentences: keep.sentences.map((re) => new RegExp(re.source, re.flags.replace(/[gy]/g, ''))),
    templates: keep.templates.map((t) => ({
      prefix: (t.prefix ?? '').replace(/\s+/g, ' ').toLowerCase(),
      suffix: (t.suffix ?? '').replace(/\s+/g, ' ').toLowerCase(),
    })),
  };
  matchers.set(keep, m);
  return m;
}

function escapeText(s: string): string {
  return s.replace(/[&<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
}

function escapeAttr(s: string): string {
  return s.replace(/[&"<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '"' ? '&quot;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
}

class Redactor {
  private readonly m: Matcher;
  private readonly digitIds = new Map<string, string>();
  private readonly hexIds = new Map<string, string>();
  private readonly tokenIds = new Map<string, string>();
  private readonly counts = {
    elements: 0,
    textKept: 0,
    textPartly: 0,
    textRedacted: 0,
    attrsKept: 0,
    attrsRedacted: 0,
    urls: 0,
    scripts: 0,
    scriptChars: 0,
    styles: 0,
    comments: 0,
  };

  constructor(keep: InterfaceWords) {
    this.m = compile(keep);
  }

  stats(): RedactionStats {
    const c = this.counts;
    return {
      elements: c.elements,
      textNodes: { kept: c.textKept, partly: c.textPartly, redacted: c.textRedacted },
      attributes: { kept: c.attrsKept, redacted: c.attrsRedacted, urls: c.urls },
      scripts: { redacted: c.scripts, chars: c.scriptChars },
      styles: c.styles,
      commentsDropped: c.comments,
      ids: this.digitIds.size + this.hexIds.size + this.tokenIds.size,
    };
  }

  // --- stand-ins -------------------------------------------------------------------------------

  /** Short digit runs become zeros; a run of 5 or more, an id, becomes a numbered stand-in of its length. */
  private digits(run: string): string {
    if (run.length < 5) return '0'.repeat(run.length);
    const known = this.digitIds.get(run);
    if (known) return known;
    const n = String(this.digitIds.size + 1);
    const body = n.padStart(run.length - 1, '0').slice(-(run.length - 1));
    const stand = (run[0] === '0' ? '0' : '1') + body;
    this.digitIds.set(run, stand);
    return stand;
  }

  private hexId(id: string): string {
    const key = id.toLowerCase();
    const known = this.hexIds.get(key);
    if (known) return known;
    const hex = (this.hexIds.size + 1).toString(16);
    const width = id.length - 2;
    const stand = `0x${hex.padStart(width, '0').slice(-width)}`;
    this.hexIds.set(key, stand);
    return stand;
  }

  /** An opaque token (a review id, a place id, a tracking token): its shape, ending in its number. */
  private token(tok: string): string {
    const known = this.tokenIds.get(tok);
    if (known) return known;
    const n = String(this.tokenIds.size + 1);
    const shaped = tok.replace(/[A-Z]/g, 'A').replace(/[a-z]/g, 'a').replace(/[0-9]/g, '0');
    const tail = n.padStart(Math.min(6, tok.length), '0');
    const stand = shaped.slice(0, tok.length - tail.length) + tail.slice(-tok.length);
    this.tokenIds.set(tok, stand);
    return stand;
  }

  /**
   * The placeholder of a text: letters and digits replaced, ids numbered, the rest kept. With
   * `keepWord`, a letter run it accepts stays as written.
   */
  shape(s: string, keepWord?: (run: string) => boolean): string {
    return s.replace(SHAPE_TOKENS, (_m, hex?: string, chij?: string, opaque?: string, digits?: string, letters?: string, numeral?: string) => {
      if (hex) return this.hexId(hex);
      if (chij) return this.token(chij);
      if (opaque) return this.token(opaque);
      if (digits) return this.digits(digits);
      if (letters) return keepWord?.(letters) ? letters : shapeLetters(letters);
      return numeral ? '0' : '';
    });
  }

  /** A value kept as it is, but for e-mails, phone numbers and ids. */
  scrub(s: string): string {
    return s.replace(SCRUB_TOKENS, (m, email?: string, hex?: string, chij?: string, phone?: string, opaque?: string, digits?: string, spaced?: string) => {
      if (email) return this.shape(email);
      if (hex) return this.hexId(hex);
      if (chij) return this.token(chij);
      if (phone || spaced) return (phone ?? spaced)!.replace(/\d+/g, (d) => this.digits(d));
      if (opaque) return this.token(opaque);
      if (digits) return this.digits(digits);
      return m;
    });
  }

  // --- text ------------------------------------------------------------------------------------

  private isWord = (run: string): boolean => this.m.words.has(run.toLowerCase());

  /** A text as the report keeps it, and how much of it was kept. */
  text(raw: string): { text: string; kind: TextKind } {
    const core = raw.trim();
    if (!core) return { text: raw, kind: 'kept' };
    const collapsed = core.replace(/\s+/g, ' ');
    const lower = collapsed.toLowerCase();
    if (this.m.phrases.has(lower)) return { text: raw, kind: 'kept' };

    // Beside a number, interface words are kept ("0.0 stars 0,000 Reviews", "매일 00:00 ~ 00:00"); with
    // no number, a text is kept only as a whole phrase, so that a name made of such words is not.
    const runs = core.match(LETTER_RUNS) ?? [];
    if (HAS_NUMBER.test(core) ? runs.every(this.isWord) : runs.length === 0) {
      const text = this.shape(raw, () => true);
      return { text, kind: text === raw ? 'kept' : runs.length > 0 ? 'partly' : 'redacted' };
    }

    for (const t of this.m.templates) {
      if (lower.length > t.prefix.length + t.suffix.length && lower.startsWith(t.prefix) && lower.endsWith(t.suffix)) {
        const lead = raw.slice(0, raw.length - raw.trimStart().length);
        const trail = raw.slice(raw.trimEnd().length);
        const end = collapsed.length - t.suffix.length;
        const text = lead + collapsed.slice(0, t.prefix.length) + this.shape(collapsed.slice(t.prefix.length, end)) + collapsed.slice(end) + trail;
        return { text, kind: 'partly' };
      }
    }

    if (core.length <= 400) {
      const spans: [number, number][] = [];
      for (const re of this.m.sentences) {
        const hit = re.exec(raw);
        if (hit && hit[0].length > 0) spans.push([hit.index, hit.index + hit[0].length]);
      }
      if (spans.length > 0) {
        spans.sort((a, b) => a[0] - b[0]);
        let text = '';
        let at = 0;
        for (const [from, to] of spans) {
          if (from < at) continue;
          text += this.shape(raw.slice(at, from), this.isWord) + raw.slice(from, to);
          at = to;
        }
        text += this.shape(raw.slice(at), this.isWord);
        return { text, kind: 'partly' };
      }
    }
    return { text: this.shape(raw), kind: 'redacted' };
  }

  private textNode(raw: string): string {
    if (!raw.trim()) return raw;
    const { text, kind } = this.text(raw);
    if (kind === 'kept') this.counts.textKept++;
    else if (kind === 'partly') this.counts.textPartly++;
    else this.counts.textRedacted++;
    return text;
  }

  // --- URLs ------------------------------------------------------------------------------------

  /** A component of a URL: decoded, shaped, and encoded again (so a Korean name stays a Korean-shaped name). */
  private urlPiece(s: string): string {
    if (!s.includes('%')) return this.shape(s);
    let decoded: string;
    try {
      decoded = decodeURIComponent(s);
    } catch {
      return this.shape(s);
    }
    return this.shape(decoded).replace(SEGMENT_SAFE, (c) => encodeURIComponent(c));
  }

  /** Google's `data=!4m7!3m6!1s0x…:0x…!8m2!3d52.3!4d4.8` and `pb=` values: field numbers and types kept, values redacted. */
  private protobufValue(v: string): string {
    return v
      .split('!')
      .map((part, i) => {
        if (i === 0) return this.urlPiece(part);
        const f = /^(\d+)([a-zA-Z])([\s\S]*)$/.exec(part);
        if (!f) return this.urlPiece(part);
        // An `m` field's value is how many fields follow: structure, not content.
        return f[1]! + f[2]! + (f[2] === 'm' && /^\d{1,4}$/.test(f[3]!) ? f[3]! : this.urlPiece(f[3]!));
      })
      .join('!');
  }

  /**
   * One segment of a path; `own`: the URL is the site's (relative, or on a known host), whose words
   * may be kept; `free`: the segment follows a FREE_TEXT_AFTER word, so its words are free text.
   */
  private pathSegment(seg: string, free: boolean, own: boolean): string {
    if (!seg) return seg;
    if (own && (FREE_TEXT_AFTER.has(seg) || (!free && PLAIN_SEGMENT.test(seg)))) return seg;
    if (POSITION_SEGMENT.test(seg)) return seg.replace(/\d+/g, (d) => this.digits(d));
    const eq = seg.indexOf('=');
    if (eq > 0) {
      const key = seg.slice(0, eq);
      const value = seg.slice(eq + 1);
      const keptKey = PLAIN_SEGMENT.test(key) || /^[a-z]{1,3}$/.test(key) ? key : this.urlPiece(key);
      return `${keptKey}=${value.startsWith('!') || key === 'data' ? this.protobufValue(value) : this.urlPiece(value)}`;
    }
    return this.urlPiece(seg);
  }

  /** The host and port of an authority, without its user: the site's own host kept, another redacted. */
  private host(authority: string): string {
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    const host = hostOf(authority);
    const port = hostPort.slice(host.length);
    if (!host || KNOWN_HOST.test(host)) return host + port;
    return this.shape(host) + port;
  }

  /** A URL with its host (unless the site's), path names and ids redacted, query values and fragment dropped. */
  url(value: string): string {
    const v = value.trim();
    if (!v) return value;
    const compact = v.replace(/[\s\p{Cc}]/gu, '').toLowerCase();
    if (/^(?:javascript|vbscript|livescript|mocha):/.test(compact)) return INERT_URL;
    if (compact.startsWith('data:')) {
      const comma = v.indexOf(',');
      const head = comma >= 0 ? v.slice(0, comma) : '';
      return /^data:[\w.+/-]*(?:;[\w.+=-]*)*$/i.test(head) && head.length <= 100 ? `${head},` : 'data:,';
    }
    const parts = URL_PARTS.exec(v);
    if (!parts) return this.shape(v);
    const [, scheme = '', authority, path = '', query, fragment] = parts;
    if (!scheme && !authority && !path && !query) return fragment ? '#' : '';
    let out = scheme;
    // A business's own website keeps none of its path's words ("/cafemomo" is a name).
    const own = authority === undefined || KNOWN_HOST.test(hostOf(authority.slice(2)));
    if (authority !== undefined) out += `//${this.host(authority.slice(2))}`;
    if (scheme && authority === undefined && !/^(?:https?|ftp|wss?|file):$/i.test(scheme)) {
      // tel:, mailto:, sms:, geo:, intent:… : what follows the scheme is the content.
      out += this.urlPiece(path);
    } else {
      let free = false;
      out += path
        .split('/')
        .map((seg) => {
          const shaped = this.pathSegment(seg, free, own);
          if (FREE_TEXT_AFTER.has(seg)) free = true;
          else if (/^\d+$/.test(seg)) free = false;
          return shaped;
        })
        .join('/');
    }
    if (query !== undefined) {
      out += `?${query
        .slice(1)
        .split(/([&;])/)
        .map((p) => {
          if (p === '&' || p === ';' || !p) return p;
          const eq = p.indexOf('=');
          const key = eq >= 0 ? p.slice(0, eq) : p;
          return (QUERY_KEY.test(key) ? this.scrub(key) : this.urlPiece(key)) + (eq >= 0 ? '=' : '');
        })
        .join('')}`;
    }
    return out;
  }

  private srcset(value: string): string {
    return value
      .split(/,(?=\s)/)
      .map((candidate) => {
        const m = /^(\s*)(\S+)([\s\S]*)$/.exec(candidate);
        return m ? m[1]! + this.url(m[2]!) + this.scrub(m[3]!) : candidate;
      })
      .join(',');
  }

  // --- styles ----------------------------------------------------------------------------------

  /**
   * A style sheet or a style attribute: its `url()`s redacted as URLs, the content of its strings
   * shaped (`content: "…"`, `--who: '…'`, a font's name), comments emptied, the rest kept but for
   * e-mails, phone numbers and ids.
   */
  css(text: string): string {
    let out = '';
    let at = 0;
    for (const m of text.matchAll(CSS_TOKENS)) {
      out += this.scrub(text.slice(at, m.index));
      const [whole, urlQuote, urlBody, dq, dqEnd, sq, sqEnd] = m;
      if (urlBody !== undefined) out += `url(${urlQuote}${this.url(urlBody)}${urlQuote})`;
      else if (dq !== undefined) out += `"${this.cssString(dq)}${dqEnd}`;
      else if (sq !== undefined) out += `'${this.cssString(sq)}${sqEnd}`;
      else out += '/**/';
      at = m.index + whole.length;
    }
    return out + this.scrub(text.slice(at));
  }

  /** A CSS string's content: shaped; an escape that stands for a letter or digit becomes its stand-in, another (an icon's code point, a quote) stays. */
  private cssString(body: string): string {
    let out = '';
    let at = 0;
    for (const m of body.matchAll(CSS_ESCAPE)) {
      out += this.shape(body.slice(at, m.index));
      const hex = m[1];
      const ch = hex !== undefined ? String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff)) : m[0].slice(1);
      out += LETTER_OR_DIGIT.test(ch) || MARK.test(ch) ? charFor(ch) : m[0];
      at = m.index + m[0].length;
    }
    return out + this.shape(body.slice(at));
  }

  // --- scripts ---------------------------------------------------------------------------------

  /** A string's content in a script: shaped, its escapes kept (an escaped letter becomes an escaped stand-in). */
  private jsStringText(body: string): string {
    let out = '';
    let at = 0;
    for (const m of body.matchAll(JS_ESCAPE)) {
      out += this.shape(body.slice(at, m.index));
      out += this.jsEscape(m[0]);
      at = m.index + m[0].length;
    }
    return out + this.shape(body.slice(at));
  }

  private jsEscape(esc: string): string {
    const pair = JS_ESCAPE_PAIR.exec(esc);
    if (pair) {
      const ch = String.fromCharCode(Number.parseInt(pair[2]!, 16), Number.parseInt(pair[3]!, 16));
      if (!LETTER_OR_DIGIT.test(ch)) return esc;
      return `${pair[1]}u${charFor(ch).codePointAt(0)!.toString(16).padStart(4, '0')}`;
    }
    const m = JS_ESCAPE_PARTS.exec(esc);
    if (!m) return esc;
    const hex = m[2] ?? m[3] ?? m[4]!;
    const cp = Number.parseInt(hex, 16);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return esc;
    const ch = String.fromCodePoint(cp);
    if (!LETTER_OR_DIGIT.test(ch) && !MARK.test(ch)) return esc;
    const stand = charFor(ch);
    if (!stand) return '';
    const code = stand.codePointAt(0)!;
    if (m[4] !== undefined && code <= 0xff) return `${m[1]}x${code.toString(16).padStart(2, '0')}`;
    return `${m[1]}u${code.toString(16).padStart(4, '0')}`;
  }

  /**
   * A double-quoted string whose content is JSON (Google's `)]}'`-prefixed place state inside
   * APP_INITIALIZATION_STATE, Naver's `JSON.parse("…")`): redacted as a script, so it stays JSON.
   */
  private nestedJson(body: string): string | null {
    if (!NESTED_JSON_START.test(body)) return null;
    let decoded: unknown;
    try {
      decoded = JSON.parse(`"${body}"`);
    } catch {
      return null;
    }
    const m = /^(\)\]\}'\n?)?(\s*)([\s\S]*)$/.exec(decoded as string)!;
    try {
      JSON.parse(m[3]!);
    } catch {
      return null;
    }
    return JSON.stringify((m[1] ?? '') + m[2]! + this.script(m[3]!)).slice(1, -1);
  }

  private jsString(body: string, role: 'key' | 'typename' | 'value', quote: string): string {
    if (role === 'value' && quote === '"') {
      const nested = this.nestedJson(body);
      if (nested !== null) return nested;
    }
    if (role !== 'value') {
      if (JS_KEY.test(body)) return this.scrub(body);
      const m = role === 'key' ? JS_KEY_PREFIX.exec(body) : null;
      if (m) return m[1]! + this.jsStringText(m[2]!);
    }
    return this.jsStringText(body);
  }

  /**
   * A script with its code and structure kept and its content redacted: every string's content
   * (but object keys and `__typename`s that are identifiers) and every number. Comments are dropped.
   *
   * A tokenizer can misread where a string starts: a `/` after `)` or `}` may be a division or
   * a regular expression, and a regular expression holding a quote, read as a division, flips
   * which quotes open strings, so that a string's content reads as code and its words would be
   * kept as identifiers. Two guards:
   * - a `/` after `)` or `}` starts a regular expression when one that holds a quote closes on the
   *   same line; a regular expression holding a quote is shaped whole (it may be a string's
   *   content read as one), another is kept but for ids;
   * - the code between two strings of a line (or a line's start or end) in which two tokens stand
   *   side by side as valid JavaScript never has them (a name beside a name or a number, a string
   *   beside a name, a number, a regular expression or a string, a string after `)` or `]`; keywords
   *   and a line break between them aside) is a string's content misread: every identifier and
   *   regular expression in it is shaped. Valid code never trips it, so it costs nothing when the
   *   tokenizer is right.
   */
  script(src: string): string {
    const out: string[] = [];
    /** The source of each piece of `out` read as an identifier or a regular expression, by index. */
    const raw = new Map<number, string>();
    let i = 0;
    const n = src.length;
    /** The last significant token: '' (start), 'id', 'kw' (a keyword a regex may follow), 'kx' (another keyword), 'num', 'str', 're' or 'p' + the punctuator. */
    let last = '';
    let lastKey: string | null = null;
    /**
     * The pieces since the last string of the line start here (`stretchAt` in the source);
     * `misread`: they hold two tokens side by side that valid code never has, at `hits`.
     */
    let stretch = 0;
    let stretchAt = 0;
    let misread = false;
    const hits: number[] = [];
    /** A line break since the last significant token (automatic semicolons make any neighbours valid). */
    let newline = false;
    const reshape = (k: number): void => {
      const r = raw.get(k);
      if (r !== undefined) out[k] = this.shape(r);
    };
    /**
     * A misread stretch: all of it when it is as short as a string's content; in a longer one (a
     * minified script is one line), the few tokens around each place it was caught.
     */
    const settle = (at: number): void => {
      if (misread) {
        if (at - stretchAt <= MISREAD_STRETCH) for (let k = stretch; k < out.length; k++) reshape(k);
        else for (const h of hits) for (let k = Math.max(stretch, h - MISREAD_AROUND); k < Math.min(out.length, h + MISREAD_AROUND + 1); k++) reshape(k);
      }
      stretch = out.length;
      stretchAt = at;
      misread = false;
      hits.length = 0;
    };
    const mark = (): void => {
      misread = true;
      hits.push(out.length);
    };
    const besideName = (): void => {
      if (!newline && (last === 'id' || last === 'num' || last === 'str' || last === 're')) mark();
    };
    while (i < n) {
      const ch = src[i]!;
      const next = src[i + 1];
      if (ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f' || ch === '\v' || ch === '\u00a0' || ch === '\u2028' || ch === '\u2029') {
        if (ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029') {
          if (!newline) settle(i);
          newline = true;
        }
        out.push(ch);
        i++;
        continue;
      }
      if (ch === '/' && next === '/') {
        while (i < n && src[i] !== '\n' && src[i] !== '\r') i++;
        continue;
      }
      if (ch === '/' && next === '*') {
        const end = src.indexOf('*/', i + 2);
        const to = end < 0 ? n : end + 2;
        if (/[\n\r\u2028\u2029]/.test(src.slice(i, to))) {
          if (!newline) settle(i);
          newline = true;
        }
        i = to;
        out.push(' ');
        continue;
      }
      if (ch === '"' || ch === "'" || ch === '`') {
        let j = i + 1;
        while (j < n && src[j] !== ch) {
          if (src[j] === '\\') j += 2;
          else if (ch !== '`' && (src[j] === '\n' || src[j] === '\r')) break;
          else j++;
        }
        if (j > n) j = n;
        const body = src.slice(i + 1, j);
        const closed = src[j] === ch;
        let k = closed ? j + 1 : j;
        while (k < n && /\s/.test(src[k]!)) k++;
        const isKey = ch !== '`' && src[k] === ':' && (last === 'p{' || last === 'p,');
        const role = isKey ? 'key' : last === 'p:' && lastKey === '__typename' ? 'typename' : 'value';
        if (ch !== '`' && !newline && (last === 'id' || last === 'num' || last === 'str' || last === 're' || last === 'p)' || last === 'p]')) mark();
        settle(i);
        out.push(ch + this.jsString(body, role, ch) + (closed ? ch : ''));
        stretch = out.length;
        stretchAt = closed ? j + 1 : j;
        lastKey = isKey ? body : null;
        last = 'str';
        newline = false;
        i = closed ? j + 1 : j;
        continue;
      }
      const ambiguous = last === 'p)' || last === 'p}';
      if (ch === '/' && (last === '' || last === 'kw' || (last.startsWith('p') && last !== 'p]'))) {
        let j = i + 1;
        let inClass = false;
        while (j < n) {
          const c = src[j]!;
          if (c === '\\') j += 2;
          else if (c === '\n' || c === '\r') break;
          else {
            if (c === '[') inClass = true;
            else if (c === ']') inClass = false;
            else if (c === '/' && !inClass) break;
            j++;
          }
        }
        const quoted = /['"`]/.test(src.slice(i, j));
        if (j < n && src[j] === '/' && (quoted || !ambiguous)) {
          j++;
          while (j < n && /[a-z]/.test(src[j]!)) j++;
          const re = src.slice(i, j);
          if (!newline && (last === 'id' || last === 'num' || last === 'str' || last === 're')) mark();
          raw.set(out.length, re);
          out.push(quoted ? this.shape(re) : this.scrub(re));
          last = 're';
          newline = false;
          i = j;
          continue;
        }
      }
      if (/[A-Za-z_$]/.test(ch) || (ch > '\x7f' && /[\p{L}\p{Nl}]/u.test(ch))) {
        let j = i + 1;
        while (j < n && (/[\w$]/.test(src[j]!) || (src[j]! > '\x7f' && /[\p{L}\p{M}\p{N}\u200c\u200d]/u.test(src[j]!)))) j++;
        const word = src.slice(i, j);
        const keyword = REGEX_AFTER_WORDS.has(word) ? 'kw' : JS_WORDS.has(word) ? 'kx' : '';
        if (!keyword) besideName();
        raw.set(out.length, word);
        out.push(NON_ASCII.test(word) ? this.shape(word) : this.scrub(word));
        last = keyword || 'id';
        newline = false;
        i = j;
        continue;
      }
      if ((ch >= '0' && ch <= '9') || (ch === '.' && next !== undefined && next >= '0' && next <= '9')) {
        JS_NUMBER.lastIndex = i;
        const m = JS_NUMBER.exec(src);
        const num = m && m[0].length > 0 ? m[0] : ch;
        besideName();
        if (/^0[xX]/.test(num)) out.push(num.length >= 6 ? this.hexId(num.replace(/[_n]/g, '')) : num.slice(0, 2) + num.slice(2).replace(/[0-9a-fA-F]/g, '0'));
        else {
          const shaped = num.replace(/\d+/g, (d) => this.digits(d));
          // JSON allows no leading zero: a two-digit "12" stays a valid number as "10".
          out.push(/^0\d/.test(shaped) ? `1${shaped.slice(1)}` : shaped);
        }
        last = 'num';
        newline = false;
        i += num.length;
        continue;
      }
      if (ch === '\\') {
        out.push(src.slice(i, i + 2));
        i += 2;
        continue;
      }
      out.push(ch);
      last = `p${ch}`;
      newline = false;
      i++;
    }
    settle(n);
    return out.join('');
  }

  // --- attributes ------------------------------------------------------------------------------

  private metaContent(el: Element, value: string): string {
    const name = (el.getAttribute('name') ?? el.getAttribute('property') ?? el.getAttribute('http-equiv') ?? el.getAttribute('itemprop') ?? '')
      .trim()
      .toLowerCase();
    if (SETTINGS_META.has(name)) return this.scrub(value);
    if (LOOKS_LIKE_URL.test(value)) return this.url(value);
    return this.text(value).text;
  }

  /**
   * A value that names something but is not one of the page's known code attributes (a `data-*`
   * value that is no text, an unknown attribute's): shaped, but for DATA_WORDS and single letters,
   * so "address", "phone:tel:+00000000000" and "undefined*e" read as the readers expect and
   * "starbucks", "kimMinjun" or a form field's "JoeSmithers" do not survive.
   */
  private codeWords(value: string): string {
    return this.shape(value, (run) => run.length === 1 || DATA_WORDS.has(run.toLowerCase()));
  }

  private dataValue(value: string): string {
    if (!value.trim()) return value;
    if (LOOKS_LIKE_URL.test(value) || /^\/[A-Za-z_]/.test(value)) return this.url(value);
    const read = this.text(value);
    if (read.kind !== 'redacted' || !CODE_TOKEN.test(value)) return read.text;
    return this.codeWords(value);
  }

  /** `class`: kept as written (the readers select by class), but a token that is an e-mail, a phone number or holds a long digit run is shaped. */
  private classValue(value: string): string {
    return value.replace(/\S+/g, (tok) => (/@|\d{5}|\d{2,4}[-. ]\d{3,4}[-. ]\d{4}/.test(tok) ? this.shape(tok) : tok));
  }

  private attribute(el: Element, name: string, value: string): string {
    const n = name.toLowerCase();
    if (VERBATIM_ATTRS.has(n)) return value;
    if (n === 'class') return this.classValue(value);
    if (n === 'style') return this.css(value);
    if (n.startsWith('on')) return this.script(value);
    if (URL_ATTRS.has(n)) {
      this.counts.urls++;
      return this.url(value);
    }
    if (n === 'srcset' || n === 'imagesrcset') {
      this.counts.urls++;
      return this.srcset(value);
    }
    if (n === 'ping')
      return value
        .split(/(\s+)/)
        .map((p) => (p.trim() ? this.url(p) : p))
        .join('');
    if (n === 'content' && el.localName === 'meta') return this.metaContent(el, value);
    if (CONTENT_ATTRS.has(n)) return this.text(value).text;
    if (n.startsWith('data-')) return this.dataValue(value);
    if (LOOKS_LIKE_URL.test(value)) return this.url(value);
    // The page's own parts (id, jsaction, aria-controls, tabindex, d, viewBox, a meta's name…): kept
    // but for ids, e-mails and phones; text in a script other than Latin is content.
    if (CODE_ATTRS.has(n) || JS_BINDING_ATTR.test(n) || n.startsWith('aria-') || (n === 'name' && el.localName === 'meta')) {
      return NON_ASCII.test(value) ? this.text(value).text : this.scrub(value);
    }
    // Any other attribute: a text unless it is the site's words, a value made of DATA_WORDS at most.
    if (!value.trim()) return value;
    const read = this.text(value);
    return read.kind !== 'redacted' || !CODE_TOKEN.test(value) ? read.text : this.codeWords(value);
  }

  // --- the tree --------------------------------------------------------------------------------

  document(doc: Document): string {
    const out: string[] = [];
    for (const child of Array.from(doc.childNodes)) {
      if (child.nodeType === 10) out.push(doctype(child as DocumentType));
      else this.node(child, out);
    }
    return out.join('');
  }

  private node(node: Node, out: string[]): void {
    switch (node.nodeType) {
      case 1:
        this.element(node as Element, out);
        return;
      case 3:
      case 4:
        out.push(escapeText(this.textNode((node as CharacterData).data)));
        return;
      case 8:
        this.counts.comments++;
        return;
      default:
        // processing instructions, doctypes inside the tree: dropped
        return;
    }
  }

  private element(el: Element, out: string[]): void {
    this.counts.elements++;
    const name = el.localName || el.tagName.toLowerCase();
    const html = !el.namespaceURI || el.namespaceURI === HTML_NS;
    out.push('<', name);
    for (const attr of Array.from(el.attributes)) {
      if (!ATTR_NAME.test(attr.name)) continue;
      const value = this.attribute(el, attr.name, attr.value);
      if (value === attr.value) this.counts.attrsKept++;
      else this.counts.attrsRedacted++;
      out.push(' ', attr.name, '="', escapeAttr(value), '"');
    }
    out.push('>');
    if (html && VOID_ELEMENTS.has(name)) return;

    if (html && (name === 'script' || name === 'style')) {
      const text = Array.from(el.childNodes)
        .filter((c) => c.nodeType === 3)
        .map((c) => (c as Text).data)
        .join('');
      if (name === 'script') {
        const type = (el.getAttribute('type') ?? '').trim().toLowerCase();
        const redacted = JS_TYPES.has(type) || type.includes('javascript') || type.endsWith('json') ? this.script(text) : this.shape(text);
        if (text.trim()) {
          this.counts.scripts++;
          this.counts.scriptChars += text.length;
        }
        out.push(redacted.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--'));
      } else {
        this.counts.styles++;
        out.push(this.css(text).replace(/<\/(style)/gi, '<\\/$1'));
      }
      out.push('</', name, '>');
      return;
    }

    const children = name === 'template' && 'content' in el ? (el as HTMLTemplateElement).content.childNodes : el.childNodes;
    const first = children[0];
    if (html && (name === 'pre' || name === 'textarea' || name === 'listing') && first?.nodeType === 3 && (first as Text).data.startsWith('\n')) out.push('\n');
    for (const child of Array.from(children)) this.node(child, out);
    out.push('</', name, '>');
  }
}

/** The host of a URL's authority (`user@host:port`). */
function hostOf(authority: string): string {
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  return /^(\[[^\]]*\]|[^:]*)/.exec(hostPort)![1]!;
}

function doctype(d: DocumentType): string {
  const clean = (s: string) => s.replace(/["<>]/g, '');
  const name = d.name.replace(/[^\w-]/g, '') || 'html';
  const pub = clean(d.publicId ?? '');
  const sys = clean(d.systemId ?? '');
  return `<!DOCTYPE ${name}${pub ? ` PUBLIC "${pub}"` : ''}${sys ? `${pub ? '' : ' SYSTEM'} "${sys}"` : ''}>`;
}
