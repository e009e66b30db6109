// @vitest-environment happy-dom
/**
 * Extraction does not depend on Google's interface language: the texts the extractor reads
 * (rating and review labels, end of list, can't find, limited view, sponsored) are recognised
 * in Korean, English, French and Japanese (and Greek, German), and a sweep's search URL asks
 * for the results language chosen in the options.
 */
import { describe, expect, it } from 'vitest';
import { extractFeed } from '../../utils/providers/google/feed';
import {
  END_OF_LIST_PATTERNS,
  isNoReviewsText,
  isSponsoredWord,
  isStarLabel,
  matchesAny,
  NOT_FOUND_PATTERNS,
  parseRatingLabel,
  parseReviewCount,
} from '../../utils/providers/google/labels';
import { findLimitedViewBanner, LIMITED_VIEW_PATTERNS } from '../../utils/providers/google/limited-view';
import { detectPageKind } from '../../utils/providers/google/page-kind';
import { extractPlacePanel } from '../../utils/providers/google/place';
import { googleProvider } from '../../utils/providers/google/provider';
import { idsFromPair } from '../../utils/providers/google/ids';
import { searchUrl } from '../../utils/providers/google/urls';
import { DEFAULT_SETTINGS, hlFromLocale, normaliseSettings } from '../../utils/config/settings';

describe('rating and review labels in every language', () => {
  it.each([
    ['en', '4.5 stars 1,234 Reviews', 4.5, 1234],
    ['en', 'Rated 4.5 out of 5, 1,234 reviews', 4.5, 1234],
    ['ko', '별표 4.5개 리뷰 1,234개', 4.5, 1234],
    ['ko', '별표 5개 중 4.5개, 리뷰 1,234개', 4.5, 1234],
    ['ko', '별표 4.2개 리뷰 1.2만개', 4.2, 12_000],
    ['fr', '5,0 étoiles 30 avis', 5, 30], // the French place page
    ['fr', '4,6 étoiles 1\u202f234 avis', 4.6, 1234], // narrow NBSP thousands
    ['fr', '4,3 étoiles 2,1 k avis', 4.3, 2100],
    ['ja', '星 4.5 クチコミ 1,234 件', 4.5, 1234],
    ['ja', '5つ星のうち4.1、3.4万件のクチコミ', 4.1, 34_000],
    ['el', '4,1 αστέρια 516 αξιολογήσεις', 4.1, 516], // the hl=el capture's "516 αξιολογήσεις"
    ['de', '4,5 Sterne 1.234 Rezensionen', 4.5, 1234],
  ])('%s: %s', (_lang, label, rating, reviews) => {
    expect(parseRatingLabel(label)).toEqual({ rating, reviews });
  });

  it('reads a bare star label (limited view) and a card count in any language', () => {
    for (const label of ['4.9 stars', '별표 4.9개', '4,9 étoiles', '星 4.9']) {
      expect(parseRatingLabel(label)).toEqual({ rating: 4.9, reviews: null });
      expect(isStarLabel(label)).toBe(true);
    }
    expect(isStarLabel('리뷰 1,234개')).toBe(false);
    expect(parseReviewCount('(1.234)')).toBe(1234);
    expect(parseReviewCount('30 avis')).toBe(30);
    expect(parseReviewCount('516 αξιολογήσεις')).toBe(516);
  });

  it('"no reviews" is never a category', () => {
    for (const t of ['No reviews', '리뷰 없음', 'Aucun avis', 'クチコミはありません', 'Δεν υπάρχουν κριτικές']) expect(isNoReviewsText(t)).toBe(true);
    for (const t of ['Cafe', '카페', 'Café', 'カフェ']) expect(isNoReviewsText(t)).toBe(false);
  });
});

