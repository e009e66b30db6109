import type { PlaceFilter } from '../config/settings';
import type { Covered } from './senders';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { Observation } from '../domain/sweep';
import type { Listing } from '../domain/listing';
import type { SavedSearchInput } from '../domain/saved-search';
import type { ProviderId } from '../domain/place';

/**
 * The one typed protocol between the extension's contexts, named by direction.
 * `@webext-core/messaging` gives compile-time checked names, payloads and replies over
 * runtime/tabs messaging, instead of hand-written `{ type: string }` switches.
 */

// The user-facing failure and the reply shape are domain types (utils/domain/errors.ts): the
// layers below messaging (sweep planning, schedules) produce them too.
import type { Reply } from '../domain/errors';
export type { Reply, UserError } from '../domain/errors';

export interface StartRequest {
  areaText: string;
  keywordsText: string;
  /** The map site to sweep; absent: the site of the map tab used last (Google when none is open). */
  provider?: ProviderId;
}

export interface EstimateReply {
  /** Searches expected, assuming a typical share of crowded cells (a guess, said as such). */
  cells: number;
  /** Searches at the very least: every initial cell once. */
  cellsMin: number;
  keywords: number;
  seconds: number;
  /** Seconds for `cellsMin` searches at the current pacing. */
  secondsMin: number;
  maxCells: number;
}

/** Popup / dashboard → background: sweeps. Accepted only from the extension's own pages. */
export interface SweepCommandMap {
  estimate(req: StartRequest): Reply<{ estimate: EstimateReply }>;
  startSweep(req: StartRequest): Reply<{ sweepId: string; estimate: EstimateReply }>;
  pauseSweep(sweepId: string): Reply;
  resumeSweep(sweepId: string): Reply;
  stopSweep(sweepId: string): Reply;
  retryFailed(sweepId: string): Reply<{ cells: number }>;
  useMapView(provider?: ProviderId): Reply<{ areaText: string }>;
  /** Delete a sweep and the places only it found; refused while a worker holds one of its cells. */
  deleteSweep(sweepId: string): Reply;
  /** The user signed in: the sweep's reviews pass may run again (utils/reviews). */
  resumeReviews(sweepId: string): Reply;
  /** Read a finished sweep's reviews now, with the options' limits (or again, for what is new). */
  readReviews(sweepId: string): Reply;
}

/** Dashboard → background: saved searches and their schedule. */
export interface ScheduleCommandMap {
  /** Create (no id) or change a saved search; the schedule's alarm follows. */
  saveSearch(input: SavedSearchInput & { id?: string }): Reply<{ id: string }>;
  deleteSavedSearch(id: string): Reply;
  runSavedSearchNow(id: string): Reply;
}

export type UiToBackground = SweepCommandMap & ScheduleCommandMap;

/** A command table implementing part of the protocol: each name, its argument, its reply. */
export type CommandTable<M> = { [K in keyof M]: M[K] extends (arg: infer A) => infer R ? (arg: A) => Promise<R> : never };

/** Content script → background. Accepted only from tabs on a map host. */
export interface ContentToBackground {
  browsingListings(listings: Listing[]): void;
  /** Is the asking tab one a sweep drives (its pages are the sweep's, never browsing)? */
  isSweepTab(): boolean;
}

export interface CollectOptions {
  /** Organic results at which the site stops (120 on Google). */
  cap: number;
  /** Give up scrolling when the feed has not grown for this long. */
  stallMs: number;
  /** Hard bound on the whole collection. */
  maxMs: number;
  /** Wait this long for the page to show a feed, a place, or a no-results panel. */
  settleMs: number;
  /** Mean pause between scrolls; each pause is drawn from 0.5×–1.5× of it. */
  scrollPauseMs: number;
  /**
   * Paged lists (Naver, Kakao): the page this collection must read. Until the page shows it
   * (the pager marks it current), the content script waits: the click that asked for it may
   * still be re-rendering the list, or navigating to it. Absent: whatever page is shown.
   */
  expectPage?: number;
  /**
   * Check this page (issue 41): read what the page shows now and nothing more — no scroll, no
   * page turn, no press. The page is the person's: it stays as it is.
   */
  look?: boolean;
}

/** Background → content script of a worker tab. */
export interface BackgroundToContent {
  collect(options: CollectOptions): Observation;
  /**
   * Paged lists (Naver, Kakao): press the page's own "next page" control, as a person would.
   * `clicked: false` when the page shows no enabled next control. The page may re-render in
   * place or navigate; the next `collect` (with `expectPage`) reads the new page either way.
   */
  nextPage(): { clicked: boolean };
  /**
   * Lists whose first page needs some of the page's own controls pressed before it can be read
   * (MapProvider.firstPageControls): wait until the page shows what its load or the newest press
   * brought; `ready: false` while a control is still to be pressed. Presses nothing.
   */
  firstPageReady(options: CollectOptions): { ready: boolean };
  /** Press the one control `firstPageReady` found missing; the site searches again, so the driver sends it in the host's pacing turn. */
  pressFirstPageControl(): { clicked: boolean };
}

export type Protocol = UiToBackground & ContentToBackground & BackgroundToContent;

export const { sendMessage, onMessage } = defineExtensionMessaging<Protocol>();
// Every name is in the one table of senders (a compile error names one that is not).
void (true satisfies Covered<Protocol>);

/** A long export (utils/export/long-export.ts): what to export, as the popup chose it. */
export interface LongExportRequest {
  /** A sweep's id or 'browsing'; absent = every place stored. */
  collection?: string;
  fileWords: string[];
  /** The popup's formats: places as CSV or XLSX (with its Businesses sheet), and the Businesses CSV. */
  format: 'csv' | 'xlsx' | 'businesses-csv';
  /** The filters of the moment (utils/filters): the file holds the places that pass, and says which. */
  filter?: PlaceFilter;
}

/**
 * Long exports, on their own messaging instance (a second runtime listener; each instance
 * answers only the names it knows). Popup → background: start one; background → offscreen
 * document: build the file; offscreen → background: places read so far.
 */
export interface ExportMessages {
  startLongExport(req: LongExportRequest): Reply<{ exportId: string }>;
  offscreenBuildExport(req: LongExportRequest & { exportId: string; now: number }): Reply<{ url: string; fileName: string; places: number }>;
  offscreenExportProgress(p: { exportId: string; done: number; total: number }): void;
  offscreenRevoke(url: string): void;
}

export const { sendMessage: sendExportMessage, onMessage: onExportMessage } = defineExtensionMessaging<ExportMessages>();
void (true satisfies Covered<ExportMessages>);
