import { describe, expect, it } from 'vitest';
import { boxCovers, initialCalibration, searchedBoxOf, type GeometryCalibration } from '../../utils/coverage/geometry';
import { learnFromSearch } from '../../utils/coverage/calibration';
import { cellSearchView } from '../../utils/geo/mercator';
import { planningViewport } from '../../utils/coverage/geometry';
import type { BBox, MapView } from '../../utils/geo/types';
import { SEARCH_GEOMETRIES, searchedBox, type Canvas } from '../replica/geometry';
import { seededRandom as mulberry32 } from '../helpers/random';

/** The replica's rules are the independent truth here: the extension's code must not know which one is on. */
const CANVASES: Canvas[] = [
  { width: 1280, height: 800, panelWidth: 408 },
  { width: 1111, height: 700, panelWidth: 408 }, // a 1000 × 630 window at 90% browser zoom
  { width: 1000, height: 700, panelWidth: 360 },
  { width: 1600, height: 900, panelWidth: 460 },
];
const VIEW: MapView = { lat: 37.5665, lng: 126.978, zoom: 15 };

function width(b: BBox) {
  return b.east - b.west;
}

function randomIn(b: BBox, random: () => number) {
  return { lat: b.south + random() * (b.north - b.south), lng: b.west + random() * (b.east - b.west) };
}

describe('safe searched box', () => {
  it('before any evidence, lies inside what every rule searches, for every canvas', () => {
    for (const canvas of CANVASES) {
      const cal = initialCalibration({ width: canvas.width, height: canvas.height, panelRight: canvas.panelWidth }, 0);
      const safe = searchedBoxOf(VIEW, cal);
      for (const g of SEARCH_GEOMETRIES) expect(boxCovers(searchedBox(VIEW, canvas, g), safe), `${g} ${canvas.width}`).toBe(true);
    }
  });

  it('without a measured panel edge, still lies inside every rule for panels up to 448 px', () => {
    const canvas: Canvas = { width: 1280, height: 800, panelWidth: 448 };
    const safe = searchedBoxOf(VIEW, initialCalibration({ width: 1280, height: 800, panelRight: null }, 0));
    for (const g of SEARCH_GEOMETRIES) expect(boxCovers(searchedBox(VIEW, canvas, g), safe)).toBe(true);
  });

  it('a cell planned with the planning viewport is covered by the safe box of its own view', () => {
    const cal = initialCalibration({ width: 1280, height: 800, panelRight: 408 }, 0);
    const cell: BBox = { south: 37.55, west: 126.96, north: 37.56, east: 126.975 };
    const view = cellSearchView(cell, planningViewport(cal), 21);
    expect(boxCovers(searchedBoxOf(view, cal), cell)).toBe(true);
  });
});

describe('calibration from listed places', () => {
  for (const geometry of SEARCH_GEOMETRIES) {
    for (const canvas of CANVASES) {
      it(`converges inside the truth (${geometry}, ${canvas.width}×${canvas.height}, panel ${canvas.panelWidth})`, () => {
        const random = mulberry32(canvas.width + geometry.length);
        let cal: GeometryCalibration | null = null;
        const measured = { width: canvas.width, height: canvas.height, panelRight: canvas.panelWidth };
        const start = width(searchedBoxOf(VIEW, initialCalibration(measured, 0)));
        for (let i = 0; i < 40; i++) {
          const view: MapView = { lat: VIEW.lat + (random() - 0.5) * 0.1, lng: VIEW.lng + (random() - 0.5) * 0.1, zoom: 14 + Math.round(random() * 40) / 10 };
          const truth = searchedBox(view, canvas, geometry);
          const places = Array.from({ length: 10 + Math.floor(random() * 100) }, () => randomIn(truth, random));
          cal = learnFromSearch(cal, { view, canvas: measured, places, complete: places.length < 120 }, i);
          // Never claims more than the site searched…
          expect(boxCovers(truth, searchedBoxOf(view, cal))).toBe(true);
        }
        // … and ends close to it: ≥ 90% of the true width (the margin and sparse edges take the rest).
        const truthW = width(searchedBox(VIEW, canvas, geometry));
        const learnt = width(searchedBoxOf(VIEW, cal!));
        expect(learnt / truthW).toBeGreaterThan(0.9);
        expect(learnt).toBeGreaterThanOrEqual(start);
      });
    }
  }

  it('a site that searches less than every rule is caught by the results never reaching an edge', () => {
    // The site lists only the middle 60% of the canvas width: narrower than any candidate.
    const canvas = { width: 1280, height: 800, panelRight: 408 };
    const random = mulberry32(5);
    let cal: GeometryCalibration | null = null;
    for (let i = 0; i < 12; i++) {
      const view: MapView = { ...VIEW, lat: VIEW.lat + i * 0.01 };
      const full = searchedBox(view, { width: 1280, height: 800, panelWidth: 0 }, 'canvas');
      const mid = (full.west + full.east) / 2;
      const half = width(full) * 0.3;
      const truth: BBox = { ...full, west: mid - half, east: mid + half };
      const places = Array.from({ length: 60 }, () => randomIn(truth, random));
      cal = learnFromSearch(cal, { view, canvas, places, complete: true }, i);
    }
    const truth = (() => {
      const full = searchedBox(VIEW, { width: 1280, height: 800, panelWidth: 0 }, 'canvas');
      const mid = (full.west + full.east) / 2;
      return { ...full, west: mid - width(full) * 0.3, east: mid + width(full) * 0.3 };
    })();
    const safe = searchedBoxOf(VIEW, cal!);
    expect(width(safe)).toBeLessThan(width(truth) * 1.1);
  });

  it('a result outside the whole canvas sends the calibration back to its starting bounds', () => {
    const canvas = { width: 1280, height: 800, panelRight: 408 };
    const start = initialCalibration(canvas, 0);
    const truth = searchedBox(VIEW, { width: 1280, height: 800, panelWidth: 408 }, 'canvas');
    let cal = learnFromSearch(
      null,
      { view: VIEW, canvas, places: [randomIn(truth, mulberry32(1)), { lat: truth.south, lng: truth.west + 1e-6 }], complete: true },
      1,
    );
    expect(cal.panelBoundRight).toBeLessThan(start.panelBoundRight);
    cal = learnFromSearch(cal, { view: VIEW, canvas, places: [{ lat: VIEW.lat, lng: truth.east + (truth.east - truth.west) }], complete: true }, 2);
    expect(cal.unexplained).toBe(1);
    expect(cal.panelBoundRight).toBe(start.panelBoundRight);
    expect(searchedBoxOf(VIEW, cal)).toEqual(searchedBoxOf(VIEW, start));
  });

  it('another window size is not evidence', () => {
    const cal = initialCalibration({ width: 1280, height: 800, panelRight: 408 }, 0);
    const next = learnFromSearch(cal, { view: VIEW, canvas: { width: 1000, height: 700, panelRight: 408 }, places: [VIEW], complete: true }, 1);
    expect(next).toBe(cal);
  });
});
