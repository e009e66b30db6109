// @vitest-environment happy-dom
/**
 * The replica's Korean interface (`hl=ko`) and the extractor's independence from it: the same
 * search rendered with hl=ko and hl=en reads to the same places (ids, ratings, counts, sponsored
 * flag, end of list); only the texts differ — Korean labels, Korean categories, Korean addresses.
 */
import { describe, expect, it } from 'vitest';
import type { MapView } from '../../utils/geo/types';
import type { Listing } from '../../utils/domain/listing';
import { extractFeed, type FeedExtraction, isSponsoredCard, organicCardRatings } from '../../utils/providers/google/feed';
import { detectLimitedView } from '../../utils/providers/google/limited-view';
import { detectPageKind } from '../../utils/providers/google/page-kind';
import { extractPlacePanel } from '../../utils/providers/google/place';
import { parseTbmBody } from '../../utils/providers/google/tbm';
import { clientRenderer } from '../replica/client-renderer';
import { REAL_CLASSES } from '../replica/dom-variants';
import { localisePlace, replicaLang } from '../replica/locale';
import { placePageHtml } from '../replica/pages';
import { answerSearchXhr } from '../replica/search-xhr';
import { createWorld, type World } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });
const HANGUL = /[\uac00-\ud7a3]/;

interface Rendered {
  feed: FeedExtraction;
  requests: string[];
  mainText: string;
  html: string;
}

/** The replica search page's own script in this document, its list requests answered in-process, scrolled to the end. */
function renderSearch(w: World, query: string, view: MapView, lang: 'en' | 'ko', signedIn = true): Rendered {
  document.body.innerHTML = '<div role="main"></div><div class="replica-pins"></div>';
  const tasks: (() => void)[] = [];
  const requests: string[] = [];
  const switches = { signedIn, sparseZoomOut: true, sponsored: true };
  class FakeXhr {
    url = '';
    status = 0;
    responseText = '';
    responseURL = '';
    onload: (() => void) | null = null;
    open(_m: string, url: string): void {
      this.url = url;
    }
    send(): void {
      requests.push(this.url);
      tasks.push(() => {
        const answer = answerSearchXhr(w, switches, new URLSearchParams(this.url.split('?')[1]));
        this.status = answer.status;
        this.responseText = answer.body;
        this.responseURL = `https://www.google.com${this.url}`;
        this.onload?.();
      });
    }
  }
  const location = {
    pathname: `/maps/search/${encodeURIComponent(query)}/@${view.lat},${view.lng},${view.zoom}z`,
    search: `?hl=${lang}`,
    hash: '',
    href: '',
    replace: () => {},
  };
  const win = {
    document,
    innerWidth: 1280,
    innerHeight: 800,
    XMLHttpRequest: FakeXhr,
    setTimeout: (fn: () => void) => tasks.push(fn),
    location,
    history: { state: null, replaceState: () => {} },
  };
  clientRenderer().replicaSearchPage(
    { query, view, classes: REAL_CLASSES, variant: 'a', batchDelayMs: 500, brokenCards: false, singleResultRedirectMs: 1500, lang: replicaLang(lang) },
    win,
  );
  const settle = () => {
    for (let guard = 0; tasks.length && guard < 1000; guard++) tasks.shift()!();
  };
  settle();
  for (let i = 0; i < 8 && document.querySelector('[role="feed"]'); i++) {
    document.querySelector('[role="feed"]')!.dispatchEvent(new Event('scroll'));
    settle();
  }
  return { feed: extractFeed(document), requests, mainText: document.querySelector('[role="main"]')?.textContent ?? '', html: document.body.innerHTML };
}

/** What must not depend on the interface language. */
const facts = (l: Listing) => ({
  key: l.key,
  cid: l.cid,
  placeId: l.placeId,
  name: l.name,
  rating: l.rating,
  reviews: l.reviews,
  lat: l.lat,
  lng: l.lng,
  phone: l.phone,
  website: l.website,
  sponsored: l.sponsored,
});

