/**
 * Check this page (issue 41): what MapSweep's own readers make of the page a person has open, in
 * a short table and one line of verdict, before an afternoon's sweep is spent on it. Pure: it
 * reads an Observation, the very thing a sweep's visit gives the judge, taken by the site's
 * content script without scrolling, clicking or loading anything (`CollectOptions.look`).
 *
 * The verdict is the judge's reading in people's words, never kinder: a page that cannot be read
 * is a page a sweep cannot use, and the line says which part failed (the page kind, the cards,
 * the page data, the end of the list).
 */
import type { Listing } from '../domain/listing';
import type { Observation, PageKind } from '../domain/sweep';
import type { PageLook } from '../domain/page-look';

export type { PageLook };

/** The fields a sweep exports that the check counts, in the table's order. */
export const CHECKED_FIELDS = ['name', 'category', 'address', 'phone', 'website', 'hours', 'rating', 'reviews', 'coordinates'] as const;
export type CheckedField = (typeof CHECKED_FIELDS)[number];

export type PageCheckKind = 'results' | 'place' | 'no-results' | 'consent' | 'captcha' | 'limited' | 'unknown';

export interface PageCheck {
  site: string;
  kind: PageCheckKind;
  lang: string | null;
  frame: PageLook['frame'];
  /** Cards the page shows (organic and sponsored; 1 on a place page). */
  cardsSeen: number;
  /** Places read from them (sponsored ones included, flagged). */
  cardsRead: number;
  /** Organic cards shown that no place was read from. */
  unread: number;
  /** How many of the places read carry each field. */
  fields: Record<CheckedField, number>;
  /** The page's end-of-list sign was recognised (a list that was not scrolled to its end may not show it yet). */
  endOfList: boolean;
  /** The page's own data (its search answers, its state) was recognised and read. */
  pageData: boolean;
  /** True when a sweep can work on this page as it is. */
  ok: boolean;
  /** The verdict, one line, in English (the report's). */
  verdict: string;
  /** The same verdict for the interface's language: a message key (`checkVerdict_…`) and its parameters. */
  verdictKey: string;
  verdictParams: string[];
  /** The readers' notes on the page (bounded), for the report and a maintainer. */
  notes: string[];
}

const MAX_NOTES = 12;

function has(l: Listing, f: CheckedField): boolean {
  switch (f) {
    case 'name':
      return l.name.trim() !== '';
    case 'coordinates':
      return l.lat !== null && l.lng !== null;
    case 'hours':
      return !!l.hours;
    default: {
      const v = l[f];
      return v !== null && v !== undefined && v !== '';
    }
  }
}

function kindOf(obs: Observation): PageCheckKind {
  if (obs.pageKind === 'results' && obs.limitedView) return 'limited';
  // A list read, but not proven whole as it shows now (a lazy batch not scrolled to, a list still
  // loading): a list all the same, whose proof is the sweep's scroll, which a look does not do.
  if (obs.pageKind === 'unknown' && obs.unproven && obs.listings.length > 0) return 'results';
  const kinds: Record<PageKind, PageCheckKind> = {
    results: 'results',
    place: 'place',
    'no-results': 'no-results',
    captcha: 'captcha',
    consent: 'consent',
    unknown: 'unknown',
  };
  return kinds[obs.pageKind];
}

export function pageCheckOf(look: PageLook, site: string): PageCheck {
  const obs = look.observation;
  const kind = kindOf(obs);
  const organic = obs.listings.filter((l) => !l.sponsored);
  const shownOrganic = obs.organicShown ?? Math.max(0, obs.cardsVisible - (obs.listings.length - organic.length));
  const unread = Math.max(0, shownOrganic - organic.length);
  const fields = Object.fromEntries(CHECKED_FIELDS.map((f) => [f, obs.listings.filter((l) => has(l, f)).length])) as Record<CheckedField, number>;
  // The page's own answers seen by the hook, or a field a place took from the page's data.
  const pageData = obs.networkItems !== null || obs.listings.some((l) => Object.values(l.sources ?? {}).includes('page-data'));
  const { ok, verdict, key, params } = verdictOf(kind, obs, { site, unread, read: obs.listings.length, fields });
  return {
    site,
    kind,
    lang: look.lang,
    frame: look.frame,
    cardsSeen: obs.cardsVisible,
    cardsRead: obs.listings.length,
    unread,
    fields,
    endOfList: obs.endOfList,
    pageData,
    ok,
    verdict,
    verdictKey: `checkVerdict_${key}`,
    verdictParams: params,
    notes: [...(obs.unproven ? [obs.unproven] : []), ...obs.warnings].slice(0, MAX_NOTES).map((n) => n.slice(0, 300)),
  };
}

