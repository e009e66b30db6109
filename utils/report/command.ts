/**
 * The background's side of Check this page (issue 41): the tab the popup names must be a map
 * site's; its content script is asked what it sees (a look: nothing is scrolled, pressed or
 * loaded), and its answer is read as page content — its shape checked before it decides anything.
 */
import type { Reply } from '../domain/errors';
import type { PageLook } from '../domain/page-look';
import { PROVIDERS, providerOfUrl } from '../providers/registry';
import { blockObservation } from '../domain/sweep';
import type { ProviderId } from '../domain/place';
import { pageCheckOf, type PageCheck } from './check';

export interface PageCheckDeps {
  /** The tab's address, or null when there is no such tab. */
  tabUrl(tabId: number): Promise<string | null>;
  /** The map tab used last (any site), when the popup names none (it was opened as a tab of its own). */
  lastMapTab(): Promise<number | null>;
  /** The content script's look (check-protocol.ts lookAtPage), rejecting when no script answers. */
  look(tabId: number): Promise<unknown>;
  /** The content script's document and look (check-protocol.ts pageSnapshot). */
  snapshot(tabId: number): Promise<unknown>;
  /** Rejects after `ms`. */
  timeout<T>(p: Promise<T>, ms: number): Promise<T>;
}

/** How long the tab may take to answer: its settle wait (1.5 s), a Naver frame's turn, and a margin. */
export const LOOK_TIMEOUT_MS = 10_000;

type Resolved =
  | { ok: true; tabId: number; url: string; site: ProviderId; name: string; blocked: 'captcha' | 'consent' | null }
  | { ok: false; error: { code: string; message: string } };

const NOT_A_MAP_TAB = {
  code: 'not-a-map-tab',
  message: "Open Google Maps, Naver Map or Kakao Map in a tab first: Check this page reads a map site's page.",
};
const NOT_ANSWERING = {
  code: 'page-not-answering',
  message: 'MapSweep is not running in this tab yet (it was open before MapSweep was): reload the page, then check again.',
};

export function createPageCheck(deps: PageCheckDeps) {
  /** The tab the popup named (or the map tab used last), and its site; a consent or captcha page by its address. */
  async function resolve(req: { tabId?: number }): Promise<Resolved> {
    const tabId = req?.tabId === undefined ? await deps.lastMapTab() : req.tabId;
    if (typeof tabId !== 'number' || !Number.isInteger(tabId)) return { ok: false, error: NOT_A_MAP_TAB };
    const url = (await deps.tabUrl(tabId).catch(() => null)) ?? '';
    const blocked = blockedPageOf(url);
    if (blocked) return { ok: true, tabId, url, site: blocked.site, name: blocked.name, blocked: blocked.kind };
    const provider = providerOfUrl(url);
    if (!provider) return { ok: false, error: NOT_A_MAP_TAB };
    return { ok: true, tabId, url, site: provider.id, name: provider.displayName, blocked: null };
  }

  return {
    async checkPage(req: { tabId?: number }): Promise<Reply<{ check: PageCheck }>> {
      const tab = await resolve(req);
      if (!tab.ok) return tab;
      // A consent or captcha page is said from its address (no content script runs there).
      if (tab.blocked) return { ok: true, check: pageCheckOf({ observation: blockObservation(tab.url, tab.blocked), lang: null, frame: 'top' }, tab.name) };
      let look: unknown;
      try {
        look = await deps.timeout(deps.look(tab.tabId), LOOK_TIMEOUT_MS);
      } catch {
        return { ok: false, error: NOT_ANSWERING };
      }
      if (!isPageLook(look)) return { ok: false, error: { code: 'page-unreadable', message: 'The page answered something MapSweep cannot read.' } };
      return { ok: true, check: pageCheckOf(look, tab.name) };
    },

    /** The source of a page report: the popup redacts it before it shows or saves anything (report.ts). */
    async pageReportSource(req: { tabId?: number }): Promise<Reply<{ site: ProviderId; url: string; html: string; check: PageCheck }>> {
      const tab = await resolve(req);
      if (!tab.ok) return tab;
      if (tab.blocked)
        return { ok: false, error: { code: 'blocked-page', message: 'A consent or captcha page is not reported: answer it, then report the map page.' } };
      let snapshot: unknown;
      try {
        snapshot = await deps.timeout(deps.snapshot(tab.tabId), LOOK_TIMEOUT_MS);
      } catch {
        return { ok: false, error: NOT_ANSWERING };
      }
      const s = snapshot as { html?: unknown; look?: unknown } | null;
      if (!s || typeof s.html !== 'string' || !isPageLook(s.look))
        return { ok: false, error: { code: 'page-unreadable', message: 'The page answered something MapSweep cannot read.' } };
      return { ok: true, site: tab.site, url: tab.url, html: s.html, check: pageCheckOf(s.look, tab.name) };
    },
  };
}

/** A look as the content script sends it; anything else is refused (page content decides nothing unchecked). */
export function isPageLook(v: unknown): v is PageLook {
  if (typeof v !== 'object' || v === null) return false;
  const l = v as Record<string, unknown>;
  const o = l.observation as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null) return false;
  if (!(l.lang === null || typeof l.lang === 'string') || !['top', 'list-frame', 'place-frame'].includes(l.frame as string)) return false;
  const count = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  return (
    typeof o.url === 'string' &&
    typeof o.pageKind === 'string' &&
    ['results', 'place', 'no-results', 'captcha', 'consent', 'unknown'].includes(o.pageKind) &&
    count(o.cardsVisible) &&
    Array.isArray(o.listings) &&
    o.listings.every((x) => typeof x === 'object' && x !== null && typeof (x as { name?: unknown }).name === 'string') &&
    Array.isArray(o.warnings) &&
    o.warnings.every((w) => typeof w === 'string') &&
    typeof o.endOfList === 'boolean' &&
    (o.networkItems === null || count(o.networkItems))
  );
}

/** The site whose consent or captcha page `url` is, and which kind. */
function blockedPageOf(url: string): { site: ProviderId; name: string; kind: 'captcha' | 'consent' } | null {
  for (const p of PROVIDERS) {
    const kind = p.blockedPageKind(url);
    if (kind) return { site: p.id, name: p.displayName, kind };
  }
  return null;
}
