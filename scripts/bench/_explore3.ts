import { createPresetWorld } from '../../tests/replica/world';
import { groundTruth } from '../../tests/replica/search';
import { parseAreaText, DEFAULT_VIEWPORT, fitZoom } from '../../utils/geo';
import { planInitialCells, quadrants } from '../../utils/grid';
import type { PlannedCell } from '../../utils/grid';
import { runSweepLoop, type LoopPolicy } from './sweep-loop';
const KM_LAT = 110.574;
function box(c: { lat: number; lng: number }, km: number): string {
  const dLat = km / KM_LAT; const dLng = km / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
}
const kw = process.argv[2] ?? 'cafe';
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
function policy(startZoom: number, mode: 'mid' | 'median'): LoopPolicy {
  return {
    name: `${mode}@${startZoom}`,
    initialCells: (area, opts) => planInitialCells(area, { ...opts, startZoom }),
    split: ({ cell, opts, organic }) => {
      const b = cell.bbox;
      let at = { lat: (b.south + b.north) / 2, lng: (b.west + b.east) / 2 };
      if (mode === 'median') {
        const pts = organic.filter((l) => l.lat! > b.south && l.lat! < b.north && l.lng! > b.west && l.lng! < b.east);
        if (pts.length >= 8) {
          const clamp = (v: number, lo: number, hi: number) => Math.min(hi - (hi - lo) * 0.2, Math.max(lo + (hi - lo) * 0.2, v));
          at = { lat: clamp(median(pts.map((p) => p.lat!)), b.south, b.north), lng: clamp(median(pts.map((p) => p.lng!)), b.west, b.east) };
        }
      }
      const children: PlannedCell[] = quadrants(b, at).map((bbox, i) => ({ path: `${cell.path}.${i}`, bbox, depth: cell.depth + 1, outside: false }));
      return { children, reason: mode };
    },
  };
}
const worlds = [['denseCentre', 3, {}], ['mixedMetro', 15, {}], ['sparseRegion', 40, { places: 20000 }]] as const;
const data = worlds.map(([name, r, over]) => {
  const world = createPresetWorld(name, 7, over);
  const a = parseAreaText(box(world.centre, r)); if (!a.ok) throw 0;
  return { name, world, area: a.area, truth: groundTruth(world, kw, a.area) };
});
for (const maxZoom of [19, 20]) for (const sz of [10, 11, 12, 13, 14]) for (const mode of ['mid', 'median'] as const) {
  const row: string[] = [];
  for (const d of data) {
    const res = await runSweepLoop({ world: d.world, area: d.area, keyword: kw, viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: policy(sz, mode), planner: { maxZoom } });
    const hit = d.truth.filter((p) => res.found.has(`google:${p.cid}`)).length;
    row.push(`${d.name}: ${(res.searches / Math.ceil(d.truth.length / 120)).toFixed(2)}xLB ${res.searches} rec ${(hit / d.truth.length).toFixed(4)} sat ${res.saturated}`);
  }
  console.log(`z${maxZoom} start${sz} ${mode} | ${row.join(' | ')}`);
}
