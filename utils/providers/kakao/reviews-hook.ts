/**
 * Seeing Kakao's place page's own reviews answers (naver-kakao-notes B5): the page fetches
 * `place-api.map.kakao.com/places/tab/reviews/kakaomap/{confirmid}` for its 후기 tab and for each
 * "더보기", and each answer says whether more follow (`has_next`). Those answers are copied here,
 * never requested: the reviews reader (kakao/reviews.ts) takes a copy only for a request the
 * browser's own resource timing shows the page made, and only as page content.
 *
 * Two halves, as for the search page's hook (network-hook.ts): `installKakaoReviewsHook` runs in
 * the place page's MAIN world before its scripts; `readKakaoReviewsHookMessage` reads the copies
 * back in the isolated world and trusts nothing in them: any page script can post the same message.
 */

import { boundedString, installPageNetworkHook, MAX_MESSAGE_URL, taggedMessage } from '../page-network-hook';

export const KAKAO_REVIEWS_HOOK_SOURCE = 'mapsweep:kakao-reviews';

/*
 * This module runs in the page's MAIN world: it imports only the shared hook. The endpoint test
 * is here (urls.ts would bring proj4 into every place page); kakao/reviews-answer.ts reads the
 * same URLs with it.
 */
export const KAKAO_REVIEWS_HOST = 'place-api.map.kakao.com';
const REVIEWS_PATH = /^\/places\/tab\/reviews\/kakaomap\/(\d{1,12})$/;

/** The place a reviews request is for, or null for any other URL. */
export function kakaoReviewsRequestPlace(href: string): string | null {
  try {
    const u = new URL(href);
    if (u.protocol !== 'https:' || u.hostname !== KAKAO_REVIEWS_HOST) return null;
    return REVIEWS_PATH.exec(u.pathname)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** One copied answer, as the hook posts it (only answers: a request is pending until its copy comes). */
export interface KakaoReviewsHookMessage {
  source: typeof KAKAO_REVIEWS_HOOK_SOURCE;
  phase: 'start' | 'end';
  url: string;
  /** The HTTP status; null when the transport did not tell (a failed request). */
  status: number | null;
  /** The answer's text, or null when there was none to copy. */
  body: string | null;
}

type Post = (message: KakaoReviewsHookMessage) => void;

/** Longest answer copied: a page of reviews is a few tens of kilobytes. */
const MAX_BODY = 4_000_000;

/**
 * Wraps the page's XMLHttpRequest and fetch so every reviews exchange reaches `post`: a 'start'
 * when it goes out, an 'end' when it is over (failures too). The page must not notice
 * (utils/providers/page-network-hook.ts). Installing twice is a no-op.
 */
export function installKakaoReviewsHook(win: Window, post: Post): () => void {
  return installPageNetworkHook<string>(win, {
    key: 'mapsweep.kakao.reviewsHook',
    fallbackBase: 'https://place.map.kakao.com/',
    match: (_url, absolute) => (kakaoReviewsRequestPlace(absolute) ? absolute : null),
    maxBody: MAX_BODY,
    xhrEvent: 'loadend',
    sent: (url) => post({ source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'start', url, status: null, body: null }),
    received: (url, answer) =>
      post({ source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'end', url, status: answer.status || null, body: answer.status ? answer.body : null }),
    failed: (url, answer) => post({ source: KAKAO_REVIEWS_HOOK_SOURCE, phase: 'end', url, status: answer?.status || null, body: null }),
  });
}

/**
 * A hook message's fields, or null for anything else. Callers must also check
 * `event.source === window`: this only checks the shape, which any page script can copy.
 */
export function readKakaoReviewsHookMessage(data: unknown): KakaoReviewsHookMessage | null {
  const m = taggedMessage(data, KAKAO_REVIEWS_HOOK_SOURCE);
  if (!m || (m.phase !== 'start' && m.phase !== 'end')) return null;
  const url = boundedString(m.url, MAX_MESSAGE_URL);
  if (url === null || !kakaoReviewsRequestPlace(url)) return null;
  if (m.body !== null && boundedString(m.body, MAX_BODY) === null) return null;
  const status = typeof m.status === 'number' && Number.isInteger(m.status) && m.status > 0 && m.status < 1000 ? m.status : null;
  return { source: KAKAO_REVIEWS_HOOK_SOURCE, phase: m.phase, url, status, body: m.phase === 'end' ? (m.body as string | null) : null };
}
