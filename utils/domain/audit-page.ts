import type { Observation } from './sweep';
import { readability } from './readability';
import type { AuditVerdict, PageAudit, PageDataCounts } from './page-audit';

/**
 * Below this share of the page's own response items found in the DOM, the network cross-check
 * flags a shortfall. Extra evidence only: responses can hold more places than the feed has
 * rendered yet, so it is a share, not every item.
 */
const NETWORK_MIN_SHARE = 0.8;

/** How many of a page's first organic results the audit remembers: about one screenful. */
export const FIRST_RESULTS = 10;

/**
 * The coverage audit of one observed page: what the page showed (cards, network items)
 * against what was read. The verdict follows the same rule as judgeObservation (a page with
 * any unread organic card is never accepted), so the audit and the driver never disagree; the network comparison is extra evidence the
 * judge does not act on (responses can hold more places than the feed has rendered yet).
 */
export function auditObservation(obs: Observation & PageDataCounts): PageAudit {
  const organic = obs.listings.filter((l) => !l.sponsored);
  const sponsored = obs.listings.length - organic.length;
  const cut = organic.filter((l) => (l.cut?.length ?? 0) > 0).length;
  const readKeys = new Set(organic.map((l) => l.key));
  const networkKeys = new Set(obs.networkKeys);
  const networkMatched = obs.networkItems === null ? null : [...networkKeys].filter((k) => readKeys.has(k)).length;
  const firstKeys: string[] = [];
  for (const l of organic) {
    if (firstKeys.length >= FIRST_RESULTS) break;
    if (!firstKeys.includes(l.key)) firstKeys.push(l.key);
  }
  return {
    pageKind: obs.pageKind,
    cardsVisible: obs.cardsVisible,
    extracted: organic.length,
    sponsored,
    networkItems: obs.networkItems,
    networkMatched,
    firstKeys,
    verdict: verdictOf(obs),
    networkShortfall: networkKeys.size > 0 && networkMatched !== null && networkMatched < NETWORK_MIN_SHARE * networkKeys.size,
    // Counted only: page data never changes the verdict (the trust rule, utils/listing/merge-fields.ts).
    ...(isCount(obs.pageDataDropped) ? { pageDataDropped: obs.pageDataDropped } : {}),
    ...(cut > 0 ? { listingsCut: cut } : {}),
  };
}

/** The audit's words for the judge's readability verdict (utils/domain/readability.ts). */
function verdictOf(obs: Observation): AuditVerdict {
  if (obs.pageKind === 'no-results') return 'empty';
  const read = readability(obs);
  switch (read.kind) {
    case 'nothing-read':
      return 'nothing-read';
    case 'some-unread':
      return 'shortfall';
    case 'not-recognised':
      return 'not-recognised';
    case 'read':
      return 'ok';
  }
}

/** A page that says the extractor does not fit it any more. */
export function isBrokenAudit(audit: PageAudit): boolean {
  return audit.verdict === 'nothing-read' || audit.verdict === 'shortfall';
}

/**
 * Whether an audit shows that a quiet saved search is really quiet: the page was read well,
 * and every one of its first results was already stored. A page with nothing on it confirms
 * nothing (an empty page is also what a broken search looks like).
 */
export function auditConfirmsQuiet(audit: PageAudit): boolean {
  return (
    audit.verdict === 'ok' &&
    !audit.networkShortfall &&
    audit.firstKeys.length > 0 &&
    audit.firstKnown !== undefined &&
    audit.firstKnown === audit.firstKeys.length
  );
}

/** What the Health panel says about coverage, over a set of audited pages. */
export interface AuditSummary {
  pages: number;
  lastAt: number | null;
  /** The newest audit, for "cards visible vs extracted" of the last page. */
  last: (PageAudit & { at: number }) | null;
  cardsVisible: number;
  extracted: number;
  /** Null when no page had network data. */
  networkItems: number | null;
  /** Pages whose extraction fell short (nothing read, or too little). */
  broken: number;
  networkShortfalls: number;
  empty: number;
}

export function summariseAudits(audits: readonly { at: number; audit: PageAudit }[]): AuditSummary {
  let last: { at: number; audit: PageAudit } | null = null;
  let cardsVisible = 0;
  let extracted = 0;
  let networkItems: number | null = null;
  let broken = 0;
  let networkShortfalls = 0;
  let empty = 0;
  for (const a of audits) {
    if (!last || a.at >= last.at) last = a;
    cardsVisible += a.audit.cardsVisible;
    extracted += a.audit.extracted;
    if (a.audit.networkItems !== null) networkItems = (networkItems ?? 0) + a.audit.networkItems;
    if (isBrokenAudit(a.audit)) broken += 1;
    if (a.audit.networkShortfall) networkShortfalls += 1;
    if (a.audit.verdict === 'empty') empty += 1;
  }
  return {
    pages: audits.length,
    lastAt: last?.at ?? null,
    last: last ? { ...last.audit, at: last.at } : null,
    cardsVisible,
    extracted,
    networkItems,
    broken,
    networkShortfalls,
    empty,
  };
}

const VERDICTS: readonly AuditVerdict[] = ['ok', 'empty', 'nothing-read', 'shortfall', 'not-recognised'];
const PAGE_KINDS = ['results', 'place', 'no-results', 'captcha', 'consent', 'unknown'];
const MAX_COUNT = 100_000;

/** Why an audit cannot be stored, or null. It is built from page content, so it is checked. */
export function auditProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'not an object';
  const a = value as Record<string, unknown>;
  if (!PAGE_KINDS.includes(a.pageKind as string)) return `unknown page kind ${JSON.stringify(a.pageKind)}`;
  if (!VERDICTS.includes(a.verdict as AuditVerdict)) return `unknown verdict ${JSON.stringify(a.verdict)}`;
  for (const f of ['cardsVisible', 'extracted', 'sponsored'] as const) {
    if (!isCount(a[f])) return `${f} is not a count`;
  }
  for (const f of ['networkItems', 'networkMatched'] as const) {
    if (a[f] !== null && !isCount(a[f])) return `${f} is neither a count nor null`;
  }
  if (a.firstKnown !== undefined && !isCount(a.firstKnown)) return 'firstKnown is not a count';
  if (a.pageDataDropped !== undefined && !isCount(a.pageDataDropped)) return 'pageDataDropped is not a count';
  if (a.listingsCut !== undefined && !isCount(a.listingsCut)) return 'listingsCut is not a count';
  if (typeof a.networkShortfall !== 'boolean') return 'networkShortfall is not a boolean';
  const keys = a.firstKeys;
  if (!Array.isArray(keys) || keys.length > FIRST_RESULTS || !keys.every((k) => typeof k === 'string' && PLACE_KEY.test(k))) {
    return `firstKeys must be at most ${FIRST_RESULTS} place keys`;
  }
  return null;
}

/** A place key of any provider (`google:{cid}`, `naver:{id}`, `kakao:{confirmid}`): the ids are digits on every site. */
const PLACE_KEY = /^(?:google|naver|kakao):\d{1,20}$/;

function isCount(v: unknown): boolean {
  return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_COUNT;
}
