import { DEFAULT_VIEWPORT, cellSearchView, visibleBBox, fitZoom, haversineMetres } from '../../utils/geo';
import { planInitialCells, splitCell } from '../../utils/grid';
import { runSweepLoop, type LoopPolicy } from './sweep-loop';
import { data } from './_exp';
const quant = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * q))]!; };
const rows: { kc: number; d90: number; capped: boolean; name: string }[] = [];
for (const d of data) {
  const info = new Map<string, { kc: number; d90: number }>();
  const pol: LoopPolicy = {
    name: 'q',
    initialCells: (area, opts) => planInitialCells(area, { ...opts, startZoom: Math.floor(fitZoom(area.bbox, opts.viewport) * 100) / 100 }),
    split: ({ cell, area, opts, organic }) => {
      const children = splitCell(cell, area, opts);
      const view = cellSearchView(cell.bbox, opts.viewport, 21);
      const b = visibleBBox(view, opts.viewport);
      const R = Math.max(...[[b.north, b.west], [b.north, b.east], [b.south, b.west], [b.south, b.east]].map(([lat, lng]) => haversineMetres(view, { lat: lat!, lng: lng! })));
      const d90 = quant(organic.map((l) => haversineMetres(view, { lat: l.lat!, lng: l.lng! }) / R), 0.9);
      for (const c of children) {
        const v = visibleBBox(cellSearchView(c.bbox, opts.viewport, 21), opts.viewport);
        const kc = organic.filter((l) => l.lat! >= v.south && l.lat! <= v.north && l.lng! >= v.west && l.lng! <= v.east).length;
        info.set(c.path, { kc, d90 });
      }
      return { children, reason: 'mid' };
    },
  };
  const res = await runSweepLoop({ world: d.world, area: d.area, keyword: 'cafe', viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: pol, planner: { maxZoom: 20 } });
  for (const c of res.cells) { const i = info.get(c.cell.path); if (i) rows.push({ ...i, capped: c.decision.verdict !== 'done', name: d.name }); }
}
// table: bins of kc x d90
for (const [lo, hi] of [[0, 10], [10, 20], [20, 30], [30, 40], [40, 50], [50, 60], [60, 80], [80, 121]]) {
  const line: string[] = [];
  for (const [dlo, dhi] of [[0, 0.4], [0.4, 0.5], [0.5, 0.6], [0.6, 0.7], [0.7, 0.8], [0.8, 2]]) {
    const sel = rows.filter((r) => r.kc >= lo! && r.kc < hi! && r.d90 >= dlo! && r.d90 < dhi!);
    line.push(sel.length ? `${sel.filter((r) => r.capped).length}/${sel.length}`.padStart(7) : '      -');
  }
  console.log(`kc ${lo}-${hi}`.padEnd(10), line.join(' '));
}
console.log('cols: d90 <.4 .4-.5 .5-.6 .6-.7 .7-.8 >.8');
