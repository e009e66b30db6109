/**
 * Whole sweeps in-process (the real driver, planner, queue and store) against pages with the
 * replica's imperfections (tests/helpers/sim-page-driver.ts options), issue 10 §2 and §3:
 * cards that could not be read, the end text at the cap, the signed-out limited view, and
 * the site zooming out by itself.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../utils/store';
import { searchUrl } from '../../utils/providers/google/urls';
import { createSimPageDriver } from '../helpers/sim-page-driver';
import { simSweep } from '../helpers/sim-sweep';
import { AREA, inAnyCell, parsed, storedKeys, world } from '../helpers/sim-world';
import { groundTruth } from '../replica/search';
import { type PlaceSpec, worldFromSpecs } from '../replica/world';

/** Ground truth not found, outside saturated cells (places there may be missing by design, and are reported). */
async function missing(store: Store, sweepId: string, keyword: string): Promise<{ truth: number; missing: string[] }> {
  const truth = groundTruth(world, keyword, parsed(AREA));
  const got = new Set(await storedKeys(store, sweepId));
  const saturated = await store.listCells(sweepId, 'saturated');
  const excused = (p: { lat: number; lng: number }) => inAnyCell(p, saturated);
  return { truth: truth.length, missing: truth.filter((p) => !got.has(`google:${p.cid}`) && !excused(p)).map((p) => p.name) };
}

describe('sweeps over imperfect pages', () => {
  it('transient unreadable cards (0.3% per card, read on a re-search): retried, and the sweep still finds all of the ground truth', async () => {
    const { store, sweep } = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', sim: { unreadableRate: 0.003 } });
    expect(sweep.problem).toBeNull();
    expect(sweep.status).toBe('finished');
    // The imperfection happened: some pages were refused and their cells searched again.
    const retried = (await store.listCells(sweep.id)).filter((c) => c.lastError?.message.includes('could not be read'));
    expect(retried.length).toBeGreaterThan(0);
    const m = await missing(store, sweep.id, 'cafe');
    expect(m.truth).toBeGreaterThan(300);
    expect(m.missing).toEqual([]);
  });

  it('transient unreadable cards at 2% per card (nearly every crowded page shows some): the sweep finishes with no stop and finds everything', async () => {
    const { store, sweep } = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', sim: { unreadableRate: 0.02 } });
    expect(sweep.problem).toBeNull();
    expect(sweep.status).toBe('finished');
    expect(sweep.counters.cellsSplit).toBeGreaterThan(0);
    expect((await store.listCells(sweep.id, 'quarantined')).length).toBe(0);
    expect((await missing(store, sweep.id, 'cafe')).missing).toEqual([]);
  });

  it('a card unread on every crowded list (the 118th of each) costs nothing: those cells are split, their children read everything', async () => {
    const { store, sweep } = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', sim: { unreadableAlways: (_url, _place, rank) => rank === 117 } });
    expect(sweep.problem).toBeNull();
    expect(sweep.status).toBe('finished');
    expect(sweep.counters.cellsSplit).toBeGreaterThan(0);
    // Split at the first visit: no crowded cell was retried for its unread card.
    expect((await store.listCells(sweep.id)).filter((c) => c.lastError !== null)).toEqual([]);
    expect((await missing(store, sweep.id, 'cafe')).missing).toEqual([]);
  });

  it('an unreadable card that persists on every visit stops the sweep as "page changed" where a list would prove its cell, never finished', async () => {
    // One place's card is a shape the extractor does not know: on every page that shows it.
    const target = groundTruth(world, 'cafe', parsed(AREA))[0]!;
    const { sweep, store } = await simSweep({
      world,
      areaText: AREA,
      keywordsText: 'cafe',
      sim: { unreadableAlways: (_url, place) => place.cid === target.cid },
    });
    expect(sweep.status).toBe('failed');
    expect(sweep.problem).toMatchObject({ kind: 'extractor', message: expect.stringMatching(/could not be read.*previous attempt/) });
    // Crowded lists that showed it were split (their children list the same ground); the cell
    // whose complete list would have proven it was tried twice, never committed.
    const bad = (await store.listCells(sweep.id)).filter((c) => c.lastError?.message.includes('could not be read'));
    expect(bad.map((c) => [c.status, c.attempts])).toEqual([['pending', 1]]);
    const cell = bad[0]!;
    expect(cell.bbox.south <= target.lat && target.lat <= cell.bbox.north && cell.bbox.west <= target.lng && target.lng <= cell.bbox.east).toBe(true);
    expect(await storedKeys(store, sweep.id)).not.toContain(`google:${target.cid}`);
  });

  it('with the end text shown at the cap too, a full list is still crowded: the sweep splits and finds everything', async () => {
    const { store, sweep } = await simSweep({ world, areaText: AREA, keywordsText: 'cafe', sim: { endAtCap: true } });
    expect(sweep.status).toBe('finished');
    expect(sweep.counters.cellsSplit).toBeGreaterThan(0);
    expect((await missing(store, sweep.id, 'cafe')).missing).toEqual([]);
  });

  it('signed out (limited view: ~5 results, end text, no review counts): paused "signed-out" after the first page, 0 cells done, nothing stored', async () => {
    const { store, sweep, loads } = await simSweep({
      world,
      areaText: AREA,
      keywordsText: 'cafe',
      switches: { signedIn: false, sparseZoomOut: false },
    });
    expect([sweep.status, sweep.pauseReason]).toEqual(['paused', 'signed-out']);
    expect(sweep.problem).toMatchObject({ kind: 'limited', message: expect.stringMatching(/Sign in to Google Maps in this browser, then press Resume/) });
    expect(loads).toBe(1);
    expect(sweep.counters.cellsDone + sweep.counters.cellsSplit + sweep.counters.cellsSaturated).toBe(0);
    expect(await storedKeys(store, sweep.id)).toEqual([]);
    // Not the cell's fault: no attempt counted, the cell waits for Resume.
    const cells = await store.listCells(sweep.id);
    expect(cells.every((c) => c.attempts === 0 && (c.status === 'pending' || c.status === 'outside'))).toBe(true);
  });
});

