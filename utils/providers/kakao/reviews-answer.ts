/**
 * One of the place page's own reviews answers (`place-api…/places/tab/reviews/kakaomap/{id}`,
 * naver-kakao-notes B5 [~]) read as page content: the reviews it lists and whether it says more
 * follow. The shape is known from one 2025 public crawler (its record fields: `reviewId`,
 * `starRating`, `contents`, `photoCount`, `registeredAt`, `meta.owner.nickname`, and `hasNext`,
 * `scoreSet`), whose JSON naming is not said: both `snake_case` and `camelCase` are read. Every
 * field is checked; an answer whose list or end cannot be read is no answer (null), and a review
 * with no usable id is dropped from it with the answer marked incomplete, so it never proves an end.
 */
import type { ReviewCard } from '../../messaging/reviews-protocol';
import { kakaoReviewsRequestPlace } from './reviews-hook';

export interface KakaoReviewsAnswer {
  placeId: string;
  /** The order the request asked for, as its `order` parameter says it (`LATEST`, `RECOMMENDED`), or null when it says none. */
  order: string | null;
  cards: ReviewCard[];
  /** The answer's own word on whether more follow; null when it says nothing readable. */
  hasNext: boolean | null;
  /** False when a listed review could not be read: such an answer proves no end. */
  complete: boolean;
}

const MAX_TEXT = 20_000;
const MAX_REVIEWS = 500;

/** `obj[snake] ?? obj[camel]`: the field under either naming. */
function field(obj: Record<string, unknown>, snake: string): unknown {
  if (snake in obj) return obj[snake];
  const camel = snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  return obj[camel];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function reviewId(v: unknown): string | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return String(v);
  if (typeof v === 'string' && /^\d{1,19}$/.test(v) && !/^0+$/.test(v)) return v;
  return null;
}

function card(raw: unknown): ReviewCard | null {
  if (!isObject(raw)) return null;
  const id = reviewId(field(raw, 'review_id'));
  if (!id) return null;
  const stars = field(raw, 'star_rating');
  const contents = field(raw, 'contents');
  const registered = field(raw, 'registered_at');
  const photos = field(raw, 'photo_count');
  const meta = field(raw, 'meta');
  const owner = isObject(meta) ? field(meta, 'owner') : null;
  const nickname = isObject(owner) ? field(owner, 'nickname') : null;
  return {
    id,
    author: typeof nickname === 'string' ? nickname.slice(0, 200) : '',
    rating: typeof stars === 'number' && Number.isInteger(stars) && stars >= 1 && stars <= 5 ? stars : null,
    dateSaid: typeof registered === 'string' && registered.length <= 80 ? registered : null,
    text: typeof contents === 'string' ? contents.slice(0, MAX_TEXT).trim() : '',
    // The answer carries the whole text: nothing to open.
    collapsed: false,
    translation: null,
    ownerReply: null,
    photos: typeof photos === 'number' && Number.isInteger(photos) && photos >= 0 ? Math.min(photos, 1000) : 0,
    lang: null,
  };
}

/** The answer to `url` (a reviews request for a place) with its text `body`, or null when it is not one. */
export function readKakaoReviewsAnswer(url: string, status: number | null, body: string | null): KakaoReviewsAnswer | null {
  const placeId = kakaoReviewsRequestPlace(url);
  if (!placeId || status !== 200 || body === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (!isObject(json)) return null;
  const list = field(json, 'reviews');
  if (!Array.isArray(list) || list.length > MAX_REVIEWS) return null;
  const next = field(json, 'has_next');
  const cards: ReviewCard[] = [];
  let complete = true;
  for (const raw of list) {
    const c = card(raw);
    if (c) cards.push(c);
    else complete = false;
  }
  let order: string | null = null;
  try {
    order = new URL(url).searchParams.get('order');
  } catch {
    order = null;
  }
  return { placeId, order: order && /^[A-Z_]{1,20}$/.test(order) ? order : null, cards, hasNext: typeof next === 'boolean' ? next : null, complete };
}
