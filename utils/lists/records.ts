/**
 * A list of places collected as a collection of its own (issue 40, "a list of places as input"):
 * the record the dashboard shows, and how its jobs sit in the place queue. Pure: no store.
 *
 * A list's place pages are jobs of the one place queue (utils/details/records.ts, `placeQueue`),
 * one queue per site (`{listId}@{site}`), so each site's loads wait in that site's lane and the
 * one loop of utils/details/runner.ts reads them. A share link is a job whose key names the link
 * (`share:https://naver.me/…`) until the page it lands on names its place.
 */
import type { ProviderId } from '../domain/place';
import type { BadLine } from '../input';

export type ListStatus = 'running' | 'paused' | 'finished' | 'stopped';

/** Why a list waits, each with its words in the dashboard (`listProblem_<kind>`, dashes as underscores). */
export const LIST_PROBLEM_KINDS = ['user', 'blocked', 'tab-closed', 'restart', 'signed-out', 'no-guard', 'host-access'] as const;

/** Why a list waits (shown in the dashboard), or what ended it. */
export interface ListProblem {
  kind: (typeof LIST_PROBLEM_KINDS)[number];
  message: string;
  at: number;
}

export interface PlaceList {
  /** `list-…`: also its collection's id (Listing.collections) and its log's (events.sweepId). */
  id: string;
  /** The name the person gave it: the collection's name and its files' words. */
  name: string;
  status: ListStatus;
  problem: ListProblem | null;
  createdAt: number;
  updatedAt: number;
  /** The sites it has places of, each a queue of its own. */
  sites: ProviderId[];
  counts: ListCounts;
  /** The lines refused when the list was confirmed, with their numbers and reasons (the first MAX_KEPT_BAD_LINES). */
  bad: BadLine[];
  /** What a visit may take, copied from the options when the list was confirmed. */
  settings: ListSettings;
  /**
   * Read reviews was pressed for the list (utils/lists/reviews.ts): the options' limits of that
   * moment. Absent: its places' reviews are not read. Its jobs are in `reviewQueue`, one queue per site.
   */
  reviews?: ListReviewLimits;
}

export interface ListReviewLimits {
  reviewsPerPlace: number;
  reviewsSince: string;
  reviewsKeepAuthor: boolean;
}

export interface ListCounts {
  /** Places the list named, one per key. */
  places: number;
  /** Share links to open. */
  shares: number;
  /** Lines refused. */
  bad: number;
  /** Lines naming a place (or link) an earlier line named. */
  duplicates: number;
  /** Places stored before with nothing their page could add: in the collection at once, no load. */
  storedBefore: number;
}

export interface ListSettings {
  lang?: string;
  maxAttempts: number;
  /** The load timeout (the sweeps' cellTimeoutMs). */
  loadTimeoutMs: number;
}

/** The bad lines a list keeps for the dashboard; the count keeps the rest. */
export const MAX_KEPT_BAD_LINES = 1_000;
/** A list's name: what a person types, bounded. */
export const MAX_LIST_NAME = 120;

export const LIST_ID = /^list-[a-z0-9]{4,40}$/;

export function isListId(id: string): boolean {
  return LIST_ID.test(id);
}

/** The place queue of one site of a list (a `placeQueue` "sweepId"). */
export function listQueueId(listId: string, site: ProviderId): string {
  return `${listId}@${site}`;
}

const SHARE_PREFIX = 'share:';

/** A share link's job key: it names the link until the page it lands on names the place. */
export function shareKey(url: string): string {
  return `${SHARE_PREFIX}${url}`;
}

export function isShareKey(key: string): boolean {
  return key.startsWith(SHARE_PREFIX);
}

export function isOpen(status: ListStatus): boolean {
  return status === 'running' || status === 'paused';
}
