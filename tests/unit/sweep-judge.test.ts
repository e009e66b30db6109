import { describe, expect, it } from 'vitest';
import { isTransportError } from '../../utils/browser/page-driver';
import type { Listing } from '../../utils/domain/listing';
import { failedOnUnreadCards, judgeObservation } from '../../utils/sweep/judge';
import { googleProvider } from '../../utils/providers/google/provider';
import { resultsObservation } from '../helpers/observations';
import type { Observation } from '../../utils/domain/sweep';

const BBOX = { south: 37.5, west: 126.9, north: 37.6, east: 127.0 };
const VIEW = { lat: 37.55, lng: 126.95, zoom: 15 };

function listing(i: number, over: Partial<Listing> = {}): Listing {
  return {
    key: `google:${1000 + i}`,
    provider: 'google',
    providerId: String(1000 + i),
    placeId: null,
    featureId: null,
    cid: String(1000 + i),
    name: `P${i}`,
    category: null,
    address: null,
    phone: null,
    website: null,
    rating: null,
    reviews: null,
    lat: 37.55,
    lng: 126.95,
    url: '',
    sponsored: false,
    ...over,
  };
}

function obs(over: Partial<Observation>): Observation {
  const listings = over.listings ?? Array.from({ length: 30 }, (_, i) => listing(i));
  return resultsObservation({ finalView: VIEW, listings, cardsVisible: listings.length, ...over });
}

const judge = (o: Observation) => judgeObservation(o, { bbox: BBOX, keyword: 'cafe' }, VIEW, 5, googleProvider);

