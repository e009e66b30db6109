/**
 * What the visitor reviews page and its list request serve of the ground truth (reviews.ts) under the
 * switches: dates printed as the page prints them (in Korea's time zone, whatever the machine's), the
 * stars only when switched on, the opaque cursor, and the truth with the same printed dates.
 *
 * The list answer is a pure function of the world, the switches, the clock and the request, so unit
 * tests answer the page's requests in-process exactly as the server does.
 */
import type { World } from '../world';
import { type NaverReplicaPlace, naverPlaceById } from './data';
import {
  NAVER_REVIEW_SORTS,
  type NaverOwnerReply,
  type NaverReview,
  type NaverReviewSort,
  naverReviewAt,
  naverReviewOrder,
  naverReviewsOf,
  naverReviewTotal,
} from './reviews';
import type { NaverReviewsSwitches } from './reviews-switches';

/** When the reviews were written up to (the replica's start) and the clock the dates are printed against. */
export interface NaverReviewClock {
  writtenBefore: number;
  now: number;
}

/** A review as the page gets it: dates printed, stars only when shown, the full text (the page cuts it). */
export interface ServedNaverReview {
  id: string;
  author: string;
  authorReviews: number;
  authorPhotos: number;
  text: string;
  /** "24.3.5.화" or "3.5.화" (naverReviewsDates). */
  visited: string;
  /** "2024년 3월 5일 화요일". */
  visitedFull: string;
  written: string;
  writtenFull: string;
  visitCount: number;
  keywords: string[];
  photos: number;
  verifiedBy: string;
  /** Null unless `naverReviewStars: 'shown'`. */
  rating: number | null;
  reply: { text: string; date: string; dateFull: string } | null;
}

/** The list request's answer. */
export interface NaverReviewsListAnswer {
  total: number;
  sort: NaverReviewSort;
  items: ServedNaverReview[];
  /** Where the next page starts; null when this page reached the last review. */
  cursor: string | null;
}

/** Most a list request may ask for at once. */
const MAX_SIZE = 50;
const KST_MS = 9 * 3_600_000;
const WEEKDAYS = ['일', '월', '화', '수', '목', '금', '토'];

type DateForm = NaverReviewsSwitches['naverReviewsDates'];

function kstParts(ms: number): { y: number; m: number; d: number; w: string } {
  const t = new Date(ms + KST_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate(), w: WEEKDAYS[t.getUTCDay()]! };
}

/** "24.3.5.화"; under 'year-when-old', "3.5.화" when the date is in `now`'s year (both in Korea's time). */
export function naverShortDate(ms: number, now: number, form: DateForm): string {
  const a = kstParts(ms);
  const day = `${a.m}.${a.d}.${a.w}`;
  return form === 'year-when-old' && a.y === kstParts(now).y ? day : `${String(a.y % 100).padStart(2, '0')}.${day}`;
}

/** "2024년 3월 5일 화요일": the hidden full date after a printed one. */
export function naverFullDate(ms: number): string {
  const a = kstParts(ms);
  return `${a.y}년 ${a.m}월 ${a.d}일 ${a.w}요일`;
}

function served(r: NaverReview, s: NaverReviewsSwitches, now: number): ServedNaverReview {
  const form = s.naverReviewsDates;
  const reply = r.ownerReply;
  return {
    id: r.id,
    author: r.author,
    authorReviews: r.authorReviews,
    authorPhotos: r.authorPhotos,
    text: r.text,
    visited: naverShortDate(r.visitedAt, now, form),
    visitedFull: naverFullDate(r.visitedAt),
    written: naverShortDate(r.writtenAt, now, form),
    writtenFull: naverFullDate(r.writtenAt),
    visitCount: r.visitCount,
    keywords: r.keywords,
    photos: r.photos,
    verifiedBy: r.verifiedBy,
    rating: s.naverReviewStars === 'shown' ? r.rating : null,
    reply: reply && { text: reply.text, date: naverShortDate(reply.repliedAt, now, form), dateFull: naverFullDate(reply.repliedAt) },
  };
}

/** Reviews `from`..`to` (exclusive) in `sort` order, as served. */
export function servedNaverRange(
  p: NaverReplicaPlace,
  sort: NaverReviewSort,
  from: number,
  to: number,
  s: NaverReviewsSwitches,
  clock: NaverReviewClock,
): ServedNaverReview[] {
  const order = naverReviewOrder(p, sort);
  const out: ServedNaverReview[] = [];
  for (let i = from; i < Math.min(to, order.length); i++) out.push(served(naverReviewAt(p, order[i]!, clock.writtenBefore), s, clock.now));
  return out;
}

