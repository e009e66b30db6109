/**
 * One HTML page of a business's website, read into what the contacts pass keeps: addresses,
 * phones, social profiles, links and a meta refresh. A streaming htmlparser2 pass with no DOM
 * (a service worker has no DOMParser); entities are decoded by the parser, so `&#64;` is `@`.
 *
 * What a person would read is what counts. `<script>`, `<style>` and `<template>` are not read:
 * an address a script writes into the page is, to this reader, not on the page (the pass fetches
 * without running scripts), and a template is inert markup the page never shows as it stands.
 * `<noscript>` is read: it is the site's own static fallback, written for readers like this one.
 * Neither is what a page hides from people (`hidden`, `aria-hidden="true"`, an inline
 * `display: none` or `visibility: hidden`): an address there is a spam trap as often as not, and
 * mailing one can put the user's mail server on a block list. Its links are still followed.
 * The page's own structured data (`<script type="application/ld+json">`, schema.org) is data, not
 * a program: its `email`, `telephone` and `sameAs` (the business's profiles) are read.
 */
import { Parser } from 'htmlparser2';
import { decodeCloudflareEmail, findEmails, mailtoAddresses, normaliseEmail } from './emails';
import { findPhones, telPhone } from './phones';
import { socialProfile } from './social';
import type { EmailWriting, FoundEmail, PageLink, PageReading, SocialProfile } from './types';

const UNREAD = new Set(['script', 'style', 'template']);
/** Elements that end a line of text: `<td>a@b.com</td><td>Tel</td>` must not read as `a@b.comTel`. */
const BLOCK = new Set(
  'address article aside blockquote br dd div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead tr ul option select button label title'.split(
    ' ',
  ),
);
/** A link's words are for ranking it; a hostile page's megabyte of link text is not. */
const MAX_LINK_TEXT = 200;
const CLOUDFLARE_PATH = '/cdn-cgi/l/email-protection';
/** Structured data read per page at most: a business's block is a few kB. */
const MAX_JSON_LD = 200_000;
/** Profiles of one network kept from one page, at most. */
const PROFILES_PER_NETWORK = 3;
/** Frames followed from one page at most. */
const MAX_FRAMES = 3;

interface RawLink {
  href: string;
  /** At most MAX_LINK_TEXT characters of its text. */
  words: string;
  /** What names the link when it has no text of its own: `aria-label`, `title`, an image's `alt`. */
  labels: string[];
}

/** `hidden`, `aria-hidden="true"`, or an inline style that hides the element. */
function hidesFromPeople(attribs: Record<string, string>): boolean {
  if (attribs.hidden !== undefined || attribs['aria-hidden']?.trim().toLowerCase() === 'true') return true;
  const style = attribs.style;
  return style !== undefined && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)/i.test(style);
}

