/**
 * In a Firefox content script the iterator `URLSearchParams.keys()` returns is not iterable
 * (Firefox bug 1023984): spreading it threw "t.searchParams.keys() is not iterable" and stopped
 * Kakao's content script before it read anything (found by the Firefox browser test). The
 * parameter names are read with `forEach` (utils/net/url-params.ts); here `keys()` behaves as in
 * Firefox's content script, and the readers still work.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paramNames } from '../../utils/net/url-params';
import { parseMapDaumUrl } from '../../utils/providers/kakao/urls';
import { strippedUrl } from '../../utils/report/report';

const keys = URLSearchParams.prototype.keys;

describe("query parameter names where keys() cannot be iterated (Firefox's content scripts)", () => {
  beforeEach(() => {
    URLSearchParams.prototype.keys = () => ({ next: () => ({ done: true, value: undefined }) }) as unknown as URLSearchParamsIterator<string>;
  });
  afterEach(() => {
    URLSearchParams.prototype.keys = keys;
  });

  it('are read once each, in order', () => {
    expect(paramNames(new URLSearchParams('q=a&page=2&q=b&msFlag=A'))).toEqual(['q', 'page', 'msFlag']);
  });

  it("Kakao's search requests are still read (an everywhere search is known by its parameters)", () => {
    const request = parseMapDaumUrl('https://search.map.kakao.com/mapsearch/map.daum?q=%EC%B9%B4%ED%8E%98&msFlag=A&sort=0&page=2');
    expect(request).toMatchObject({ endpoint: 'map.daum', query: '카페', page: 2, everywhere: true });
  });

  it("a page report's address keeps the parameter names only", () => {
    expect(strippedUrl('https://map.kakao.com/?q=secret&itemId=123')).toBe('https://map.kakao.com/?q=&itemId=');
  });
});
