/**
 * The Google browser suite as sweep.test.ts and sweep-faults.test.ts both run it: one world, the
 * areas they sweep, a replica of www.google.com started before the file's tests, a browser of its
 * own for each test (closed after it, with the replica's fault switches back to none), a Google
 * Maps tab to start from, and the ground truth from the replica (never from the extension).
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { createWorld } from '../replica/world';
import { launchBrowser, newProfileDir, removeProfileDir, type RunningBrowser } from './harness';

export const CENTRE = { lat: 37.5665, lng: 126.978 };
export const world = createWorld({ seed: 7, places: 60_000, centre: CENTRE, radiusKm: 8 });

function areaAround(d: number, lat = CENTRE.lat, lng = CENTRE.lng): string {
  return `${(lat - d).toFixed(5)},${(lng - d * 1.26).toFixed(5)},${(lat + d).toFixed(5)},${(lng + d * 1.26).toFixed(5)}`;
}

/**
 * A district with >1,200 cafes, ten times the list's cap: crowded cells split and their children
 * split again (28 searches). The 0.015 district before it (3,537 cafes, 100 searches, one level
 * deeper) took half of this file's time and proved nothing more: every level splits by one rule.
 */
export const DISTRICT = areaAround(0.008);
/** A small area for the crash and fault runs. */
export const SMALL = areaAround(0.006, 37.53, 127.02);

export interface GoogleSuite {
  readonly replica: Replica;
  /** A browser with the production build, closed after the test (a profile of its own, or `profileDir` to reopen one). */
  browser(profileDir?: string): Promise<RunningBrowser>;
  /** A Google Maps tab, as the user has open when pressing Start. */
  openMapTab(b: RunningBrowser): Promise<void>;
  /** The cids of every place of `query` in the area, from the replica. */
  truthKeys(query: string, areaText: string): Set<string>;
}

export function googleSweepSuite(): GoogleSuite {
  let replica: Replica;
  const browsers: RunningBrowser[] = [];

  beforeAll(async () => {
    replica = await startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
  });

  afterEach(async () => {
    while (browsers.length) {
      const b = browsers.pop()!;
      await b.close();
      removeProfileDir(b.profileDir);
    }
    replica.setSwitches({ captchaAfter: null, error500Rate: 0, slowMs: 0, hangPaths: [], consent: false });
  });

  afterAll(async () => {
    await replica?.close();
  });

  return {
    get replica() {
      return replica;
    },
    async browser(profileDir = newProfileDir()) {
      const b = await launchBrowser({ profileDir, resolverArgs: chromiumArgs(replica.port) });
      browsers.push(b);
      return b;
    },
    async openMapTab(b) {
      const page = await b.context.newPage();
      await page.goto(`https://www.google.com/maps/search/cafe/@${CENTRE.lat},${CENTRE.lng},14z`);
    },
    truthKeys(query, areaText) {
      const area = parseAreaText(areaText);
      if (!area.ok) throw new Error(area.error.message);
      return new Set(replica.groundTruth(query, area.area).map((p) => p.cid));
    },
  };
}
