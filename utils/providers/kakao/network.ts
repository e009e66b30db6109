/**
 * The isolated world's half of the map.daum hook (network-hook.ts): the hook's copies, read as
 * untrusted page content, become exchanges (request URL + what the answer means: block signals
 * first, block.ts, then the body, mapdaum.ts). kakao/collect.ts says what they may be used for.
 */
import { isKakaoBlockUrl } from './block';
import { parseMapDaumBody, readMapDaumResponse, type MapDaumResult } from './mapdaum';
import type { KakaoHookMessage } from './network-hook';

/** One answer the page received, as the isolated world read it from a hook message. */
export interface KakaoExchange {
  /** The request URL as the page sent it. */
  url: string;
  result: MapDaumResult;
}

export interface KakaoNetwork {
  accept(message: KakaoHookMessage): void;
  /** Answers copied so far, oldest first. */
  exchanges(): readonly KakaoExchange[];
  /** Requests the hook saw start and not end. */
  pending(): number;
  /** Forget everything (a new visit in the same document). */
  clear(): void;
}

/** What a copied exchange says, block signals first (block.ts), then the body (mapdaum.ts). */
export function exchangeResult(m: Extract<KakaoHookMessage, { phase: 'end' }>): MapDaumResult {
  if (isKakaoBlockUrl(m.finalUrl)) return { kind: 'blocked', reason: 'redirect-500' };
  if (m.outcome === 'no-callback') return { kind: 'blocked', reason: 'html-instead-of-json' };
  if (m.outcome === 'failed') return { kind: 'http-error', status: m.status ?? 0 };
  if (m.status === null) return m.body === null ? { kind: 'malformed', reason: 'no body' } : parseMapDaumBody(m.body);
  return readMapDaumResponse({ status: m.status, url: m.finalUrl, contentType: m.contentType, body: m.body });
}

export function createKakaoNetwork(): KakaoNetwork {
  let list: KakaoExchange[] = [];
  const open = new Map<string, number>();
  return {
    accept(m) {
      if (m.phase === 'start') {
        open.set(m.url, (open.get(m.url) ?? 0) + 1);
        return;
      }
      const n = open.get(m.url) ?? 0;
      if (n <= 1) open.delete(m.url);
      else open.set(m.url, n - 1);
      list.push({ url: m.url, result: exchangeResult(m) });
      // A long walk is 35 pages; anything far beyond that is not one visit's.
      if (list.length > 200) list = list.slice(-100);
    },
    exchanges: () => list,
    pending: () => [...open.values()].reduce((a, b) => a + b, 0),
    clear() {
      list = [];
      open.clear();
    },
  };
}
