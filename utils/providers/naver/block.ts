/**
 * Naver's block and throttle signals (naver-kakao-notes A5, A7). A block pauses a sweep (it is not
 * the cell's fault and retrying makes it worse), so only signals Naver is known to send count:
 * HTTP 429; the block page's text; an nCaptcha answer or its error codes. "잠시 후 다시 시도해주세요"
 * ("try again later") alone is a generic error line, so it counts only beside a 429.
 */
export type NaverBlockKind = 'rate-limited' | 'captcha' | 'restricted';

export interface NaverBlock {
  kind: NaverBlockKind;
  /** What was seen, for the log and the popup. */
  evidence: string;
}

export interface BlockInput {
  /** HTTP status of the page or response, when known. */
  status?: number | null;
  /** Visible text of the page, or a response body. */
  text?: string | null;
  /** A parsed JSON answer (allSearch / GraphQL). */
  json?: unknown;
}

/** The pcmap / m.place block page (A7), verbatim. */
export const BLOCK_PAGE_TEXT = '과도한 접근 요청으로 서비스 이용이 제한되었습니다';
const RESTRICTED = /서비스 이용이 제한되었습니다/;
const RETRY_LATER = /잠시 후 다시 시도해\s?주세요/;
/** search.naver.com's automated-query page (not the map, but the same account can land there). */
const SEARCH_BLOCK = /검색 서비스 이용이 제한되었습니다|프로그램을 이용한 자동 검색|안정적인 검색 서비스를 방해/;
/** allSearch / GraphQL refusal codes (A5, A6). */
const CAPTCHA_CODES = /\b(CE_EMPTY_TOKEN|CE_BAD_REQUEST|NCAPTCHA|PCMAP_HTTP_405)\b/;

export function detectNaverBlock(input: BlockInput): NaverBlock | null {
  const text = typeof input.text === 'string' ? input.text.slice(0, 200_000) : '';
  if (text.includes(BLOCK_PAGE_TEXT)) return { kind: 'restricted', evidence: BLOCK_PAGE_TEXT };
  if (SEARCH_BLOCK.test(text)) return { kind: 'restricted', evidence: SEARCH_BLOCK.exec(text)![0] };
  if (RESTRICTED.test(text)) return { kind: 'restricted', evidence: '서비스 이용이 제한되었습니다' };
  const code = CAPTCHA_CODES.exec(text)?.[1] ?? jsonCaptcha(input.json);
  if (code) return { kind: 'captcha', evidence: code };
  if (text.includes('ncpt.naver.com') && /ncaptcha/i.test(text)) return { kind: 'captcha', evidence: 'nCaptcha page' };
  if (input.status === 429) return { kind: 'rate-limited', evidence: RETRY_LATER.test(text) ? 'HTTP 429: 잠시 후 다시 시도해주세요' : 'HTTP 429' };
  return null;
}

/** The visible text of a document (its body), for detectNaverBlock. */
export function blockFromDocument(doc: Document, status: number | null = null): NaverBlock | null {
  return detectNaverBlock({ status, text: doc.body?.textContent ?? '' });
}

/** `result.ncaptcha`, or an error code anywhere in the first levels of the answer. */
function jsonCaptcha(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null;
  const result = (json as { result?: unknown }).result;
  if (typeof result === 'object' && result !== null && 'ncaptcha' in result && (result as { ncaptcha?: unknown }).ncaptcha) return 'result.ncaptcha';
  const flat = JSON.stringify(json).slice(0, 20_000);
  return CAPTCHA_CODES.exec(flat)?.[1] ?? null;
}