export function readPage(html: string, pageUrl: string): PageReading {
  let baseHref: string | null = null;
  let refreshContent: string | null = null;
  const links: RawLink[] = [];
  const mailtos: string[] = [];
  const cloudflare: string[] = [];
  const tels: string[] = [];
  const text: string[] = [];
  let unreadDepth = 0;
  let noscriptDepth = 0;
  /** Per open element, whether it hides its content from people; and how many open ones do. */
  const hiding: boolean[] = [];
  let hiddenDepth = 0;
  let openLink: RawLink | null = null;
  /** The text of the `application/ld+json` script being read, or null outside one. */
  let jsonLd: string | null = null;
  const jsonLdBlocks: string[] = [];
  const frames: string[] = [];

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'script' && unreadDepth === 0 && attribs.type?.trim().toLowerCase() === 'application/ld+json') jsonLd = '';
        if (UNREAD.has(name)) unreadDepth++;
        if (unreadDepth > 0) return;
        const hides = hidesFromPeople(attribs);
        hiding.push(hides);
        if (hides) hiddenDepth++;
        if ((name === 'frame' || name === 'iframe') && attribs.src && frames.length < MAX_FRAMES) frames.push(attribs.src.trim());
        if (name === 'noscript') noscriptDepth++;
        if (BLOCK.has(name)) text.push('\n');
        if (attribs['data-cfemail'] !== undefined && hiddenDepth === 0) cloudflare.push(attribs['data-cfemail']);
        if (name === 'base' && baseHref === null && attribs.href !== undefined) baseHref = attribs.href;
        // A browser running scripts never follows a refresh inside <noscript>: it is the "please
        // enable JavaScript" page, not where the site sends its readers.
        if (name === 'meta' && refreshContent === null && noscriptDepth === 0 && attribs['http-equiv']?.trim().toLowerCase() === 'refresh') {
          refreshContent = attribs.content ?? null;
        }
        if (name === 'img' && openLink && attribs.alt) openLink.labels.push(attribs.alt);
        if ((name === 'a' || name === 'area') && attribs.href !== undefined) {
          const href = attribs.href.trim();
          // Not push(...list): a hostile mailto of a million commas would overflow the call stack.
          if (/^mailto:/i.test(href)) {
            if (hiddenDepth === 0) for (const address of mailtoAddresses(href)) mailtos.push(address);
          } else if (/^tel:/i.test(href)) {
            if (hiddenDepth === 0) tels.push(href);
          } else {
            const link: RawLink = { href, words: '', labels: [attribs['aria-label'] ?? '', attribs.title ?? '', attribs.alt ?? ''] };
            links.push(link);
            if (name === 'a') openLink = link;
          }
        }
      },
      ontext(data) {
        if (jsonLd !== null && jsonLd.length < MAX_JSON_LD) jsonLd += data.slice(0, MAX_JSON_LD - jsonLd.length);
        if (unreadDepth > 0) return;
        if (hiddenDepth === 0) text.push(data);
        if (openLink && openLink.words.length < MAX_LINK_TEXT) openLink.words += data.slice(0, MAX_LINK_TEXT - openLink.words.length);
      },
      onclosetag(name) {
        if (UNREAD.has(name)) {
          unreadDepth = Math.max(0, unreadDepth - 1);
          if (name === 'script' && jsonLd !== null) {
            jsonLdBlocks.push(jsonLd);
            jsonLd = null;
          }
          return;
        }
        if (unreadDepth > 0) return;
        if (hiding.pop()) hiddenDepth--;
        if (name === 'noscript') noscriptDepth = Math.max(0, noscriptDepth - 1);
        if (name === 'a') openLink = null;
        if (BLOCK.has(name)) text.push('\n');
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();

  const base = resolveBase(baseHref, pageUrl);
  const emails = new EmailList(pageUrl);
  for (const address of mailtos) emails.add(address, 'mailto');
  for (const hex of cloudflare) emails.add(decodeCloudflareEmail(hex), 'cfemail');

  const pageLinks: PageLink[] = [];
  // Every profile of each network, in document order, a few at most: the first is usually the
  // business's, but a builder's profile in a header widget comes first at times, and is then
  // told apart across the pass (shared-values.ts), the business's own taking its place.
  const socials: SocialProfile[] = [];
  const addSocial = (profile: SocialProfile | null) => {
    if (!profile) return;
    const same = socials.filter((s) => s.network === profile.network);
    if (same.length < PROFILES_PER_NETWORK && !same.some((s) => s.url === profile.url)) socials.push(profile);
  };
  for (const link of links) {
    const url = absoluteHttp(link.href, base);
    if (!url) continue;
    if (url.pathname === CLOUDFLARE_PATH) {
      // A protected `mailto:a@b?subject=…` keeps its query after the hex, inside the fragment.
      emails.add(decodeCloudflareEmail(url.hash.slice(1).split('?')[0]!), 'cfemail');
      continue;
    }
    url.hash = '';
    const href = url.href;
    pageLinks.push({ href, text: linkText(link) });
    // First in document order: the header comes before the body and the footer, and a web
    // agency's own profiles sit in its credit at the very bottom of the page.
    const profile = socialProfile(href);
    addSocial(profile && { ...profile, page: pageUrl });
  }

  const pageText = text.join('');
  for (const found of findEmails(pageText)) emails.add(found.email, found.how);

  const structured = readStructured(jsonLdBlocks);
  for (const address of structured.emails) emails.add(address, 'structured');
  for (const href of structured.profiles) {
    const url = absoluteHttp(href, base);
    const profile = url ? socialProfile(url.href) : null;
    addSocial(profile && { ...profile, page: pageUrl });
  }

  const refreshTarget = refreshContent === null ? null : refreshUrl(refreshContent);
  const refresh = refreshTarget === null ? null : absoluteHttp(refreshTarget, base);
  if (refresh) refresh.hash = '';

  return {
    emails: emails.list,
    socials,
    phones: uniquePhones([...tels.map(telPhone), ...findPhones(pageText), ...structured.phones]),
    links: pageLinks,
    refreshTo: refresh ? refresh.href : null,
    frames: frames.map((src) => absoluteHttp(src, base)?.href ?? null).filter((u): u is string => u !== null),
  };
}

