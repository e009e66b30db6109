import { DEFAULT_VIEWPORT, cellSearchView, visibleBBox, fitZoom } from '../../utils/geo';
import type { BBox } from '../../utils/geo/types';
import { queryMatcher } from '../../tests/replica/search';
import { data } from './_exp';
const m = queryMatcher('cafe');
for (const d of data) {
  const pts = d.world.places.filter((p) => m.matches(p));
  const count = (b: BBox) => { let n = 0; for (const p of d.world.placesIn(b)) if (m.matches(p)) n++; return n; };
  const memo = new Map<string, number>();
  const f = (b: BBox, ks: number[]): number => {
    const vis = visibleBBox(cellSearchView(b, DEFAULT_VIEWPORT, 21), DEFAULT_VIEWPORT);
    if (count(vis) < 120) return 1;
    if (fitZoom(b, DEFAULT_VIEWPORT) > 20) return 1;
    let best = Infinity;
    for (const k of ks) {
      let s = 0;
      for (let r = 0; r < k; r++) for (let c = 0; c < k; c++) {
        s += f({ south: b.south + (b.north - b.south) * r / k, north: b.south + (b.north - b.south) * (r + 1) / k, west: b.west + (b.east - b.west) * c / k, east: b.west + (b.east - b.west) * (c + 1) / k }, ks);
        if (s >= best) break;
      }
      best = Math.min(best, s);
    }
    return best;
  };
  // root: area bbox but with viewport aspect: expand? use area bbox directly
  const lb = Math.ceil(d.truth.length / 120);
  const q2 = f(d.area.bbox, [2]);
  const q23 = f(d.area.bbox, [2, 3]);
  console.log(d.name, 'LB', lb, 'quad leaves', q2, (q2 / lb).toFixed(2), 'k∈{2,3} leaves', q23, (q23 / lb).toFixed(2));
}
