import type { PageKind } from '../../domain/sweep';
import { cleanText, matchesAny, NOT_FOUND_PATTERNS, UNUSUAL_TRAFFIC_PATTERNS } from './labels';
import { findPlacePanel } from './place';
import { blockedPageKind } from './urls';
import { visibleText } from '../visible-text';

/**
 * What a Google page is (spec §1.2, §1.3, §1.6, §1.7). Blocks come first: a captcha or
 * consent page must never be read as "no results".
 */
export function detectPageKind(doc: Document, url: string): PageKind {
  const byUrl = blockedPageKind(url);
  if (byUrl === 'captcha') return 'captcha';
  if (doc.querySelector('form#captcha-form, div.g-recaptcha, img[src*="/sorry/image"]')) return 'captcha';
  if (byUrl === 'consent') return 'consent';
  if (doc.querySelector('form[action*="consent.google."]')) return 'consent';
  if (doc.querySelector('[role="feed"]')) return 'results';

  const text = cleanText(visibleText(doc.body));
  // In every interface language (labels.ts): the page's language follows the sweep's `hl`.
  if (matchesAny(UNUSUAL_TRAFFIC_PATTERNS, text)) return 'captcha';
  if (matchesAny(NOT_FOUND_PATTERNS, text)) return 'no-results';
  if (findPlacePanel(doc, url)) return 'place';
  return 'unknown';
}