/**
 * Addresses of one page, each once (case-insensitively). Links are added before Cloudflare's and
 * before the text, so an address both linked and written counts as given by its link.
 */
class EmailList {
  readonly list: FoundEmail[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly page: string) {}

  add(candidate: string | null, how: EmailWriting): void {
    const email = candidate === null ? null : normaliseEmail(candidate, how === 'text' || how === 'obfuscated' ? 'in-text' : 'as-address');
    if (email === null || this.seen.has(email.toLowerCase())) return;
    this.seen.add(email.toLowerCase());
    this.list.push({ email, page: this.page, how });
  }
}

/** The document's base: the first `<base href>`, resolved against the page, when it is http(s). */
function resolveBase(baseHref: string | null, pageUrl: string): string {
  const base = baseHref === null ? null : absoluteHttp(baseHref, pageUrl);
  return base ? base.href : pageUrl;
}

function absoluteHttp(href: string, base: string): URL | null {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function linkText(link: RawLink): string {
  const own = collapse(link.words);
  return (own || collapse(link.labels.filter((label) => label.trim() !== '').join(' '))).slice(0, MAX_LINK_TEXT);
}

const collapse = (words: string) => words.replace(/\s+/g, ' ').trim();

/**
 * The URL of a `<meta http-equiv=refresh>` content, as the HTML spec's declarative refresh reads it:
 * `5; url='/home'`, `0;URL=/home`, `0, /home`. Null when it only reloads the same page.
 */
function refreshUrl(content: string): string | null {
  const match = content.match(/^\s*[\d.]+\s*(?:[;,]\s*)?(?:url\s*=\s*)?(.*)$/is);
  let target = match?.[1]?.trim() ?? '';
  const quote = target[0];
  if (quote === '"' || quote === "'") {
    const end = target.indexOf(quote, 1);
    target = end < 0 ? target.slice(1) : target.slice(1, end);
  }
  return target === '' ? null : target;
}

/** Each number once, by its digits, in the form first written. */
function uniquePhones(phones: (string | null)[]): string[] {
  const byDigits = new Map<string, string>();
  for (const phone of phones) {
    if (phone === null) continue;
    const digits = phone.replace(/\D/g, '');
    if (!byDigits.has(digits)) byDigits.set(digits, phone);
  }
  return [...byDigits.values()];
}

/**
 * schema.org's `email` (with or without `mailto:`), `telephone` and `sameAs` anywhere in the
 * page's JSON-LD blocks; a block that is no JSON is skipped. Walked breadth-first, at most a few
 * thousand nodes: the business's block is small, a hostile one is cut.
 */
function readStructured(blocks: readonly string[]): { emails: string[]; phones: string[]; profiles: string[] } {
  const out = { emails: [] as string[], phones: [] as string[], profiles: [] as string[] };
  const queue: unknown[] = [];
  for (const block of blocks) {
    try {
      queue.push(JSON.parse(block));
    } catch {
      // Not JSON (a template placeholder, a broken block): nothing to read.
    }
  }
  const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  for (let visited = 0; queue.length > 0 && visited < 5000; visited++) {
    const node = queue.shift();
    if (Array.isArray(node)) queue.push(...node.slice(0, 200));
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      for (const e of strings(o.email)) out.emails.push(...mailtoAddresses(e));
      out.phones.push(
        ...strings(o.telephone)
          .map((t) => t.trim())
          .filter((t) => /^[+\d][\d\s().-]{5,24}$/.test(t)),
      );
      out.profiles.push(...strings(o.sameAs));
      for (const value of Object.values(o).slice(0, 200)) if (value && typeof value === 'object') queue.push(value);
    }
  }
  return out;
}