describe('replica hl=ko: Korean interface, same places', () => {
  const view: MapView = { ...SEOUL, zoom: 15 };
  const en = renderSearch(world, 'cafe', view, 'en');
  const ko = renderSearch(world, 'cafe', view, 'ko');

  it('the page speaks Korean: rating labels, sponsored mark, end text, feed label; its list requests ask hl=ko', () => {
    expect(ko.requests.length).toBe(6);
    for (const r of ko.requests) expect(r).toMatch(/[?&]hl=ko&gl=kr&/);
    for (const r of en.requests) expect(r).toMatch(/[?&]hl=en&gl=us&/);
    expect(document.querySelector('[role="feed"]')!.getAttribute('aria-label')).toBe('cafe에 대한 검색결과');
    const labels = [...document.querySelectorAll('[role="article"] [role="img"][aria-label]')]
      .map((e) => e.getAttribute('aria-label')!)
      .filter((l) => l.startsWith('별표'));
    expect(labels.length).toBeGreaterThan(50);
    for (const l of labels) expect(l).toMatch(/^별표 \d\.\d개 리뷰 [\d,]+개$/);
    // Checked as booleans: a failure must not print the whole page.
    expect(/<span class="jHLihd[^"]*">광고<\/span>/.test(ko.html)).toBe(true);
    expect(ko.html.includes('목록의 끝에 도달했습니다.')).toBe(true);
    expect(/Sponsored|reached the end|stars|Reviews|No reviews/.test(ko.html)).toBe(false);
  });

  it('reads exactly like hl=en: same ids, names, ratings, counts, phones, websites, sponsored flags and end marker', () => {
    expect(en.feed.listings.length).toBeGreaterThanOrEqual(100);
    expect(ko.feed.listings.map(facts)).toEqual(en.feed.listings.map(facts));
    expect(ko.feed.cardsVisible).toBe(en.feed.cardsVisible);
    expect(ko.feed.endOfList).toBe(true);
    expect(en.feed.endOfList).toBe(true);
    expect(ko.feed.warnings).toEqual(en.feed.warnings);
    // The ad card (a copy of an organic place) is told by its Korean mark alone, once its /aclk link is gone.
    const ad = document.querySelector('[role="article"]')!;
    expect(ad.querySelector('[aria-label="광고"]')).not.toBeNull();
    for (const a of ad.querySelectorAll('a[href*="/aclk"]')) a.remove();
    ad.querySelector('.jHLihd')!.className = 'x';
    expect(isSponsoredCard(ad)).toBe(true);
    // Rated places keep their counts (no false "limited view" from Korean labels).
    expect(ko.feed.listings.filter((l) => l.rating !== null && l.reviews === null)).toEqual([]);
  });

  it('categories and addresses come in Korean, as the world localises them', () => {
    const byKey = new Map(world.places.map((p) => [p.featureId, p]));
    for (const l of ko.feed.listings) {
      const place = byKey.get(l.featureId!)!;
      const korean = localisePlace(place, 'ko');
      expect(l.category).toBe(korean.categories[0]);
      expect(l.category).toMatch(HANGUL);
      expect(l.address).toBe(korean.address.street); // the card shows the street line: "세종대로 12"
      expect(l.address).toMatch(HANGUL);
    }
    expect(en.feed.listings.every((l) => !HANGUL.test(l.category ?? '') && !HANGUL.test(l.address ?? ''))).toBe(true);
  });

  it("can't find, in Korean, is a no-results page", () => {
    const none = renderSearch(world, 'zzqx', view, 'ko');
    expect(none.mainText).toContain("Google 지도에서 'zzqx'을(를) 찾을 수 없습니다.");
    expect(detectPageKind(document, 'https://www.google.com/maps/search/zzqx/@37.5665,126.978,15z?hl=ko')).toBe('no-results');
  });

  it('signed out, the Korean bare star labels are the limited view just as the English ones', () => {
    const verdict = (r: Rendered) =>
      detectLimitedView({
        cards: organicCardRatings(r.feed),
        organicShown: r.feed.listings.filter((l) => !l.sponsored).length,
        endOfList: r.feed.endOfList,
        banner: null,
      });
    const enOut = renderSearch(world, 'cafe', view, 'en', false);
    const koOut = renderSearch(world, 'cafe', view, 'ko', false);
    expect(koOut.html).toMatch(/aria-label="별표 \d\.\d개"/);
    expect(koOut.feed.listings.map(facts)).toEqual(enOut.feed.listings.map(facts));
    expect(verdict(koOut)).toBe(verdict(enOut));
    expect(verdict(koOut)).not.toBeNull();
  });

  it('the place page in Korean reads to the same place, rating and count, with its Korean address and category', () => {
    const place = world.places.find((p) => p.rating !== null && p.reviewCount !== null && p.phone !== null)!;
    const read = (lang: 'en' | 'ko') => {
      const html = placePageHtml({ place, view: { lat: place.lat, lng: place.lng, zoom: 17 }, variant: 'a', signedIn: true, canonicalUrl: null, lang });
      const doc = new DOMParser().parseFromString(html, 'text/html');
      return extractPlacePanel(
        doc,
        `https://www.google.com/maps/place/x/data=!4m7!3m6!1s${place.featureId}!8m2!3d${place.lat}!4d${place.lng}!16s%2Fg%2F1!19s${place.placeId}?hl=${lang}`,
      )!;
    };
    const en1 = read('en');
    const ko1 = read('ko');
    expect(ko1).not.toBeNull();
    expect({ key: ko1.key, cid: ko1.cid, name: ko1.name, rating: ko1.rating, reviews: ko1.reviews, phone: ko1.phone }).toEqual({
      key: en1.key,
      cid: en1.cid,
      name: en1.name,
      rating: place.rating,
      reviews: place.reviewCount,
      phone: en1.phone,
    });
    expect(ko1.address).toBe(localisePlace(place, 'ko').fullAddress);
    expect(ko1.address).toMatch(/^대한민국 서울특별시 \S+구 /);
    expect(ko1.category).toBe(localisePlace(place, 'ko').categories[0]);
  });

  it("the page's own data (tbm=map answer) in Korean: the same places, Korean full addresses, categories and hours", () => {
    const url = (hl: string) => en.requests[0]!.replace(/hl=en&gl=us/, `hl=${hl}&gl=${hl === 'ko' ? 'kr' : 'us'}`);
    const read = (hl: string) => {
      const answer = answerSearchXhr(world, { signedIn: true, sparseZoomOut: true, sponsored: false }, new URLSearchParams(url(hl).split('?')[1]));
      const parsed = parseTbmBody(answer.body);
      if ('blocked' in parsed && parsed.blocked) throw new Error(parsed.reason);
      return (parsed as { places: Listing[] }).places;
    };
    const enData = read('en');
    const koData = read('ko');
    expect(koData.length).toBe(20);
    expect(koData.map(facts)).toEqual(enData.map(facts));
    const times = (l: Listing) => l.openingHours?.map((d) => [d.day, d.intervals]) ?? null;
    expect(koData.map(times)).toEqual(enData.map(times));
    for (const l of koData) {
      expect(l.address).toMatch(/^대한민국 서울특별시 \S+구 \S+ \d+$/);
      expect(l.categories?.length).toBeGreaterThan(0);
      expect(l.categories?.every((c) => HANGUL.test(c))).toBe(true);
      if (l.openingHours) expect(l.openingHours.map((d) => d.dayName)).toEqual(['월요일', '화요일', '수요일', '목요일', '금요일', '토요일', '일요일']);
    }
    const withHours = koData.filter((l) => l.hours);
    expect(withHours.length).toBeGreaterThan(0);
    for (const l of withHours) expect(l.hours).toMatch(/^월요일: (?:(?:오전|오후) \d+시~(?:오전|오후) \d+시|24시간 영업);/);
  });
});