describe("end of list, can't find, limited view, sponsored in every language", () => {
  const end = {
    en: "You've reached the end of the list.",
    ko: '목록의 끝에 도달했습니다.',
    fr: 'Vous êtes arrivé à la fin de la liste.',
    ja: 'リストの最後に到達しました。',
    el: 'Φτάσατε στο τέλος της λίστας.',
    de: 'Sie haben das Ende der Liste erreicht.',
  };
  const notFound = {
    en: "Google Maps can't find zzqx",
    ko: "Google 지도에서 'zzqx'을(를) 찾을 수 없습니다.",
    fr: 'Google Maps ne parvient pas à trouver zzqx',
    ja: 'Google マップで「zzqx」が見つかりませんでした',
    el: 'Οι Χάρτες Google δεν μπορούν να βρουν το zzqx',
  };
  const limited = {
    en: 'You are seeing a limited view of Google Maps',
    ko: '제한된 보기로 Google 지도를 보고 있습니다',
    fr: 'Vous consultez une vue limitée de Google Maps',
    ja: 'Google マップの限定表示を表示しています',
  };

  it.each(Object.entries(end))('end of list (%s) ends the feed', (_lang, text) => {
    expect(matchesAny(END_OF_LIST_PATTERNS, text)).toBe(true);
    document.body.innerHTML = `<div><div role="feed"></div><div><p class="fontBodyMedium"><span><span>${text}</span></span></p></div></div>`;
    expect(extractFeed(document).endOfList).toBe(true);
  });

  it.each(Object.entries(notFound))("can't find (%s) is a no-results page", (_lang, text) => {
    expect(matchesAny(NOT_FOUND_PATTERNS, text)).toBe(true);
    document.body.innerHTML = `<div role="main"><div class="Q2vNVc">${text}</div></div>`;
    expect(detectPageKind(document, 'https://www.google.com/maps/search/zzqx/@37.5,127,15z?hl=ko')).toBe('no-results');
  });

  it.each(Object.entries(limited))('limited view notice (%s) is found', (_lang, text) => {
    expect(matchesAny(LIMITED_VIEW_PATTERNS, text)).toBe(true);
    document.body.innerHTML = `<div role="main"><div>${text}</div><div role="feed"></div></div>`;
    expect(findLimitedViewBanner(document)).toBe(text);
  });

  it('a sponsored card is an ad whatever the language of its label', () => {
    for (const w of ['Sponsored', '광고', 'Sponsorisé', 'スポンサー', 'Χορηγούμενο', 'Gesponsert']) {
      expect(isSponsoredWord(w)).toBe(true);
      const ids = idsFromPair(0x99n, 0x77n);
      const href = `https://www.google.com/maps/place/X/data=!4m7!3m6!1s${ids.featureId}!8m2!3d37.5!4d127!16s%2Fg%2F1!19s${ids.placeId}`;
      // No jHLihd class, no /aclk link: only the word tells.
      document.body.innerHTML = `<div role="feed"><div role="article" aria-label="X"><h1><span>${w}</span></h1><a aria-label="X" href="${href}"></a></div></div>`;
      expect(extractFeed(document).listings.map((l) => l.sponsored)).toEqual([true]);
    }
    expect(isSponsoredWord('광고 대행사')).toBe(false); // a business called "ad agency" is not an ad
    // Nor is a business whose name is the word itself (its card and link carry the name).
    const ids = idsFromPair(0x98n, 0x76n);
    const href = `https://www.google.com/maps/place/x/data=!4m7!3m6!1s${ids.featureId}!8m2!3d37.5!4d127!16s%2Fg%2F1!19s${ids.placeId}`;
    document.body.innerHTML = `<div role="feed"><div role="article" aria-label="Annonce"><a aria-label="Annonce" href="${href}"></a><div class="fontHeadlineSmall">Annonce</div></div></div>`;
    expect(extractFeed(document).listings.map((l) => [l.name, l.sponsored])).toEqual([['Annonce', false]]);
  });
});

