import { DEFAULT_VIEWPORT, lngToWorldX, latToWorldY, fitZoom, cellSearchView, visibleBBox } from '../../utils/geo';
import { planInitialCells } from '../../utils/grid';
import type { PlannedCell } from '../../utils/grid';
import type { BBox } from '../../utils/geo/types';
import { queryMatcher } from '../../tests/replica/search';
import { runSweepLoop, type LoopPolicy } from './sweep-loop';
import { data } from './_exp';
const quant = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * q))]!; };
const m = queryMatcher('cafe');
for (const target of [60, 80, 100]) for (const mode of ['q', 'u']) {
  const out: string[] = [];
  for (const d of data) {
    const pol: LoopPolicy = {
      name: 'oracle',
      initialCells: (area, opts) => planInitialCells(area, { ...opts, startZoom: Math.floor(fitZoom(area.bbox, opts.viewport) * 100) / 100 }),
      split: ({ cell }) => {
        const b = cell.bbox;
        const vis = visibleBBox(cellSearchView(b, DEFAULT_VIEWPORT, 21), DEFAULT_VIEWPORT);
        const inside = d.world.placesIn(b).filter((p) => m.matches(p));
        const n = inside.length;
        const wpx = lngToWorldX(b.east, 0) - lngToWorldX(b.west, 0);
        const hpx = latToWorldY(b.south, 0) - latToWorldY(b.north, 0);
        const aspect = (wpx / 872) / (hpx / 800);
        const k = Math.max(2, Math.ceil(n / target));
        let cols = Math.max(1, Math.round(Math.sqrt(k * aspect))); let rows = Math.max(1, Math.ceil(k / cols));
        if (rows * cols < 2) cols = 2;
        const edges = (lo: number, hi: number, kk: number, vals: number[]) => { const o = [lo]; for (let i = 1; i < kk; i++) o.push(mode === 'q' ? quant(vals, i / kk) : lo + (hi - lo) * i / kk); o.push(hi); return o; };
        const latE = edges(b.south, b.north, rows, inside.map((p) => p.lat)).reverse();
        const lngE = edges(b.west, b.east, cols, inside.map((p) => p.lng));
        const children: PlannedCell[] = [];
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) children.push({ path: `${cell.path}.${r * cols + c}`, bbox: { north: latE[r]!, south: latE[r + 1]!, west: lngE[c]!, east: lngE[c + 1]! }, depth: cell.depth + 1, outside: false });
        return { children, reason: 'oracle' };
      },
    };
    const res = await runSweepLoop({ world: d.world, area: d.area, keyword: 'cafe', viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: pol, planner: { maxZoom: 20 } });
    const hit = d.truth.filter((pl) => res.found.has(`google:${pl.cid}`)).length;
    const reasons: Record<string, number> = {}; for (const c of res.cells) reasons[c.decision.reason] = (reasons[c.decision.reason] ?? 0) + 1;
    out.push(`${d.name.slice(0, 6)} ${(res.searches / Math.ceil(d.truth.length / 120)).toFixed(2)}x rec ${(hit / d.truth.length).toFixed(4)} ${JSON.stringify(reasons)}`);
  }
  console.log(target, mode, out.join(' | '));
}
