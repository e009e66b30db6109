import type { Observation } from './sweep';

/**
 * Whether the extractor read what the page showed: the one verdict the sweep's judge (retry,
 * or stop as "the map page changed") and the Health audit (utils/domain/audit-page.ts) both act on,
 * so the two can never disagree about a page.
 */
export type Readability =
  /** Every card shown was read (or the page shows no cards because it says there are none). */
  | { kind: 'read' }
  /** Cards (or a place panel) on screen and nothing read, or cards on a page not recognised as a list: the extractor does not fit the page. */
  | { kind: 'nothing-read'; shown: number }
  /** Some organic cards shown were not read: never accepted (a retry, then a stop). */
  | { kind: 'some-unread'; shown: number; unread: number }
  /** Neither cards nor anything that explains their absence. */
  | { kind: 'not-recognised' };

export function readability(obs: Observation): Readability {
  const organic = obs.listings.filter((l) => !l.sponsored).length;
  switch (obs.pageKind) {
    case 'no-results':
    case 'captcha':
    case 'consent':
      return { kind: 'read' };
    case 'place':
      return organic > 0 ? { kind: 'read' } : { kind: 'nothing-read', shown: 1 };
    case 'results': {
      if (obs.cardsVisible > 0 && obs.listings.length === 0) return { kind: 'nothing-read', shown: obs.cardsVisible };
      const shown = obs.organicShown ?? obs.cardsVisible - (obs.listings.length - organic);
      if (shown - organic > 0) return { kind: 'some-unread', shown, unread: shown - organic };
      return obs.cardsVisible > 0 ? { kind: 'read' } : { kind: 'not-recognised' };
    }
    default:
      // A list the collector recognised and read but could not prove whole (`unproven`: a list
      // short of its own count, a pager it cannot read) is not an extractor that no longer fits:
      // the judge retries it. Cards on any other page not recognised are.
      if (obs.cardsVisible === 0) return { kind: 'not-recognised' };
      return obs.unproven && obs.listings.length > 0 ? { kind: 'read' } : { kind: 'nothing-read', shown: obs.cardsVisible };
  }
}
