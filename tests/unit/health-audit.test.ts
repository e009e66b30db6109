import { describe, expect, it } from 'vitest';
import { auditConfirmsQuiet, auditObservation, FIRST_RESULTS, isBrokenAudit, summariseAudits } from '../../utils/domain/audit-page';
import type { PageAudit } from '../../utils/domain/page-audit';
import { failedOnUnreadCards, judgeObservation } from '../../utils/sweep/judge';
import { googleProvider } from '../../utils/providers/google/provider';
import type { Observation, PageKind } from '../../utils/domain/sweep';
import { cafe } from './schedule-fixtures';
import { seeded } from './store-fixtures';

function observation(overrides: Partial<Observation> = {}): Observation {
  return {
    url: 'https://www.google.com/maps/search/cafe/@37.563,126.98,16z',
    pageKind: 'results',
    cardsVisible: 0,
    listings: [],
    networkItems: null,
    networkKeys: [],
    endOfList: true,
    capHit: false,
    finalView: { lat: 37.563, lng: 126.98, zoom: 16 },
    elapsedMs: 1000,
    httpStatus: 200,
    stopReason: 'end',
    warnings: [],
    ...overrides,
  };
}

const cafes = (n: number, from = 1) => Array.from({ length: n }, (_, i) => cafe(String(from + i)));

describe('auditObservation', () => {
  it('counts cards, organic and sponsored listings, and keeps the first organic results in page order', () => {
    const listings = [cafe('7', { sponsored: true }), ...cafes(12)];
    const audit = auditObservation(observation({ cardsVisible: 13, listings, networkItems: 12, networkKeys: cafes(12).map((l) => l.key) }));
    expect(audit).toEqual({
      pageKind: 'results',
      cardsVisible: 13,
      extracted: 12,
      sponsored: 1,
      networkItems: 12,
      networkMatched: 12,
      firstKeys: cafes(FIRST_RESULTS).map((l) => l.key),
      verdict: 'ok',
      networkShortfall: false,
    });
  });

  it('says "nothing read" when cards are on screen and nothing was read, "empty" only when the page says so', () => {
    expect(auditObservation(observation({ cardsVisible: 20 })).verdict).toBe('nothing-read');
    expect(auditObservation(observation({ pageKind: 'no-results', endOfList: false })).verdict).toBe('empty');
    expect(auditObservation(observation({ cardsVisible: 0 })).verdict).toBe('not-recognised');
    expect(auditObservation(observation({ cardsVisible: 20, listings: cafes(15) })).verdict).toBe('shortfall');
    // One unread card is enough: no share of unread cards is ever accepted.
    expect(auditObservation(observation({ cardsVisible: 20, listings: cafes(19) })).verdict).toBe('shortfall');
    expect(auditObservation(observation({ cardsVisible: 20, listings: cafes(20) })).verdict).toBe('ok');
  });

  it('flags a page whose own data holds clearly more places than were read', () => {
    const network = cafes(20).map((l) => l.key);
    const audit = auditObservation(observation({ cardsVisible: 10, listings: cafes(10), networkItems: 20, networkKeys: network }));
    expect(audit.verdict).toBe('ok');
    expect(audit.networkMatched).toBe(10);
    expect(audit.networkShortfall).toBe(true);
  });

  it('agrees with the driver’s judge on every page: broken audit ⇔ the judge refuses the page as unreadable (seeded property)', () => {
    const random = seeded(42);
    const kinds: PageKind[] = ['results', 'place', 'no-results', 'unknown'];
    for (let i = 0; i < 2000; i++) {
      const pageKind = kinds[Math.floor(random() * kinds.length)]!;
      const cardsVisible = Math.floor(random() * 30);
      const read = Math.floor(random() * (cardsVisible + 3));
      const sponsored = Math.floor(random() * 3);
      const listings = [...cafes(read), ...Array.from({ length: Math.min(sponsored, read) }, (_, j) => cafe(String(500 + j), { sponsored: true }))];
      const obs = observation({ pageKind, cardsVisible, listings });
      const judged = judgeObservation(obs, { bbox: { south: 37, west: 126, north: 38, east: 127 } }, obs.finalView!, 0, googleProvider);
      // Unreadable: the extractor stop, or the retry a page with unread cards gets the first time.
      const unreadable = judged.verdict === 'failed' && (judged.error.kind === 'extractor' || failedOnUnreadCards(judged.error));
      expect(isBrokenAudit(auditObservation(obs)), JSON.stringify({ pageKind, cardsVisible, read, sponsored })).toBe(unreadable);
      if (auditObservation(obs).verdict === 'empty') expect(judged.verdict).toBe('accepted');
    }
  });
});

describe('auditConfirmsQuiet', () => {
  const base: PageAudit = auditObservation(observation({ cardsVisible: 10, listings: cafes(10) }));

  it('confirms only a well-read page whose first results were all stored before', () => {
    expect(auditConfirmsQuiet({ ...base, firstKnown: 10 })).toBe(true);
    expect(auditConfirmsQuiet({ ...base, firstKnown: 9 })).toBe(false);
    expect(auditConfirmsQuiet(base)).toBe(false); // not committed: nobody checked the store
    expect(auditConfirmsQuiet({ ...base, firstKnown: 10, verdict: 'shortfall' })).toBe(false);
    expect(auditConfirmsQuiet({ ...base, firstKnown: 10, networkShortfall: true })).toBe(false);
    expect(auditConfirmsQuiet({ ...base, firstKeys: [], firstKnown: 0 })).toBe(false);
  });
});

describe('summariseAudits', () => {
  it('adds up pages by hand-computed figures and picks the newest as the last', () => {
    const ok = auditObservation(observation({ cardsVisible: 10, listings: cafes(10), networkItems: 10, networkKeys: cafes(10).map((l) => l.key) }));
    const broken = auditObservation(observation({ cardsVisible: 8 }));
    const empty = auditObservation(observation({ pageKind: 'no-results' }));
    const s = summariseAudits([
      { at: 30, audit: broken },
      { at: 10, audit: ok },
      { at: 20, audit: empty },
    ]);
    expect(s).toMatchObject({ pages: 3, lastAt: 30, cardsVisible: 18, extracted: 10, networkItems: 10, broken: 1, empty: 1, networkShortfalls: 0 });
    expect(s.last?.verdict).toBe('nothing-read');
    expect(summariseAudits([])).toMatchObject({ pages: 0, lastAt: null, last: null, networkItems: null });
  });
});