/** The page and its list request: `/{type}/{id}/review/visitor` and `/{type}/{id}/review/visitor/list`. */
export function parseNaverReviewsPath(path: string): { type: string; id: string; list: boolean } | null {
  const m = /^\/([a-z]+)\/(\d+)\/review\/visitor(\/list)?\/?$/.exec(path);
  return m ? { type: m[1]!, id: m[2]!, list: m[3] !== undefined } : null;
}

/** The list request's URL as the page builds it (the page's own path + `/list`). */
export function naverReviewsListUrl(type: string, id: string, sort: NaverReviewSort, size: number, cursor: string | null): string {
  return `/${type}/${id}/review/visitor/list?sort=${sort}&size=${size}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
}

/** Opaque to the page: the order it belongs to and where the next page starts, so a cursor cannot continue another order. */
export function encodeNaverCursor(sort: NaverReviewSort, offset: number): string {
  return Buffer.from(`${sort}:${offset}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { sort: NaverReviewSort; offset: number } | null {
  const m = /^(recommend|recent):(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { sort: m[1] as NaverReviewSort, offset: Number(m[2]) } : null;
}

/** The page's order from its URL's `reviewSort` (links to the page carry `?reviewSort=recent`); 추천순 otherwise. */
export function sortFromQuery(value: string | null): NaverReviewSort {
  return value === 'recent' ? 'recent' : 'recommend';
}

export interface JsonAnswer {
  status: number;
  body: string;
}

function refuse(status: number, message: string): JsonAnswer {
  return { status, body: JSON.stringify({ error: { message } }) };
}

/**
 * `GET /{type}/{id}/review/visitor/list?sort=recommend|recent&size=N[&cursor=…]` → `{total, sort, items, cursor}`.
 * No cursor: the first page. `size` defaults to the page size switch. A bad sort, size or cursor, or a
 * cursor of another order, answers 400; an unknown place 404.
 */
export function answerNaverReviewsList(world: World, placeId: string, params: URLSearchParams, s: NaverReviewsSwitches, clock: NaverReviewClock): JsonAnswer {
  const p = naverPlaceById(world, placeId);
  if (!p) return refuse(404, 'no such place');
  const sort = params.get('sort') ?? 'recommend';
  if (!NAVER_REVIEW_SORTS.includes(sort as NaverReviewSort)) return refuse(400, 'sort must be recommend or recent');
  const size = Number(params.get('size') ?? String(s.naverReviewsPage));
  if (!Number.isInteger(size) || size < 1 || size > MAX_SIZE) return refuse(400, `size must be an integer in [1, ${MAX_SIZE}]`);
  const cursor = params.get('cursor');
  const at = cursor === null ? { sort: sort as NaverReviewSort, offset: 0 } : decodeCursor(cursor);
  if (!at || at.sort !== sort) return refuse(400, 'bad cursor');
  const total = naverReviewTotal(p);
  const end = Math.min(total, at.offset + size);
  const answer: NaverReviewsListAnswer = {
    total,
    sort: at.sort,
    items: servedNaverRange(p, at.sort, at.offset, end, s, clock),
    cursor: end < total ? encodeNaverCursor(at.sort, end) : null,
  };
  return { status: 200, body: JSON.stringify(answer) };
}

/** A review of the ground truth with its dates as the page prints them under the switches, at `clock.now`. */
export interface NaverReviewTruth extends NaverReview {
  visitedText: string;
  writtenText: string;
  ownerReply: (NaverOwnerReply & { repliedText: string }) | null;
}

/** Every visitor review of the place, newest first. */
export function naverReviewsTruth(p: NaverReplicaPlace, s: NaverReviewsSwitches, clock: NaverReviewClock): NaverReviewTruth[] {
  const form = s.naverReviewsDates;
  return naverReviewsOf(p, clock.writtenBefore).map((r) => ({
    ...r,
    visitedText: naverShortDate(r.visitedAt, clock.now, form),
    writtenText: naverShortDate(r.writtenAt, clock.now, form),
    ownerReply: r.ownerReply && { ...r.ownerReply, repliedText: naverShortDate(r.ownerReply.repliedAt, clock.now, form) },
  }));
}
