import { createPresetWorld } from '../../tests/replica/world';
import { groundTruth } from '../../tests/replica/search';
import { parseAreaText, DEFAULT_VIEWPORT, cellSearchView, visibleBBox } from '../../utils/geo';
import { planInitialCells, splitCell, minCellReached } from '../../utils/grid';
import type { PlannedCell } from '../../utils/grid';
import { runSweepLoop, type LoopPolicy } from './sweep-loop';
const KM_LAT = 110.574;
function box(c: { lat: number; lng: number }, km: number): string {
  const dLat = km / KM_LAT; const dLng = km / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
}
function pol(start: number, T: number): LoopPolicy {
  return {
    name: 'pre',
    initialCells: (area, opts) => planInitialCells(area, { ...opts, startZoom: start }),
    split: ({ cell, area, opts, organic }) => {
      const out: PlannedCell[] = [];
      const rec = (c: PlannedCell) => {
        for (const ch of splitCell(c, area, opts)) {
          const v = visibleBBox(cellSearchView(ch.bbox, opts.viewport, 21), opts.viewport);
          const kc = organic.filter((l) => l.lat! >= v.south && l.lat! <= v.north && l.lng! >= v.west && l.lng! <= v.east).length;
          if (kc >= T && !minCellReached(ch.bbox, opts)) rec(ch); else out.push(ch);
        }
      };
      rec(cell);
      return { children: out, reason: 'pre' };
    },
  };
}
const kw = process.argv[2] ?? 'cafe';
const res: Record<string, number[]> = {};
for (const seed of [1, 2, 3, 4, 5]) {
  for (const [name, r, over] of [['denseCentre', 3, {}], ['mixedMetro', 15, {}], ['sparseRegion', 40, { places: 20000 }]] as const) {
    const world = createPresetWorld(name, seed, over);
    const a = parseAreaText(box(world.centre, r)); if (!a.ok) throw 0;
    const truth = groundTruth(world, kw, a.area);
    for (const start of [12, 13, 14]) for (const T of [80, 999]) {
      const out = await runSweepLoop({ world, area: a.area, keyword: kw, viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: pol(start, T), planner: { maxZoom: 19 } });
      const k = `${name} s${start} T${T}`;
      (res[k] ??= []).push(out.searches / Math.ceil(truth.length / 120));
    }
  }
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(28), v.map((x) => x.toFixed(2)).join(' '), 'mean', (v.reduce((s, x) => s + x, 0) / v.length).toFixed(2));