describe('the simulated page itself', () => {
  it('reports the zoomed-out view the site ended on (sparseZoomOut), from the settled URL', async () => {
    const centre = { lat: 37.5665, lng: 126.978 };
    const specs: PlaceSpec[] = [3, 4, 5, 6, 7, 8].map((km) => ({
      name: `Dental ${km}`,
      category: 'dentist',
      prominence: 0.5,
      lat: centre.lat,
      lng: centre.lng + km / 88.2,
    }));
    const page = createSimPageDriver(worldFromSpecs(specs), {
      viewport: { width: 1280, height: 800, panelWidth: 408 },
      switches: { signedIn: true, sparseZoomOut: true },
    });
    await page.load(1, searchUrl('dentist', { ...centre, zoom: 16 }), 1000);
    const obs = await page.collect(1, { cap: 120, stallMs: 1, maxMs: 1, settleMs: 1, scrollPauseMs: 1 }, 1000);
    expect(obs.pageKind).toBe('results');
    expect(obs.finalView!.zoom).toBeLessThan(16);
    expect(obs.url).toContain(`,${obs.finalView!.zoom}z`);
  });

  it('counts unreadable cards as shown, not read', async () => {
    const page = createSimPageDriver(world, {
      viewport: { width: 1280, height: 800, panelWidth: 408 },
      switches: { signedIn: true, sparseZoomOut: false },
      unreadableAlways: (_url, _place, rank) => rank < 2,
    });
    await page.load(1, searchUrl('cafe', { lat: 37.5665, lng: 126.978, zoom: 15 }), 1000);
    const obs = await page.collect(1, { cap: 120, stallMs: 1, maxMs: 1, settleMs: 1, scrollPauseMs: 1 }, 1000);
    expect(obs.cardsVisible - obs.listings.length).toBe(2);
    expect(obs.organicShown).toBe(obs.cardsVisible);
  });
});