describe('judging one page visit', () => {
  it('accepts a results page and measures how much of it lies in the cell', () => {
    const half = [...Array.from({ length: 10 }, (_, i) => listing(i)), ...Array.from({ length: 10 }, (_, i) => listing(50 + i, { lat: 38 }))];
    const j = judge(obs({ listings: half }));
    expect(j.verdict).toBe('accepted');
    if (j.verdict === 'accepted') expect(j.result.insideShare).toBe(0.5);
  });

  it('believes "no results" only from the page itself', () => {
    expect(judge(obs({ pageKind: 'no-results', listings: [], cardsVisible: 0 })).verdict).toBe('accepted');
    const silent = judge(obs({ listings: [], cardsVisible: 0, endOfList: false }));
    expect(silent).toMatchObject({ verdict: 'failed', error: { kind: 'navigation' } });
  });

  it('calls cards on screen with nothing read a broken extractor at once', () => {
    expect(judge(obs({ listings: [], cardsVisible: 20 }))).toMatchObject({ verdict: 'failed', error: { kind: 'extractor' } });
  });

  it('never accepts a page with an unread organic card: retries once, then calls the page changed', () => {
    const most = Array.from({ length: 19 }, (_, i) => listing(i));
    const first = judge(obs({ listings: most, cardsVisible: 20 }));
    expect(first).toMatchObject({ verdict: 'failed', error: { kind: 'navigation', message: '1 of 20 result cards could not be read.' } });
    if (first.verdict !== 'failed') throw new Error('unreachable');
    expect(failedOnUnreadCards(first.error)).toBe(true);

    const again = judgeObservation(obs({ listings: most, cardsVisible: 20 }), { bbox: BBOX, keyword: 'cafe', lastError: first.error }, VIEW, 6, googleProvider);
    expect(again).toMatchObject({ verdict: 'failed', error: { kind: 'extractor', message: expect.stringMatching(/1 of 20 .*previous attempt/) } });

    // Another earlier failure (an HTTP 500) is not "the same way": this is the first time.
    const afterHttp = judgeObservation(
      obs({ listings: most, cardsVisible: 20 }),
      { bbox: BBOX, lastError: { kind: 'http', message: 'HTTP 500', at: 1 } },
      VIEW,
      6,
      googleProvider,
    );
    expect(afterHttp).toMatchObject({ error: { kind: 'navigation' } });
  });

  it('a retry with fewer cards unread than the last attempt is the page still rendering, not the extractor', () => {
    const cards = (read: number) => obs({ listings: Array.from({ length: read }, (_, i) => listing(i)), cardsVisible: 20 });
    const first = judge(cards(17));
    if (first.verdict !== 'failed') throw new Error('expected a failure');
    expect(first.error).toMatchObject({ kind: 'navigation', unreadCards: 3 });
    const fewer = judgeObservation(cards(19), { bbox: BBOX, lastError: first.error }, VIEW, 6, googleProvider);
    expect(fewer).toMatchObject({ verdict: 'failed', error: { kind: 'navigation', unreadCards: 1 } });
    const asMany = judgeObservation(cards(17), { bbox: BBOX, lastError: first.error }, VIEW, 6, googleProvider);
    expect(asMany).toMatchObject({ verdict: 'failed', error: { kind: 'extractor' } });
    // Another view of the cell (the calibration moved it) is a first look again, however many are unread.
    const elsewhere = judgeObservation({ ...cards(15), url: `${cards(15).url}&moved` }, { bbox: BBOX, lastError: first.error }, VIEW, 6, googleProvider);
    expect(elsewhere).toMatchObject({ verdict: 'failed', error: { kind: 'navigation', unreadCards: 5 } });
    // An error stored by an older version carries no count: the second time is the extractor's, as it was.
    const { unreadCards: _, ...older } = first.error;
    expect(judgeObservation(cards(19), { bbox: BBOX, lastError: older }, VIEW, 6, googleProvider)).toMatchObject({ error: { kind: 'extractor' } });
  });

  it('accepts a crowded list with unread cards only on condition: its cell must be split (its children are judged on their own cards)', () => {
    const most = Array.from({ length: 118 }, (_, i) => listing(i));
    const capped = judge(obs({ listings: most, cardsVisible: 120, capHit: true, endOfList: false }));
    expect(capped).toMatchObject({ verdict: 'accepted', unread: { kind: 'navigation', unreadCards: 2 } });
    // The same page that ended below the cap proves its cell: never accepted with a card unread.
    expect(judge(obs({ listings: most, cardsVisible: 120, capHit: false, endOfList: true }))).toMatchObject({ verdict: 'failed' });
    // A page read in full carries no condition.
    expect(judge(obs({ listings: most, cardsVisible: 118, capHit: true, endOfList: false }))).not.toHaveProperty('unread');
  });

  it('counts unread cards from organicShown when the page reports it (ads it could not read are not places)', () => {
    const all = Array.from({ length: 20 }, (_, i) => listing(i));
    // 22 cards: 20 organic read, 2 ads (one repeating an organic place, so no listing of its own).
    expect(judge(obs({ listings: all, cardsVisible: 22, organicShown: 20 })).verdict).toBe('accepted');
    expect(judge(obs({ listings: all, cardsVisible: 22, organicShown: 21 }))).toMatchObject({ error: { kind: 'navigation' } });
  });

  it('fails a limited-view page as "limited" before anything could be accepted, telling the user to sign in', () => {
    const five = Array.from({ length: 5 }, (_, i) => listing(i, { rating: 4.5 }));
    const j = judge(obs({ listings: five, limitedView: 'short-list' }));
    expect(j).toMatchObject({
      verdict: 'failed',
      error: { kind: 'limited', message: expect.stringMatching(/Sign in to Google Maps in this browser, then press Resume/) },
    });
    expect(judge(obs({ listings: five, limitedView: null })).verdict).toBe('accepted');
  });

  it('pauses for captcha and consent, retries HTTP errors', () => {
    expect(judge(obs({ pageKind: 'captcha' }))).toMatchObject({ error: { kind: 'blocked' } });
    expect(judge(obs({ pageKind: 'consent' }))).toMatchObject({ error: { kind: 'consent' } });
    expect(judge(obs({ httpStatus: 429 }))).toMatchObject({ error: { kind: 'blocked' } });
    expect(judge(obs({ httpStatus: 503 }))).toMatchObject({ error: { kind: 'http', message: expect.stringMatching(/503/) } });
  });

  it('refuses a page showing another search than the cell’s', () => {
    const other = obs({ url: 'https://www.google.com/maps/search/pharmacy/@37.55,126.95,15z' });
    expect(judge(other)).toMatchObject({ verdict: 'failed', error: { kind: 'navigation' } });
    const sameButSpaced = obs({ url: 'https://www.google.com/maps/search/Cafe/@37.55,126.95,15z' });
    expect(judge(sameButSpaced).verdict).toBe('accepted');
  });

  it('notices when the site zoomed out by itself', () => {
    const j = judge(obs({ finalView: { ...VIEW, zoom: 13 } }));
    expect(j.verdict === 'accepted' && j.result.zoomedOut).toBe(true);
  });
});

