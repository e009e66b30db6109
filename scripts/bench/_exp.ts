import { createPresetWorld } from '../../tests/replica/world';
import { groundTruth } from '../../tests/replica/search';
import { parseAreaText, DEFAULT_VIEWPORT, cellSearchView, visibleBBox, haversineMetres, lngToWorldX, latToWorldY, worldYToLat, fitZoom } from '../../utils/geo';
import { planInitialCells } from '../../utils/grid';
import type { PlannedCell } from '../../utils/grid';
import type { BBox } from '../../utils/geo/types';
import { runSweepLoop, type LoopPolicy } from './sweep-loop';
const KM_LAT = 110.574;
function box(c: { lat: number; lng: number }, km: number): string {
  const dLat = km / KM_LAT; const dLng = km / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
}
const kw = process.argv[2] ?? 'cafe';
const quant = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * q))]!; };
export interface P { start: number | 'one'; target: number; exp: number; blend: number; kmax: number; ref: number }
export function policy(p: P): LoopPolicy {
  return {
    name: JSON.stringify(p),
    initialCells: (area, opts) => planInitialCells(area, { ...opts, startZoom: p.start === 'one' ? Math.floor(fitZoom(area.bbox, opts.viewport) * 100) / 100 : p.start }),
    split: ({ cell, opts, organic }) => {
      const b = cell.bbox;
      const view = cellSearchView(b, opts.viewport, 21);
      const R = Math.max(...[[b.north, b.west], [b.north, b.east], [b.south, b.west], [b.south, b.east]].map(([lat, lng]) => haversineMetres(view, { lat: lat!, lng: lng! })));
      const ds = organic.map((l) => haversineMetres(view, { lat: l.lat!, lng: l.lng! }) / R);
      const d90 = quant(ds, 0.9);
      const nHat = 120 * Math.max(1, (p.ref / d90) ** p.exp);
      let n = Math.max(2, Math.ceil(nHat / p.target));
      // shape: rows x cols with cell aspect in px
      const wpx = lngToWorldX(b.east, 0) - lngToWorldX(b.west, 0);
      const hpx = latToWorldY(b.south, 0) - latToWorldY(b.north, 0);
      const aspect = (wpx / 872) / (hpx / 800); // >1 wide
      let best: [number, number] = [2, 2]; let bestScore = Infinity;
      for (let r = 1; r <= p.kmax; r++) for (let c = 1; c <= p.kmax; c++) {
        if (r * c < Math.max(n, 2) || r * c > Math.max(n, 2) * 1.5 + 1) continue;
        const childAspect = (aspect / c) * r;
        const score = Math.abs(Math.log(childAspect)) + 0.3 * Math.log((r * c) / n);
        if (score < bestScore) { bestScore = score; best = [r, c]; }
      }
      if (bestScore === Infinity) best = [p.kmax, p.kmax];
      // don't exceed max zoom
      const [rows, cols] = best;
      const inside = organic.filter((l) => l.lat! > b.south && l.lat! < b.north && l.lng! > b.west && l.lng! < b.east);
      const edges = (lo: number, hi: number, k: number, vals: number[]) => {
        const out = [lo];
        for (let i = 1; i < k; i++) {
          const u = lo + ((hi - lo) * i) / k;
          const q = vals.length >= 10 ? quant(vals, i / k) : u;
          let v = p.blend * q + (1 - p.blend) * u;
          const minW = (hi - lo) / k * 0.3;
          v = Math.max(out[out.length - 1]! + minW, Math.min(hi - minW * (k - i), v));
          out.push(v);
        }
        out.push(hi);
        return out;
      };
      const latE = edges(b.south, b.north, rows, inside.map((l) => l.lat!)).reverse(); // north first
      const lngE = edges(b.west, b.east, cols, inside.map((l) => l.lng!));
      const children: PlannedCell[] = [];
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
        const bb: BBox = { north: latE[r]!, south: latE[r + 1]!, west: lngE[c]!, east: lngE[c + 1]! };
        children.push({ path: `${cell.path}.${r * cols + c}`, bbox: bb, depth: cell.depth + 1, outside: false });
      }
      return { children, reason: `${rows}x${cols} nHat=${Math.round(nHat)}` };
    },
  };
}
const worlds = [['denseCentre', 3, {}], ['mixedMetro', 15, {}], ['sparseRegion', 40, { places: 20000 }]] as const;
export const data = worlds.map(([name, r, over]) => {
  const world = createPresetWorld(name, 7, over);
  const a = parseAreaText(box(world.centre, r)); if (!a.ok) throw 0;
  return { name, world, area: a.area, truth: groundTruth(world, kw, a.area) };
});
export async function evalP(p: P, maxZoom = 20) {
  const row: string[] = []; let worst = 0;
  for (const d of data) {
    const res = await runSweepLoop({ world: d.world, area: d.area, keyword: kw, viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: policy(p), planner: { maxZoom } });
    const hit = d.truth.filter((pl) => res.found.has(`google:${pl.cid}`)).length;
    const x = res.searches / Math.ceil(d.truth.length / 120); worst = Math.max(worst, x);
    const reasons: Record<string, number> = {}; for (const c of res.cells) reasons[c.decision.reason] = (reasons[c.decision.reason] ?? 0) + 1;
    row.push(`${d.name.slice(0, 6)} ${x.toFixed(2)}x ${res.searches} ${(hit / d.truth.length).toFixed(4)} ${JSON.stringify(reasons)}`);
  }
  console.log(`${JSON.stringify(p)} worst ${worst.toFixed(2)}\n   ${row.join('\n   ')}`);
}
if (process.argv[3] === 'run') {
  for (const start of ['one', 12] as const) for (const target of [60, 90]) for (const exp of [0, 2, 3]) for (const blend of [0, 0.5])
    await evalP({ start, target, exp, blend, kmax: 4, ref: 0.8 });
}
if (process.argv[3] === 'one') await evalP(JSON.parse(process.argv[4]!));
