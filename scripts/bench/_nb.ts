import { DEFAULT_VIEWPORT, fitZoom } from '../../utils/geo';
import { planInitialCells, splitCell } from '../../utils/grid';
import type { BBox } from '../../utils/geo/types';
import { runSweepLoop, type LoopPolicy } from './sweep-loop';
import { data } from './_exp';
const pol: LoopPolicy = {
  name: 'mid',
  initialCells: (area, opts) => planInitialCells(area, { ...opts, startZoom: 13 }),
  split: ({ cell, area, opts }) => ({ children: splitCell(cell, area, opts), reason: 'mid' }),
};
const touches = (a: BBox, b: BBox) => {
  const eps = 1e-12;
  const vert = (Math.abs(a.east - b.west) < eps || Math.abs(a.west - b.east) < eps) && a.south < b.north && b.south < a.north;
  const hor = (Math.abs(a.north - b.south) < eps || Math.abs(a.south - b.north) < eps) && a.west < b.east && b.west < a.east;
  return vert || hor;
};
const table = new Map<string, [number, number]>();
for (const d of data) {
  const res = await runSweepLoop({ world: d.world, area: d.area, keyword: 'cafe', viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: pol, planner: { maxZoom: 19 } });
  const seen: { b: BBox; depth: number; capped: boolean }[] = [];
  for (const c of res.cells) {
    const capped = c.decision.verdict !== 'done';
    // neighbours: same depth, touching, already processed; plus same-size? use depth
    const nb = seen.filter((s) => s.depth === c.cell.depth && touches(s.b, c.cell.bbox));
    const key = `${nb.filter((s) => s.capped).length}/${nb.length}`;
    const t = table.get(key) ?? [0, 0]; t[0] += capped ? 1 : 0; t[1]++; table.set(key, t);
    seen.push({ b: c.cell.bbox, depth: c.cell.depth, capped });
  }
}
for (const [k, [a, n]] of [...table].sort()) console.log(`capped nb ${k}: child capped ${a}/${n} = ${(a / n).toFixed(2)}`);
