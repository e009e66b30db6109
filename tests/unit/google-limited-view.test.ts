// @vitest-environment happy-dom
/**
 * The signed-out "limited view" detector (issue 10 §3): on replica pages rendered by the
 * replica's own page script (signed in and signed out), through the real content-script
 * collection, and on the real signed-in Amsterdam capture, read in place.
 */
import { describe, expect, it } from 'vitest';
import { collectGooglePage } from '../../utils/providers/google/collect';
import type { MapView } from '../../utils/geo/types';
import { extractFeed } from '../../utils/providers/google/feed';
import { type CardRating, detectLimitedView, findLimitedViewBanner, SHORT_LIST_MAX } from '../../utils/providers/google/limited-view';
import { createNetworkCollector } from '../../utils/providers/google/network-hook';
import { buildObservation } from '../../utils/providers/google/observe';
import type { Observation } from '../../utils/domain/sweep';
import { readRealPage, realPageParser, realPagesDescribe } from '../helpers/real-pages';
import { openReplicaSearch } from '../helpers/replica-search-page';
import { DEFAULT_SWITCHES } from '../replica/switches';
import { createWorld, type PlaceSpec, type World, worldFromSpecs } from '../replica/world';
const realDescribe = realPagesDescribe('google-limited-view.test.ts');

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });

/**
 * Opens a replica search page in this happy-dom document: the page script runs with its
 * requests answered in-process by the server's own function, timers run when `collect`
 * sleeps. Then the real content-script collection reads it.
 */
async function collectReplica(w: World, query: string, view: MapView, signedIn: boolean): Promise<Observation> {
  const run = openReplicaSearch(w, query, view, { switches: { ...DEFAULT_SWITCHES, signedIn } });
  let clock = 0;
  return collectGooglePage(
    {
      doc: document,
      url: run.url,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        run.settle();
      },
      random: () => 0.5,
      network: createNetworkCollector(),
      httpStatus: () => 200,
      hidden: () => false,
    },
    { cap: 120, stallMs: 2000, maxMs: 10_000, settleMs: 5000, scrollPauseMs: 500 },
  );
}

describe('limited view on replica pages, through the content script', () => {
  it('signed out, a generic search ending after a handful of cards without review counts is the limited view', async () => {
    const obs = await collectReplica(world, 'cafe', { ...SEOUL, zoom: 15 }, false);
    expect(obs.pageKind).toBe('results');
    expect(obs.endOfList).toBe(true);
    expect(obs.listings.filter((l) => !l.sponsored).length).toBeLessThanOrEqual(SHORT_LIST_MAX);
    expect(obs.limitedView).not.toBeNull();
    expect(obs.limitedView).toBeDefined();
  });

  it('signed in, the same search is not', async () => {
    const obs = await collectReplica(world, 'cafe', { ...SEOUL, zoom: 15 }, true);
    expect(obs.listings.length).toBeGreaterThanOrEqual(20);
    expect(obs.limitedView).toBeNull();
  });

  it('signed in, a rare query whose list ends after 3 cards (with counts) is not the limited view', async () => {
    const specs: PlaceSpec[] = [0, 1, 2].map((i) => ({
      name: `Moonlit Teahouse ${i + 1}`,
      category: 'cafe',
      prominence: 0.5,
      lat: SEOUL.lat + i * 0.001,
      lng: SEOUL.lng,
      rating: 4.2 + i / 10,
      reviewCount: 10 + i,
    }));
    const obs = await collectReplica(worldFromSpecs(specs), 'moonlit teahouse', { ...SEOUL, zoom: 15 }, true);
    expect([obs.pageKind, obs.endOfList, obs.listings.length]).toEqual(['results', true, 3]);
    expect(obs.listings.every((l) => l.rating !== null && l.reviews !== null)).toBe(true);
    expect(obs.limitedView).toBeNull();
    // The same three places signed out carry bare "4.x stars" labels: limited view again.
    const out = await collectReplica(worldFromSpecs(specs), 'moonlit teahouse', { ...SEOUL, zoom: 15 }, false);
    expect(out.listings).toHaveLength(3);
    expect(out.limitedView).not.toBeNull();
  });
});

describe('the rules themselves', () => {
  const cards = (n: number, shown: (i: number) => CardRating): CardRating[] => Array.from({ length: n }, (_, i) => shown(i));

  it('counts missing on most rated cards, whatever the length of the list', () => {
    expect(detectLimitedView({ cards: cards(40, () => 'bare'), organicShown: 40, endOfList: false, banner: null })).toBe('counts-missing');
    // One odd label in a signed-in list is not the limited view, nor are unrated places.
    expect(detectLimitedView({ cards: cards(40, (i) => (i === 3 ? 'bare' : 'counted')), organicShown: 40, endOfList: false, banner: null })).toBeNull();
    expect(detectLimitedView({ cards: cards(4, () => 'unrated'), organicShown: 4, endOfList: true, banner: null })).toBeNull();
  });

  it('a short ended list whose few ratings all lack counts', () => {
    const short: CardRating[] = ['bare', 'unrated', 'unrated', 'unrated'];
    expect(detectLimitedView({ cards: short, organicShown: 4, endOfList: true, banner: null })).toBe('short-list');
    expect(detectLimitedView({ cards: short, organicShown: 4, endOfList: false, banner: null })).toBeNull();
  });

  it('a notice, unless the cards show their counts', () => {
    expect(detectLimitedView({ cards: [], organicShown: 0, endOfList: false, banner: 'limited view' })).toBe('banner');
    expect(detectLimitedView({ cards: cards(10, () => 'counted'), organicShown: 10, endOfList: false, banner: 'limited view' })).toBeNull();
  });

  it('finds the notice outside cards only, in English and Korean', () => {
    document.body.innerHTML = `<div role="main"><div role="feed"><div role="article" aria-label="x"><div>Limited View Bistro</div></div></div></div>`;
    expect(findLimitedViewBanner(document)).toBeNull();
    document.body.innerHTML = `<div role="main"><div><span>You're seeing a limited view of Google Maps.</span> <a href="#">Sign in</a></div></div>`;
    expect(findLimitedViewBanner(document)).toBe("You're seeing a limited view of Google Maps.");
    document.body.innerHTML = `<div role="main"><p>Google 지도의 제한된 보기를 보고 있습니다.</p></div>`;
    expect(findLimitedViewBanner(document)).toMatch(/제한된 보기/);
  });
});

realDescribe('the real signed-in capture (Amsterdam, 2025-11) is not the limited view', () => {
  const parsePage = realPageParser();

  it('99 cards with "4.7 stars 8,713 Reviews" labels, no notice', () => {
    const doc = parsePage(readRealPage('google', 'gmaps_search_feed_restaurants-amsterdam_en_2025-11.html'), 'https://www.google.com/maps');
    const feed = extractFeed(doc);
    const banner = findLimitedViewBanner(doc);
    expect(banner).toBeNull();
    const obs = buildObservation({
      url: 'https://www.google.com/maps/search/restaurants+in+Amsterdam+Centrum/@52.37,4.89,15z',
      pageKind: 'results',
      feed,
      elapsedMs: 0,
      limitedViewBanner: banner,
    });
    const rated = obs.listings.filter((x) => !x.sponsored && x.rating !== null);
    expect(rated.length).toBeGreaterThan(50);
    expect(obs.limitedView).toBeNull();
    // Every organic card was read: the capture would be accepted, not retried.
    expect(obs.organicShown).toBe(obs.listings.filter((x) => !x.sponsored).length);
  });
});