describe('which messaging errors are worth a retry', () => {
  it('retries only the channel’s own failures', () => {
    expect(isTransportError(new Error('Could not establish connection. Receiving end does not exist.'))).toBe(true);
    expect(isTransportError(new Error('The message port closed before a response was received.'))).toBe(true);
    expect(
      isTransportError(
        new Error('A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received'),
      ),
    ).toBe(true);
    expect(isTransportError(new TypeError("Cannot read properties of null (reading 'querySelector')"))).toBe(false);
  });
});

describe("the page shows this cell's search", () => {
  it('refuses a page of another view (Back, a reload of another cell): the cell is retried', () => {
    // The neighbouring cell's page: same search, the centre a cell's width away.
    const other = { lat: 37.55, lng: 126.99, zoom: 15 };
    const r = judge(obs({ finalView: other, url: 'https://www.google.com/maps/search/cafe/@37.55,126.99,15z' }));
    expect(r).toMatchObject({ verdict: 'failed', error: { kind: 'navigation' } });
    if (r.verdict === 'failed') expect(r.error.message).toMatch(/instead of this cell's view/);
    // A 'no results' page of another view is not this cell's either.
    expect(judge(obs({ pageKind: 'no-results', listings: [], cardsVisible: 0, finalView: other }))).toMatchObject({ verdict: 'failed' });
  });

  it("accepts the site's own zoom-out (the centre kept) and the URL's rounding", () => {
    expect(judge(obs({ finalView: { lat: 37.55, lng: 126.95, zoom: 12.5 } })).verdict).toBe('accepted');
    expect(judge(obs({ finalView: { lat: 37.5500004, lng: 126.9499996, zoom: 15 } })).verdict).toBe('accepted');
  });

  it('reads the view from the URL when the page gave none', () => {
    const r = judge(obs({ finalView: null, url: 'https://www.google.com/maps/search/cafe/@37.56,126.95,15z' }));
    expect(r.verdict).toBe('failed');
  });
});

describe('zero organic cards (issue 21)', () => {
  it('a list of only sponsored cards is not "no results": the cell is retried, never done', () => {
    const ads = Array.from({ length: 3 }, (_, i) => listing(i, { sponsored: true }));
    const j = judge(obs({ listings: ads, cardsVisible: 3, endOfList: true, capHit: false }));
    expect(j.verdict).toBe('failed');
    if (j.verdict === 'failed') {
      expect(j.error.kind).toBe('navigation');
      expect(j.error.message).toMatch(/sponsored/);
    }
  });

  it('the page\'s own "no results" notice is still believed', () => {
    const j = judge(obs({ pageKind: 'no-results', listings: [], cardsVisible: 0 }));
    expect(j.verdict).toBe('accepted');
  });
});

describe('a list the page did not prove whole (issue 21)', () => {
  it("a page the collector could not prove whole, its cards read, is retried with the collector's reason, never taken for a changed page", () => {
    const why = 'naver-list-short: 22 of 37 places listed, the list total says 37';
    const j = judge(
      obs({
        pageKind: 'unknown',
        cardsVisible: 22,
        listings: Array.from({ length: 22 }, (_, i) => listing(i)),
        unproven: why,
        warnings: ['page-hidden: the tab is in the background', why],
      }),
    );
    expect(j.verdict).toBe('failed');
    if (j.verdict === 'failed') {
      expect(j.error.kind).toBe('navigation');
      expect(j.error.message).toContain(why);
      expect(j.error.message).not.toContain('page-hidden');
    }
  });

  it('cards read on a page the collector did not recognise as a list (no reason it could not prove it) are the extractor, not a retry', () => {
    const j = judge(
      obs({
        pageKind: 'unknown',
        cardsVisible: 22,
        listings: Array.from({ length: 22 }, (_, i) => listing(i)),
        warnings: ['the page is no list the collector knows'],
      }),
    );
    expect(j).toMatchObject({ verdict: 'failed', error: { kind: 'extractor' } });
  });

  it('cards on screen and none read is still the extractor, whatever the page kind', () => {
    expect(judge(obs({ pageKind: 'unknown', cardsVisible: 22, listings: [] }))).toMatchObject({ verdict: 'failed', error: { kind: 'extractor' } });
  });
});
