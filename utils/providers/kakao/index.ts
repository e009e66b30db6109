/** Kakao Map, provider side: pure readers of its URLs, list, map.daum answers and block signals. */
export { confirmIdFromPlaceUrl, kakaoKey, parseConfirmId } from './ids';
export * from './urls';
export { classifyKakaoResponse, isKakaoBlockTab, isKakaoBlockUrl, looksLikeHtml, type KakaoResponseInfo, type KakaoResponseVerdict } from './block';
export { parseMapDaumBody, readMapDaumPlace, readMapDaumResponse, type MapDaumPage, type MapDaumResult } from './mapdaum';
export {
  extractKakaoList,
  nextPagerAction,
  readCard,
  readPager,
  KAKAO_SELECTORS,
  pageLinkSelector,
  type KakaoListExtraction,
  type KakaoPagerAction,
  type KakaoPagerState,
} from './list-dom';
export { observeKakaoPage, type KakaoMapDaumExchange, type KakaoPageStatus, type KakaoPageSummary, type ObserveInput } from './observe';
export { parseRestKeywordAnswer, type RestKeywordPage } from './rest';
