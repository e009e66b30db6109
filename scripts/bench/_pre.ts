import { DEFAULT_VIEWPORT, cellSearchView, visibleBBox, fitZoom, haversineMetres } from '../../utils/geo';
import { planInitialCells, splitCell, minCellReached } from '../../utils/grid';
import type { PlannedCell } from '../../utils/grid';
import { runSweepLoop, type LoopPolicy } from './sweep-loop';
import { data } from './_exp';
const quant = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * q))]!; };
function pol(start: number | 'one', T: number, dT: number): LoopPolicy {
  return {
    name: 'pre',
    initialCells: (area, opts) => planInitialCells(area, { ...opts, startZoom: start === 'one' ? Math.floor(fitZoom(area.bbox, opts.viewport) * 100) / 100 : start }),
    split: ({ cell, area, opts, organic }) => {
      const view = cellSearchView(cell.bbox, opts.viewport, 21);
      const b = visibleBBox(view, opts.viewport);
      const R = Math.max(...[[b.north, b.west], [b.north, b.east], [b.south, b.west], [b.south, b.east]].map(([lat, lng]) => haversineMetres(view, { lat: lat!, lng: lng! })));
      const d90 = quant(organic.map((l) => haversineMetres(view, { lat: l.lat!, lng: l.lng! }) / R), 0.9);
      const out: PlannedCell[] = [];
      const rec = (c: PlannedCell, depth: number) => {
        for (const ch of splitCell(c, area, opts)) {
          const v = visibleBBox(cellSearchView(ch.bbox, opts.viewport, 21), opts.viewport);
          const kc = organic.filter((l) => l.lat! >= v.south && l.lat! <= v.north && l.lng! >= v.west && l.lng! <= v.east).length;
          const crowded = kc >= T || (depth === 0 && d90 < dT && kc >= 20);
          if (crowded && !minCellReached(ch.bbox, opts)) rec(ch, depth + 1); else out.push(ch);
        }
      };
      rec(cell, 0);
      return { children: out, reason: 'pre' };
    },
  };
}
for (const start of [12, 13, 'one'] as const) for (const T of [40, 60, 80, 999]) for (const dT of [0, 0.4, 0.5]) {
  const o: string[] = []; let tot = 0;
  for (const d of data) {
    const res = await runSweepLoop({ world: d.world, area: d.area, keyword: 'cafe', viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: pol(start, T, dT), planner: { maxZoom: 19 } });
    const hit = d.truth.filter((pl) => res.found.has(`google:${pl.cid}`)).length;
    const x = res.searches / Math.ceil(d.truth.length / 120); tot += x;
    o.push(`${d.name.slice(0, 6)} ${x.toFixed(2)}x ${(hit / d.truth.length).toFixed(4)}`);
  }
  console.log(start, T, dT, 'mean', (tot / 3).toFixed(2), o.join(' | '));
}
