/**
 * Every listing each replica site would export for a world with site views (issue 24), read the
 * way a sweep reads it: the JSON each replica serves for a search, in batches of a search answer's
 * size, through the product's own readers (Google's tbm reader, Naver's allSearch reader, Kakao's
 * map.daum reader), then stored through the product's listing path (mergeListing: E.164 phones
 * in the site's region). Nothing here is read from the truth: scoreLinks compares what the
 * matcher makes of them with siteTruth afterwards.
 */
import { DEFAULT_VIEWPORT } from '../../utils/geo/mercator';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import type { Listing, StoredListing } from '../../utils/domain/listing';
import { parseTbmBody } from '../../utils/providers/google/tbm';
import { parseMapDaumBody } from '../../utils/providers/kakao/mapdaum';
import { parseAllSearch } from '../../utils/providers/naver/allsearch';
import { mergeListing } from '../../utils/store/listing-merge';
import { kakaoWorld } from '../replica/kakao/places';
import { placeRecord } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES } from '../replica/kakao/switches';
import { naverPlaceOf } from '../replica/naver/data';
import { allSearchAnswer } from '../replica/naver/pages';
import { frameDirect, searchResponseData } from '../replica/place-data';
import type { MatchResult } from '../../utils/match/types';
import { listedAll, seenBy, type Site, type SiteTruth } from '../replica/site-views';
import type { World } from '../replica/world';

/** Places per answer: Google's tbm batch and Naver's allSearch page are 20, Kakao's page 15. */
const BATCH: Record<Site, number> = { google: 20, naver: 20, kakao: 15 };
const QUERY = 'replica';
const CONTEXT = { now: Date.UTC(2026, 11, 1), collection: 's1', keyword: QUERY, cellId: null };

export interface SiteListings {
  google: StoredListing[];
  naver: StoredListing[];
  kakao: StoredListing[];
  /** Every site's, in SITES order. */
  all: StoredListing[];
  /** Items a reader refused (a replica or reader fault: expected 0). */
  dropped: Record<Site, number>;
}

export function siteListings(world: World): SiteListings {
  if (!world.siteViews) throw new Error('siteListings needs a world created with siteViews: true');
  const dropped: Record<Site, number> = { google: 0, naver: 0, kakao: 0 };
  const read: Record<Site, Listing[]> = { google: [], naver: [], kakao: [] };

  for (const batch of batches(listedAll(world, 'google'), BATCH.google)) {
    const places = batch.map((p) => seenBy(p, 'google'));
    const first = places[0]!;
    const body = frameDirect(
      searchResponseData({ query: QUERY, places, finalView: { lat: first.lat, lng: first.lng, zoom: 16 }, viewport: DEFAULT_VIEWPORT, signedIn: true }),
    );
    const parsed = parseTbmBody(body);
    if (parsed.blocked) throw new Error(`Google's reader refused a replica answer: ${parsed.reason}`);
    dropped.google += parsed.dropped + batch.length - parsed.places.length;
    read.google.push(...parsed.places);
  }

  let page = 1;
  for (const batch of batches(listedAll(world, 'naver'), BATCH.naver)) {
    const body = JSON.stringify(allSearchAnswer({ query: QUERY, items: batch.map(naverPlaceOf), total: 1000, page: (page++ % 50) + 1, boundary: null }));
    const parsed = parseAllSearch(body, 200);
    if (parsed.kind !== 'ok') throw new Error(`Naver's reader refused a replica answer: ${parsed.kind}`);
    dropped.naver += parsed.unreadable + batch.length - parsed.places.length;
    read.naver.push(...parsed.places.map((p) => listingFromPlace(p, 'page-data')));
  }

  const kw = kakaoWorld(world);
  for (const batch of batches(listedAll(world, 'kakao'), BATCH.kakao)) {
    // The envelope answerMapDaum wraps its records in (tests/replica/kakao/search.ts).
    const body = JSON.stringify({
      place_totalcount: '1000',
      page_count: 34,
      page: '1',
      place: batch.map((p) => placeRecord(kw.of(p), DEFAULT_KAKAO_SWITCHES, false)),
      address: [],
    });
    const parsed = parseMapDaumBody(body);
    if (parsed.kind !== 'ok') throw new Error(`Kakao's reader refused a replica answer: ${parsed.kind}`);
    dropped.kakao += parsed.skipped.length + batch.length - parsed.places.length;
    read.kakao.push(...parsed.places.map((p) => listingFromPlace(p, 'card')));
  }

  const stored = (ls: Listing[]) => ls.map((l) => mergeListing(undefined, l, CONTEXT));
  const out = { google: stored(read.google), naver: stored(read.naver), kakao: stored(read.kakao) };
  return { ...out, all: [...out.google, ...out.naver, ...out.kakao], dropped };
}

function* batches<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

export interface LinkFigures {
  /** Share of the linked pairs (two keys in one business) that are one world place. */
  precision: number;
  /** Share of the truth's pairs (two sites' keys of one world place) that were linked. */
  recall: number;
  linkedPairs: number;
  truePairs: number;
  /** Planted look-alikes with a listing of one side in a business with a listing of the other. */
  lookAlikesMerged: number;
  lookAlikes: number;
  /** Businesses that hold two listings of one site. */
  oneSiteTwice: number;
  ambiguities: number;
}

/** How a run's businesses compare with the truth, as pairs of listing keys. */
export function scoreLinks(result: MatchResult, truth: SiteTruth): LinkFigures {
  const pair = (a: string, b: string) => (a < b ? `${a} ${b}` : `${b} ${a}`);
  const truePairs = new Set<string>();
  for (const g of truth.groups) for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) truePairs.add(pair(g[i]!, g[j]!));
  let linkedPairs = 0;
  let right = 0;
  let oneSiteTwice = 0;
  const businessOf = new Map<string, number>();
  result.businesses.forEach((b, n) => {
    const sites = b.members.map((m) => m.slice(0, m.indexOf(':')));
    if (new Set(sites).size !== sites.length) oneSiteTwice++;
    for (const m of b.members) businessOf.set(m, n);
    for (let i = 0; i < b.members.length; i++) {
      for (let j = i + 1; j < b.members.length; j++) {
        linkedPairs++;
        if (truePairs.has(pair(b.members[i]!, b.members[j]!))) right++;
      }
    }
  });
  const lookAlikesMerged = truth.lookAlikes.filter(({ keys: [x, y] }) =>
    x.some((a) => businessOf.has(a) && y.some((b) => businessOf.get(b) === businessOf.get(a))),
  ).length;
  return {
    precision: linkedPairs === 0 ? 1 : right / linkedPairs,
    recall: truePairs.size === 0 ? 1 : right / truePairs.size,
    linkedPairs,
    truePairs: truePairs.size,
    lookAlikesMerged,
    lookAlikes: truth.lookAlikes.length,
    oneSiteTwice,
    ambiguities: result.ambiguities.length,
  };
}