type Verdict = { ok: boolean; verdict: string; key: string; params: string[] };

function verdictOf(kind: PageCheckKind, obs: Observation, c: { site: string; unread: number; read: number; fields: Record<CheckedField, number> }): Verdict {
  const v = (ok: boolean, key: string, params: (string | number)[], verdict: string): Verdict => ({ ok, key, params: params.map(String), verdict });
  switch (kind) {
    case 'captcha':
      return v(false, 'captcha', [c.site], `${c.site} is asking to prove you are not a robot: answer it in this tab; a sweep would pause here.`);
    case 'consent':
      return v(false, 'consent', [c.site], `${c.site} is asking for cookie consent: answer it in this tab; a sweep would pause here.`);
    case 'limited':
      return v(
        false,
        'limited',
        [c.site, String(obs.limitedView)],
        `${c.site} shows its signed-out limited view (recognised by: ${obs.limitedView}): sign in; a sweep would pause here.`,
      );
    case 'no-results':
      return v(true, 'no_results', [], 'The page says nothing was found here; a sweep reads that as an empty cell. A sweep will work here.');
    case 'unknown': {
      if (obs.unproven) {
        const why = obs.unproven.slice(0, 200);
        return v(false, 'unproven', [why], `The page was recognised but could not be proven whole: ${why}`);
      }
      if (obs.cardsVisible > 0 && c.read === 0) return changed(obs.cardsVisible);
      return v(
        false,
        'unknown',
        [c.site],
        `MapSweep does not recognise this page (no results list, place, or notice it knows). Open a search or a place on ${c.site}.`,
      );
    }
    case 'place':
      if (c.read === 0) return v(false, 'place_unread', [], 'A place page, but its place could not be read: the page may have changed.');
      return v(true, 'place_ok', [], `A place page, read: ${missingLine(c.fields, c.read)}. Place details will work here.`);
    case 'results': {
      if (c.read === 0 && obs.cardsVisible > 0) return changed(obs.cardsVisible);
      if (c.unread > 0)
        return v(false, 'unread', [c.unread], `${c.unread} of the cards shown could not be read: a sweep would retry, then stop with "the map page changed".`);
      if (c.fields.name < c.read)
        return v(false, 'nameless', [c.read - c.fields.name], `${c.read - c.fields.name} places were read without a name: the page may have changed.`);
      if (obs.unproven) {
        const why = obs.unproven.slice(0, 160);
        return v(
          true,
          'lazy',
          [c.read, why],
          `A sweep will work here as far as a look can tell: ${c.read} places read, ${missingLine(c.fields, c.read)}; the list is proven whole only once it is scrolled, which a check does not do (${why}).`,
        );
      }
      return v(true, 'ok', [c.read], `A sweep will work here: ${c.read} places read, ${missingLine(c.fields, c.read)}.`);
    }
  }
  function changed(cards: number): Verdict {
    return v(false, 'changed', [cards], `The map page changed: ${cards} cards are shown and none could be read. A sweep would stop here.`);
  }
}

/** "every field on every place", or which fields some places lack. */
function missingLine(fields: Record<CheckedField, number>, read: number): string {
  const short = CHECKED_FIELDS.filter((f) => fields[f] < read);
  if (short.length === 0) return 'every field on every place';
  return `${short.map((f) => `${f} on ${fields[f]} of ${read}`).join(', ')} (the rest come from place pages or are not shown)`;
}
