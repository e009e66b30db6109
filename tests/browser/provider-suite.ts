/**
 * What the Naver and Kakao end-to-end files share (naver.test.ts, kakao.test.ts): a replica of
 * the provider's hosts in central Seoul and one browser for the sweeps that need no crash, both
 * started before the file's tests and closed after; a sweep started from the popup and awaited;
 * the CSV compared with the replica's ground truth; and a sweep that survives a SIGKILL.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { exportCsvFromPopup, resumeFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS, type SweepRecord, type SweepStart } from './extension';
import {
  launchBrowser,
  newProfileDir,
  openPopup,
  readCells,
  readListings,
  readSweeps,
  removeProfileDir,
  waitFor,
  type RunningBrowser,
  type SweepRow,
} from './harness';
import type { LoggedRequest } from '../replica/https-server';

export const CENTRE = { lat: 37.5665, lng: 126.978 };
export const KEYWORD = '카페';
export const SETTINGS = { ...TEST_SETTINGS, delayMs: 120, jitterMs: 80, scrollPauseMs: 80 };

/** The area text of a box ±d degrees of latitude (1.26 d of longitude: about square in Seoul) around a point. */
export function areaAround(d: number, lat = CENTRE.lat, lng = CENTRE.lng): string {
  return `${(lat - d).toFixed(5)},${(lng - d * 1.26).toFixed(5)},${(lat + d).toFixed(5)},${(lng + d * 1.26).toFixed(5)}`;
}

/** The places of an area by site id, where they are, and the world's hours (one span every day; null: none). */
type Truth = Map<string, { lat: number; lng: number; hours?: WorldHours }>;
type WorldHours = { opens: number; closes: number } | 'open24h' | null;

/** The week in the export's `opening_hours` column, for the world's hours (the same span every day). */
function weekOf(hours: WorldHours): string {
  if (hours === null) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  const span = hours === 'open24h' ? '00:00-24:00' : `${two(hours.opens)}:00-${two(hours.closes)}:00`;
  return ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => `${d} ${span}`).join('; ');
}

/** Latency jitter between the pacer's stamp and the replica's log of the same request . */
export const NETWORK_JITTER_MS = 50;

/**
 * The requests the extension caused, from a replica's log: each page load (`load`), and each
 * search a page sent that its own load did not make (`search`: a control pressed, a page turned).
 * A load's first search is part of that load, as the assets it pulls in are (those are never counted).
 */
export function causedRequests<K extends string>(log: readonly LoggedRequest<K>[], kinds: { load: K; search?: K }): LoggedRequest<K>[] {
  const out: LoggedRequest<K>[] = [];
  let loadsOwn = false;
  for (const r of log) {
    if (r.kind === kinds.load) {
      out.push(r);
      loadsOwn = true;
    } else if (r.kind === kinds.search) {
      if (!loadsOwn) out.push(r);
      loadsOwn = false;
    }
  }
  return out;
}

/** Milliseconds between each request and the one before, in the site's own log. */
export function gapsOf(requests: readonly { at: number }[]): number[] {
  return requests.slice(1).map((r, i) => r.at - requests[i]!.at);
}

interface ProviderReplica<S> {
  port: number;
  setSwitches(partial: Partial<S>): void;
  unblock(): void;
  close(): Promise<void>;
}

export interface ProviderSuite<R, S> {
  /** The replica and the shared browser, once beforeAll has run. */
  readonly replica: R;
  readonly shared: RunningBrowser;
  /** The replica back to the file's defaults, then `partial`. */
  resetSwitches(partial?: Partial<S>): void;
  /** The provider's search page for `query` in a new tab, as a person has it open when pressing Start. */
  openTab(b: RunningBrowser, query?: string): Promise<Page>;
  /** The listings collect-while-browsing stored for this provider. */
  browsingListings(popup: Page): Promise<Awaited<ReturnType<typeof readListings>>>;
  /**
   * Start a sweep in the shared browser and wait for it (not an earlier one) to leave 'running' (or meet `until`);
   * `settings` on top of the file's SETTINGS.
   */
  sweepToEnd(
    input: SweepStart,
    what: string,
    until?: (s: SweepRow) => boolean,
    settings?: Partial<typeof SETTINGS>,
  ): Promise<{ popup: Page; sweep: SweepRecord }>;
  /**
   * Every place of the truth outside saturated cells is in the CSV, nothing else is, once each,
   * all of this provider. Returns the CSV (for the file's own checks) and the truth's size.
   */
  /** `hoursMissing`: exported places the world gives hours that came out without any. */
  expectCsvIsTruth(
    popup: Page,
    sweepId: string,
    areaText: string,
  ): Promise<{ text: string; rows: Record<string, string>[]; truth: number; hoursMissing: number }>;
  /** After a block pause: lift the block, the switches back to the defaults, press Resume; the sweep finishes with new places. */
  resumeAfterBlock(popup: Page, sweepId: string): Promise<void>;
  /** SIGKILL the shared browser and launch it again on its profile, with a map tab open; its popup. */
  killShared(): Promise<Page>;
  /**
   * In a browser of its own: start a sweep of `input`, SIGKILL the browser once `progress` has
   * grown by `atLeast` ('what' names that), relaunch it on the same profile, see the sweep
   * paused by the restart, press Resume and wait for it to finish; then `check` it.
   */
  killAndResume(
    input: SweepStart,
    progress: { count: () => number; atLeast: number; what: string },
    check: (popup: Page, done: SweepRecord) => Promise<void>,
  ): Promise<void>;
}

