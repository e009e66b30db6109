// @vitest-environment happy-dom
/**
 * The limited view is read from what each card shows, never from the listings after the join
 * with page data (issue 21): signed out, the cards hide the review counts that the page's own
 * search responses may still carry. Replica pages rendered by the replica's page script, read by
 * the real content-script collection, with the page's responses copied to the real network
 * collector as the hook would; then the rules at their edges.
 */
import { describe, expect, it } from 'vitest';
import { collectGooglePage } from '../../utils/providers/google/collect';
import type { MapView } from '../../utils/geo/types';
import { extractFeed, organicCardRatings } from '../../utils/providers/google/feed';
import { detectLimitedView, MIN_RATED_CARDS, SHORT_LIST_MAX, type CardRating } from '../../utils/providers/google/limited-view';
import { createNetworkCollector } from '../../utils/providers/google/network-hook';
import type { Observation } from '../../utils/domain/sweep';
import { openReplicaSearch } from '../helpers/replica-search-page';
import { answerSearchXhr } from '../replica/search-xhr';
import { DEFAULT_SWITCHES } from '../replica/switches';
import { createWorld, type PlaceSpec, type World, worldFromSpecs } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const VIEW: MapView = { ...SEOUL, zoom: 15 };

/**
 * A signed-out replica page read by the real collection, while the hook's copies of the page's
 * own list responses carry review counts (the signed-in answer to the same request): page data
 * that fills the counts the cards do not show.
 */
async function collectSignedOutWithCountsInPageData(w: World, query: string): Promise<Observation> {
  const switches = { ...DEFAULT_SWITCHES, signedIn: false };
  const run = openReplicaSearch(w, query, VIEW, { switches });
  const network = createNetworkCollector();
  let copied = 0;
  const copyResponses = () => {
    for (; copied < run.requests.length; copied++) {
      const params = new URLSearchParams(run.requests[copied]!.split('?')[1]);
      network.accept(answerSearchXhr(w, { ...switches, signedIn: true }, params).body);
    }
  };
  let clock = 0;
  return collectGooglePage(
    {
      doc: document,
      url: run.url,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        run.settle();
        copyResponses();
      },
      random: () => 0.5,
      network,
      httpStatus: () => 200,
      hidden: () => false,
    },
    { cap: 120, stallMs: 2000, maxMs: 10_000, settleMs: 5000, scrollPauseMs: 500 },
  );
}

const teahouses = (n: number): PlaceSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    name: `Moonlit Teahouse ${i + 1}`,
    category: 'cafe',
    prominence: 0.5,
    lat: SEOUL.lat + (i % 4) * 0.001,
    lng: SEOUL.lng + Math.floor(i / 4) * 0.001,
    rating: 4.0 + (i % 9) / 10,
    reviewCount: 10 + i,
  }));

describe('signed-out cards whose page data carries review counts', () => {
  it('a generic search: the short list is still the limited view', async () => {
    const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });
    const obs = await collectSignedOutWithCountsInPageData(world, 'cafe');
    const organic = obs.listings.filter((l) => !l.sponsored);
    expect([obs.pageKind, obs.endOfList]).toEqual(['results', true]);
    expect(organic.length).toBeLessThanOrEqual(SHORT_LIST_MAX);
    // The join did fill the counts: the listings look signed in, the cards do not.
    expect(organic.filter((l) => l.rating !== null).every((l) => l.reviews !== null)).toBe(true);
    expect(
      organicCardRatings(extractFeed(document))
        .filter((c) => c !== 'unrated')
        .every((c) => c === 'bare'),
    ).toBe(true);
    expect(obs.limitedView).not.toBeNull();
  });

  it('a rare query of 12 places, longer than the short list: counts missing on the cards', async () => {
    const obs = await collectSignedOutWithCountsInPageData(worldFromSpecs(teahouses(12)), 'moonlit teahouse');
    const organic = obs.listings.filter((l) => !l.sponsored);
    expect(organic).toHaveLength(12);
    expect(organic.every((l) => l.rating !== null && l.reviews !== null)).toBe(true);
    expect(obs.limitedView).toBe('counts-missing');
  });
});

