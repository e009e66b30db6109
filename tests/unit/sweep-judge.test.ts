import { describe, expect, it } from 'vitest';
import { isTransportError } from '../../utils/browser/page-driver';
import type { Listing } from '../../utils/listing/types';
import { judgeObservation } from '../../utils/sweep/judge';
import { resultsObservation } from '../helpers/observations';
import type { Observation } from '../../utils/sweep/types';

const BBOX = { south: 37.5, west: 126.9, north: 37.6, east: 127.0 };
const VIEW = { lat: 37.55, lng: 126.95, zoom: 15 };

function listing(i: number, over: Partial<Listing> = {}): Listing {
  return {
    key: `google:${1000 + i}`,
    provider: 'google',
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

const judge = (o: Observation) => judgeObservation(o, { bbox: BBOX, keyword: 'cafe' }, VIEW, 5);

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

  it('calls cards on screen with nothing (or far too little) read a broken extractor', () => {
    expect(judge(obs({ listings: [], cardsVisible: 20 }))).toMatchObject({ verdict: 'failed', error: { kind: 'extractor' } });
    const few = Array.from({ length: 10 }, (_, i) => listing(i));
    expect(judge(obs({ listings: few, cardsVisible: 20 }))).toMatchObject({ verdict: 'failed', error: { kind: 'extractor' } });
    const most = Array.from({ length: 17 }, (_, i) => listing(i));
    expect(judge(obs({ listings: most, cardsVisible: 20 })).verdict).toBe('accepted');
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
