import { describe, expect, it } from 'vitest';
import type { Listing } from '../../utils/domain/listing';
import type { FeedExtraction } from '../../utils/providers/google/feed';
import { makeListing } from '../../utils/providers/google/fields';
import { resolveIds } from '../../utils/providers/google/ids';
import type { NetworkSnapshot } from '../../utils/providers/google/network-hook';
import { buildObservation, CAP_MARGIN, CROWDED_AT } from '../../utils/providers/google/observe';

const URL_AFTER = 'https://www.google.com/maps/search/pizza/@52.3701,4.8902,14.5z?hl=en';

function listing(cid: number, sponsored = false): Listing {
  const ids = resolveIds({ cid: String(cid) })!;
  return makeListing(ids, {
    name: `Place ${cid}`,
    category: null,
    address: null,
    phone: null,
    website: null,
    rating: null,
    reviews: null,
    lat: null,
    lng: null,
    sponsored,
  });
}

function feed(listings: Listing[], extra: Partial<FeedExtraction> = {}): FeedExtraction {
  return { feed: null, cardsVisible: listings.length, listings, endOfList: false, loading: false, warnings: [], ...extra };
}

function network(keys: string[]): NetworkSnapshot {
  return { networkItems: keys.length, networkKeys: keys, responses: 1, blocked: 0, dropped: 0 };
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('buildObservation', () => {
  it('a results page: listings, counts, the final view and the scroll outcome', () => {
    const listings = [listing(1), listing(2, true), listing(3)];
    const obs = buildObservation({
      url: URL_AFTER,
      pageKind: 'results',
      feed: feed(listings, { cardsVisible: 4, warnings: ['1 of 4 result cards had no readable place id.'] }),
      scroll: { stopReason: 'stalled', cards: 3, scrolls: 7, elapsedMs: 9000 },
      elapsedMs: 12_345,
    });
    expect(obs).toEqual({
      url: URL_AFTER,
      pageKind: 'results',
      cardsVisible: 4,
      listings,
      networkItems: null,
      networkKeys: [],
      endOfList: false,
      capHit: false,
      // 4 cards, 1 an ad: 3 organic shown, of which 2 were read.
      organicShown: 3,
      limitedView: null,
      finalView: { lat: 52.3701, lng: 4.8902, zoom: 14.5 },
      elapsedMs: 12_345,
      stopReason: 'stalled',
      warnings: ['1 of 4 result cards had no readable place id.'],
    });
  });

  it('the cap counts organic cards shown, ads excluded, within a margin of 120', () => {
    expect(CROWDED_AT).toBe(120 - CAP_MARGIN);
    const ads = range(1000, 5).map((c) => listing(c, true));
    const below = buildObservation({
      url: URL_AFTER,
      pageKind: 'results',
      feed: feed([...range(1, CROWDED_AT - 1).map((c) => listing(c)), ...ads]),
      elapsedMs: 0,
    });
    const at = buildObservation({ url: URL_AFTER, pageKind: 'results', feed: feed(range(1, CROWDED_AT).map((c) => listing(c))), elapsedMs: 0 });
    expect([below.capHit, below.organicShown, at.capHit]).toEqual([false, CROWDED_AT - 1, true]);
    expect(at.stopReason).toBe('cap');
  });

  it('counts cards shown but not read towards the cap: 110 read of 120 shown with the end text is crowded', () => {
    const read = range(1, 110).map((c) => listing(c));
    const obs = buildObservation({ url: URL_AFTER, pageKind: 'results', feed: feed(read, { cardsVisible: 120, endOfList: true }), elapsedMs: 0 });
    expect([obs.organicShown, obs.listings.length, obs.capHit, obs.endOfList]).toEqual([120, 110, true, true]);
  });

  it('end of list comes from the feed or from the scroll', () => {
    const fromFeed = buildObservation({ url: URL_AFTER, pageKind: 'results', feed: feed([listing(1)], { endOfList: true }), elapsedMs: 0 });
    const fromScroll = buildObservation({
      url: URL_AFTER,
      pageKind: 'results',
      feed: feed([listing(1)]),
      scroll: { stopReason: 'end', cards: 1, scrolls: 1, elapsedMs: 1 },
      elapsedMs: 0,
    });
    expect([fromFeed.endOfList, fromFeed.stopReason, fromScroll.endOfList]).toEqual([true, 'end', true]);
  });

  it('a place page: the panel is one card, read or not', () => {
    const place = listing(42);
    const read = buildObservation({ url: 'https://www.google.com/maps/place/X/@1,2,17z', pageKind: 'place', place, elapsedMs: 0 });
    expect([read.cardsVisible, read.listings, read.stopReason, read.finalView]).toEqual([1, [place], 'not-a-feed', { lat: 1, lng: 2, zoom: 17 }]);
    const unread = buildObservation({ url: URL_AFTER, pageKind: 'place', place: null, elapsedMs: 0 });
    expect([unread.cardsVisible, unread.listings]).toEqual([1, []]);
  });

  it('blocked and empty pages carry no listings', () => {
    for (const pageKind of ['captcha', 'consent', 'no-results'] as const) {
      const obs = buildObservation({ url: 'https://www.google.com/sorry/index', pageKind, elapsedMs: 5 });
      expect([obs.cardsVisible, obs.listings, obs.stopReason, obs.finalView]).toEqual([0, [], 'not-a-feed', null]);
    }
  });

  it('notes a DOM/network disagreement, ignoring ads, and stays quiet when they agree', () => {
    const listings = [listing(1), listing(2), listing(3, true)];
    const agree = buildObservation({ url: URL_AFTER, pageKind: 'results', feed: feed(listings), network: network(['google:1', 'google:2']), elapsedMs: 0 });
    expect(agree.warnings).toEqual([]);
    expect([agree.networkItems, agree.networkKeys]).toEqual([2, ['google:1', 'google:2']]);

    const differ = buildObservation({
      url: URL_AFTER,
      pageKind: 'results',
      feed: feed(listings),
      network: network(['google:2', 'google:9', 'google:8']),
      elapsedMs: 0,
    });
    expect(differ.warnings).toHaveLength(1);
    expect(differ.warnings[0]).toMatch(/2 organic listings on the page, 3 places in its search responses \(1 only on the page, 2 only in responses\)/);

    const silent = buildObservation({
      url: URL_AFTER,
      pageKind: 'results',
      feed: feed(listings),
      network: { networkItems: null, networkKeys: [], responses: 0, blocked: 2, dropped: 0 },
      elapsedMs: 0,
    });
    expect([silent.warnings, silent.networkItems]).toEqual([[], null]);
  });
});
