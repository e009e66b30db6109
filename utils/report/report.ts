/**
 * The page report (issue 41): one JSON file a person can attach to a bug report, made from the
 * map page they have open. It holds the page's DOM redacted (redact.ts: structure, roles, classes
 * and the site's own interface words kept; every text, id, name, phone, e-mail and review replaced
 * by a placeholder of the same shape), the page's address stripped the same way, and what
 * MapSweep's readers saw of the page (check.ts), so a maintainer can see where a reader failed and
 * load the page back into a test (docs/REPORTS.md). Nothing is sent anywhere: the popup saves it.
 */
import { paramNames } from '../net/url-params';
import type { ProviderId } from '../domain/place';
import type { PageCheck } from './check';
import { interfaceWordsFor } from './interface-words';
import { placeholderText, redactHtml, redactUrl, type RedactionStats } from './redact';

export const REPORT_FORMAT = 'mapsweep-page-report/1';

export interface PageReport {
  format: typeof REPORT_FORMAT;
  site: ProviderId;
  /** The page's address: path words of the site kept, other segments as placeholders, query keys without their values, no fragment. */
  url: string;
  /** ISO time of the capture. */
  capturedAt: string;
  /** MapSweep's version that made it. */
  version: string;
  /** What the readers saw (Check this page), the page's own content left out of its notes. */
  check: Omit<PageCheck, 'notes'> & { notes: string[] };
  /** The page's DOM, redacted. */
  html: string;
  stats: RedactionStats;
}

/**
 * The page's address without what it says of the person or the place: see PageReport.url. The
 * path is redacted by the rule of the page's own links (redact.ts redactUrl): the site's path words
 * kept, every word after `search`, `place`, `dir`, `preview` shaped; query keys kept once each,
 * without their values; no fragment.
 */
export function strippedUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '';
  }
  const page = redactUrl(`${u.protocol}//${u.host}${u.pathname}`);
  const keys = paramNames(u.searchParams).filter((k) => /^[\w.-]{1,40}$/.test(k));
  return `${page}${keys.length ? `?${keys.map((k) => `${k}=`).join('&')}` : ''}`;
}

export function buildPageReport(
  input: { site: ProviderId; url: string; html: string; check: PageCheck; now: Date; version: string },
  parse: (html: string) => Document,
): PageReport {
  const { html, stats } = redactHtml(input.html, parse, { keep: interfaceWordsFor(input.site) });
  return {
    format: REPORT_FORMAT,
    site: input.site,
    url: strippedUrl(input.url),
    capturedAt: input.now.toISOString(),
    version: input.version,
    check: { ...input.check, notes: input.check.notes.map(noteWithoutContent) },
    html,
    stats,
  };
}

/**
 * A reader's note is MapSweep's own English with counts, but may quote the page (a Korean name, a
 * place id): text outside ASCII is shaped like the page's text, long digit runs become zeros.
 */
export function noteWithoutContent(note: string): string {
  return note.replace(/[^\p{ASCII}]+/gu, (run) => placeholderText(run)).replace(/\d{5,}/g, (run) => '0'.repeat(run.length));
}

/** `mapsweep-report_kakao_2026-12-05T10-11-12.json` */
export function reportFileName(report: Pick<PageReport, 'site' | 'capturedAt'>): string {
  return `mapsweep-report_${report.site}_${report.capturedAt.slice(0, 19).replace(/:/g, '-')}.json`;
}