export function providerSuite<R extends ProviderReplica<S>, S>(o: {
  provider: 'naver' | 'kakao';
  start: () => Promise<R>;
  defaultSwitches: () => S;
  chromiumArgs: (port: number) => string[];
  tabUrl: (query: string) => string;
  truthOf: (replica: R, areaText: string) => Truth;
}): ProviderSuite<R, S> {
  let replica: R;
  let shared: RunningBrowser;
  const launch = (profileDir: string) => launchBrowser({ profileDir, resolverArgs: o.chromiumArgs(replica.port) });

  async function openTab(b: RunningBrowser, query = KEYWORD): Promise<Page> {
    const page = await b.context.newPage();
    // After a restart a resumed pass may take this map tab as its worker tab at once (single-tab
    // mode works in the person's map tab) and navigate it while it loads: that is not a failure.
    await page.goto(o.tabUrl(query)).catch((e: Error) => {
      if (!/ERR_ABORTED/.test(e.message)) throw e;
    });
    return page;
  }

  function resetSwitches(partial: Partial<S> = {}): void {
    replica.setSwitches({ ...o.defaultSwitches(), ...partial });
  }

  beforeAll(async () => {
    replica = await o.start();
    shared = await launch(newProfileDir());
    await openTab(shared);
  });

  afterAll(async () => {
    await shared?.close();
    if (shared) removeProfileDir(shared.profileDir);
    await replica?.close();
  });

  return {
    get replica() {
      return replica;
    },
    get shared() {
      return shared;
    },
    resetSwitches,
    openTab,
    async browsingListings(popup) {
      return (await readListings(popup)).filter((l) => l.collections.includes('browsing') && l.key.startsWith(`${o.provider}:`));
    },
    async sweepToEnd(input, what, until = (s) => s.status !== 'running', settings = {}) {
      const probe = await openPopup(shared.context);
      const before = new Set((await readSweeps(probe)).map((s) => s.id));
      await probe.close();
      const popup = await startSweepFromPopup(shared.context, input, { ...SETTINGS, ...settings });
      const sweep = await waitForSweep(popup, (s) => !before.has(s.id) && until(s), what, 600_000);
      return { popup, sweep };
    },
    async expectCsvIsTruth(popup, sweepId, areaText) {
      const truth = o.truthOf(replica, areaText);
      const csv = await exportCsvFromPopup(popup);
      const ids = csv.rows.map((r) => r.provider_id!);
      expect(new Set(ids).size).toBe(ids.length);
      expect(csv.rows.every((r) => r.provider === o.provider)).toBe(true);
      expect(ids.filter((id) => !truth.has(id))).toEqual([]);
      const saturated = (await readCells(popup)).filter((c) => c.id.startsWith(`${sweepId}/`) && c.status === 'saturated');
      const inSaturated = (p: { lat: number; lng: number }) =>
        saturated.some(({ bbox: c }) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east);
      const got = new Set(ids);
      expect([...truth].filter(([id, p]) => !got.has(id) && !inSaturated(p)).map(([id]) => id)).toEqual([]);
      // The list's hours, read as the week it words: no place's opening_hours other than the world's
      // (a variant whose page carries no hours for some places leaves them empty: counted, returned).
      const wrongHours = csv.rows.filter((r) => {
        const t = truth.get(r.provider_id!);
        return t?.hours !== undefined && (r.opening_hours ?? '') !== '' && r.opening_hours !== weekOf(t.hours);
      });
      expect(wrongHours.map((r) => `${r.provider_id}: ${r.hours} → ${r.opening_hours}`)).toEqual([]);
      const hoursMissing = csv.rows.filter((r) => {
        const t = truth.get(r.provider_id!);
        return !!t?.hours && (r.opening_hours ?? '') === '';
      }).length;
      return { text: csv.text, rows: csv.rows, truth: truth.size, hoursMissing };
    },
    async resumeAfterBlock(popup, sweepId) {
      replica.unblock();
      resetSwitches();
      await resumeFromPopup(popup);
      const done = await waitForSweep(popup, (s) => s.id === sweepId && s.status === 'finished', 'the sweep to finish after Resume', 300_000);
      expect(done.counters.listingsNew).toBeGreaterThan(0);
    },
    async killShared() {
      await shared.kill();
      shared = await launch(shared.profileDir);
      await openTab(shared);
      return openPopup(shared.context);
    },
    async killAndResume(input, progress, check) {
      const profileDir = newProfileDir();
      let b = await launch(profileDir);
      try {
        await openTab(b);
        await startSweepFromPopup(b.context, input, SETTINGS);
        const before = progress.count();
        await waitFor(async () => progress.count() >= before + progress.atLeast, progress.what, 120_000, 50);
        await b.kill();
        b = await launch(profileDir);
        await openTab(b);
        const popup = await openPopup(b.context);
        const paused = await waitForSweep(popup, (s) => s.status === 'paused', 'the sweep to show as paused', 30_000);
        expect(paused.pauseReason).toBe('restart');
        await resumeFromPopup(popup);
        const done = await waitForSweep(popup, (s) => s.status === 'finished', 'the resumed sweep', 600_000);
        await check(popup, done);
      } finally {
        await b.close();
        removeProfileDir(profileDir);
      }
    },
  };
}