describe('what the cards show, read from the card DOM', () => {
  it('counts unreadable cards by their stars, skips ads, and takes "(1,234)" beside the stars as a count', () => {
    const card = (href: string | null, stars: string, extra = '') =>
      `<div role="article" aria-label="X">${href ? `<a href="${href}" aria-label="X"></a>` : ''}` +
      `<span><span role="img" aria-label="${stars}"></span>${extra}</span></div>`;
    const place = (n: number) => `https://www.google.com/maps/place/X/data=!4m7!3m6!1s0x0:0x${n.toString(16)}!8m2!3d37.5!4d127.0!16s%2Fg%2F1`;
    document.body.innerHTML =
      `<div role="feed">` +
      card(place(1), '4.5 stars 1,234 Reviews') +
      card(place(2), '4.1 stars', '<span>(87)</span>') +
      card(place(3), '4.9 stars') +
      card(null, '3.9 stars') + // no place link: unreadable, but it shows a bare rating
      card(place(4), '4.0 stars', '<span class="jHLihd">Sponsored</span>') +
      `<div role="article" aria-label="Y"><a href="${place(5)}" aria-label="Y"></a><span>No reviews</span></div>` +
      `</div>`;
    expect(organicCardRatings(extractFeed(document))).toEqual(['counted', 'counted', 'bare', 'bare', 'unrated']);
  });
});

describe('the rules at their edges', () => {
  const shown = (bare: number, counted: number, unrated: number): CardRating[] => [
    ...Array<CardRating>(bare).fill('bare'),
    ...Array<CardRating>(counted).fill('counted'),
    ...Array<CardRating>(unrated).fill('unrated'),
  ];

  it(`exactly MIN_RATED_CARDS (${MIN_RATED_CARDS}) bare ratings in a list too long for the short-list rule are the limited view`, () => {
    const cards = shown(MIN_RATED_CARDS, 0, 12);
    expect(cards.length).toBeGreaterThan(SHORT_LIST_MAX);
    expect(detectLimitedView({ cards, organicShown: cards.length, endOfList: true, banner: null })).toBe('counts-missing');
    expect(detectLimitedView({ cards, organicShown: cards.length, endOfList: false, banner: null })).toBe('counts-missing');
    // One fewer is too few to weigh by share alone, in a list that is not short.
    const fewer = shown(MIN_RATED_CARDS - 1, 0, 13);
    expect(detectLimitedView({ cards: fewer, organicShown: fewer.length, endOfList: true, banner: null })).toBeNull();
  });

  it(`exactly MIN_RATED_CARDS counted ratings outweigh a notice; fewer do not`, () => {
    const counted = shown(0, MIN_RATED_CARDS, 12);
    expect(detectLimitedView({ cards: counted, organicShown: counted.length, endOfList: true, banner: 'limited view' })).toBeNull();
    const fewer = shown(0, MIN_RATED_CARDS - 1, 13);
    expect(detectLimitedView({ cards: fewer, organicShown: fewer.length, endOfList: true, banner: 'limited view' })).toBe('banner');
  });

  it(`the short list at exactly SHORT_LIST_MAX (${SHORT_LIST_MAX}) cards, and not one more`, () => {
    const at = shown(1, 0, SHORT_LIST_MAX - 1);
    expect(detectLimitedView({ cards: at, organicShown: SHORT_LIST_MAX, endOfList: true, banner: null })).toBe('short-list');
    const over = shown(1, 0, SHORT_LIST_MAX);
    expect(detectLimitedView({ cards: over, organicShown: SHORT_LIST_MAX + 1, endOfList: true, banner: null })).toBeNull();
  });
});