describe('the results language', () => {
  it('the search URL carries the chosen hl, English by default', () => {
    const view = { lat: 37.5665, lng: 126.978, zoom: 15 };
    expect(searchUrl('카페', view, 'ko')).toBe('https://www.google.com/maps/search/%EC%B9%B4%ED%8E%98/@37.5665000,126.9780000,15z?hl=ko');
    expect(googleProvider.searchUrl('cafe', view, 'fr')).toMatch(/\?hl=fr$/);
    expect(googleProvider.searchUrl('cafe', view, 'zh-TW')).toMatch(/\?hl=zh-TW$/);
    expect(googleProvider.searchUrl('cafe', view)).toMatch(/\?hl=en$/);
    // Never anything but a language tag in the URL.
    expect(searchUrl('cafe', view, 'ko&gl=us')).toMatch(/\?hl=en$/);
  });

  it('defaults to the browser language mapped to a Google hl code; stored choices are checked', () => {
    expect(hlFromLocale('ko-KR')).toBe('ko');
    expect(hlFromLocale('ko')).toBe('ko');
    expect(hlFromLocale('en_US')).toBe('en');
    expect(hlFromLocale('ja-JP')).toBe('ja');
    expect(hlFromLocale('fr-CA')).toBe('fr');
    expect(hlFromLocale('zh-Hant-TW')).toBe('zh-TW');
    expect(hlFromLocale('zh-CN')).toBe('zh-CN');
    expect(hlFromLocale('sw-KE')).toBe('en');
    expect(hlFromLocale(undefined)).toBe('en');
    expect(normaliseSettings({}, 'ko-KR').lang).toBe('ko');
    expect(normaliseSettings({ lang: 'en' }, 'ko-KR').lang).toBe('en');
    expect(normaliseSettings({ lang: 'KO' }).lang).toBe('ko');
    expect(normaliseSettings({ lang: 'xx"><script>' }, 'fr').lang).toBe('fr');
    expect(normaliseSettings({ lang: 5 }).lang).toBe(DEFAULT_SETTINGS.lang);
    expect(DEFAULT_SETTINGS.lang).toBe(hlFromLocale(globalThis.navigator?.language));
  });
});

describe('a place panel in every language', () => {
  const ids = idsFromPair(0x89c259a31b639d95n, 0x90a673b3e3ed8540n);
  const url = `https://www.google.com/maps/place/Chez+Nous/data=!4m7!3m6!1s${ids.featureId}!8m2!3d48.85!4d2.35!16s%2Fg%2F11x!19s${ids.placeId}?hl=fr`;
  const panel = (stars: string, count: string, countLabel: string, withF7nice = true) =>
    new DOMParser().parseFromString(
      `<div role="main" aria-label="Chez Nous"><div class="lMbq3e"><div><h1 class="DUwDvf">Chez Nous</h1></div>
       <div class="LBgpqf"><div class="skqShb"><div class="fontBodyMedium dmRWX"><div${withF7nice ? ' class="F7nice"' : ''}><span><span aria-hidden="true">${stars.match(/\d[.,]\d/)![0]}</span>
       <span role="img" aria-label="${stars}"></span></span><span><span><span role="img" aria-label="${countLabel}">(${count})</span></span></span></div></div></div></div></div>
       <button data-item-id="address"><div class="Io6YTe">1 Rue de Rivoli, 75001 Paris</div></button></div>`,
      'text/html',
    );

  it.each([
    ['fr', '5,0 étoiles ', '30', '30 avis', 5, 30], // the French place page: "5,0" and "30 avis"
    ['ko', '별표 4.5개 ', '1,234', '리뷰 1,234개', 4.5, 1234],
    ['ja', '星 4.2 ', '1,234', 'クチコミ 1,234 件', 4.2, 1234],
    ['el', '4,1 αστέρια ', '516', '516 αξιολογήσεις', 4.1, 516],
    ['en', '4.7 stars ', '8,713', '8,713 reviews', 4.7, 8713],
  ])('%s: rating and count from the header', (_lang, stars, count, countLabel, rating, reviews) => {
    for (const withF7nice of [true, false]) {
      const read = extractPlacePanel(panel(stars, count, countLabel, withF7nice), url);
      expect(read).not.toBeNull();
      expect({ rating: read!.rating, reviews: read!.reviews }).toEqual({ rating, reviews });
    }
  });
});
