import type { PageKind } from '../../domain/sweep';
import { cleanText, matchesAny, NOT_FOUND_PATTERNS, UNUSUAL_TRAFFIC_PATTERNS } from './labels';
import { findPlacePanel } from './place';

/**
 * What a Google page is (spec §1.2, §1.3, §1.6, §1.7). Blocks come first: a captcha or
 * consent page must never be read as "no results".
 */
export function detectPageKind(doc: Document, url: string): PageKind {
  const u = parseUrl(url);
  if (u && /(^|\.)google\.[a-z.]+$/i.test(u.hostname) && u.pathname.startsWith('/sorry/')) return 'captcha';
  if (doc.querySelector('form#captcha-form, div.g-recaptcha, img[src*="/sorry/image"]')) return 'captcha';
  if (u && /^consent\.google\./i.test(u.hostname)) return 'consent';
  if (doc.querySelector('form[action*="consent.google."]')) return 'consent';
  if (doc.querySelector('[role="feed"]')) return 'results';

  const text = visibleText(doc);
  // In every interface language (labels.ts): the page's language follows the sweep's `hl`.
  if (matchesAny(UNUSUAL_TRAFFIC_PATTERNS, text)) return 'captcha';
  if (matchesAny(NOT_FOUND_PATTERNS, text)) return 'no-results';
  if (findPlacePanel(doc, url)) return 'place';
  return 'unknown';
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

const MAX_TEXT = 200_000;

/** Page text without scripts and styles (inline scripts quote all kinds of UI strings). */
function visibleText(doc: Document): string {
  const body = doc.body;
  if (!body) return '';
  const parts: string[] = [];
  let length = 0;
  const visit = (node: Node): void => {
    for (let child = node.firstChild; child && length < MAX_TEXT; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const t = child.textContent ?? '';
        parts.push(t);
        length += t.length;
      } else if (child.nodeType === 1) {
        const tag = (child as Element).tagName;
        if (tag !== 'SCRIPT' && tag !== 'STYLE' && tag !== 'NOSCRIPT' && tag !== 'TEMPLATE') visit(child);
      }
    }
  };
  visit(body);
  return cleanText(parts.join(' '));
}
