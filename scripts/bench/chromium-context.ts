/**
 * What the Chromium figures share: one replica world, the areas swept on it, the settings, and
 * small statistics over a handful of samples.
 */
import type { BrowserContext } from 'playwright-core';
import { TEST_SETTINGS } from '../../tests/browser/extension';
import { launchBrowser, newProfileDir, removeProfileDir, type RunningBrowser } from '../../tests/browser/harness';
import { chromiumArgs, startReplica, type Replica } from '../../tests/replica/server';
import { createWorld } from '../../tests/replica/world';

export const CENTRE = { lat: 37.5665, lng: 126.978 };

/** The world and replica switches of the browser tests (tests/browser/sweep.test.ts). */
export function startBenchReplica(): Promise<Replica> {
  const world = createWorld({ seed: 7, places: 60_000, centre: CENTRE, radiusKm: 8 });
  return startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
}

/** "south,west,north,east" of a box 2d degrees of latitude high around a point. */
export function areaAround(d: number, lat: number, lng: number): string {
  return `${(lat - d).toFixed(5)},${(lng - d * 1.26).toFixed(5)},${(lat + d).toFixed(5)},${(lng + d * 1.26).toFixed(5)}`;
}

/** The tests' settings without pacing: what the extension itself costs, not its politeness. */
export const UNPACED_SETTINGS = { ...TEST_SETTINGS, delayMs: 0, jitterMs: 0 };

/** The Google Maps tab a person has open (a sweep drives it; resume needs one). */
export const MAP_TAB_URL = `https://www.google.com/maps/search/cafe/@${CENTRE.lat},${CENTRE.lng},14z`;

export interface BenchContext {
  replica: Replica;
  log(line: string): void;
}

/** A browser with the extension on `profileDir` (a new profile when omitted). */
export function extensionBrowser(ctx: BenchContext, profileDir = newProfileDir()): Promise<RunningBrowser> {
  return launchBrowser({ profileDir, resolverArgs: chromiumArgs(ctx.replica.port) });
}

export async function openMapTab(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto(MAP_TAB_URL);
  return page;
}

/** Close the browser and delete its profile; never throws, so a figure is not lost to clean-up. */
export async function dispose(b: RunningBrowser | null | undefined): Promise<void> {
  if (!b) return;
  await b.close();
  await removeProfile(b.profileDir);
}

/** Chromium's helper processes can write into the profile for a moment after the browser exits. */
export async function removeProfile(dir: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      removeProfileDir(dir);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  console.error(`bench: could not remove ${dir}`);
}

/** The first page navigation the replica saw after request number `from`, polled. */
export async function nextPageLoad(replica: Replica, from: number, timeoutMs: number): Promise<{ at: number; path: string }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = replica.requests.slice(from).find((r) => r.kind === 'page');
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no page load within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// The Chromium sections take their numbers with the rest of what they share from here.
export { median, round, spread } from './stats';
