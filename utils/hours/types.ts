/**
 * What an hours text says, read into the shapes the listing already stores (DayHours) and the
 * few things a week of intervals cannot carry: breaks as the site states them, last orders, the
 * public-holiday rule, closed for good or for now, and every piece that was not understood.
 */
import type { DayHours, Listing } from '../domain/listing';

/** ISO weekday 1 = Monday … 7 = Sunday, or `PH` for public holidays (공휴일, OSM's `PH`). */
export type DayKey = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 'PH';

export type Interval = DayHours['intervals'][number];

export interface ParsedHours {
  /**
   * The weekdays the text gives, Monday first. Intervals have breaks taken out; an empty list
   * means closed all day. A weekday absent here is unknown, never closed.
   */
  days: DayHours[];
  /** ISO weekdays the text does not give (the complement of `days`): what a reader must not assume. */
  unknownDays: number[];
  /** Public holidays (`공휴일 휴무` → no intervals; `공휴일 12:00~22:00`), or null when the text names none. */
  publicHolidays: { text: string; intervals: Interval[] } | null;
  /** Breaks as stated (브레이크타임, 휴게시간, 점심시간), with the days they were taken out of. */
  breaks: Array<{ days: DayKey[]; open: string; close: string }>;
  /** Last orders (라스트오더, 마지막주문), with their days; no days when the text names none. */
  lastOrders: Array<{ days: DayKey[]; time: string }>;
  /** Closed for good (폐업, Permanently closed) or for now (임시휴업, Temporarily closed), as Listing.closed words it. */
  closed: NonNullable<Listing['closed']> | null;
  /**
   * Pieces understood as saying nothing about the week: the site's status of the moment
   * (`영업 중`, `영업 종료`, `Open · Closes 10 PM`, a bare `Closed` or `24시간 영업` with no day).
   */
  notes: string[];
  /** Pieces not understood, as written: kept, never guessed at. */
  unparsed: string[];
}
