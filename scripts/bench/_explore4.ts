import { createPresetWorld } from '../../tests/replica/world';
import { groundTruth, queryMatcher } from '../../tests/replica/search';
import { parseAreaText, DEFAULT_VIEWPORT, cellSearchView, visibleBBox } from '../../utils/geo';
import { runSweepLoop, DRIVER_POLICY } from './sweep-loop';
const KM_LAT = 110.574;
function box(c: { lat: number; lng: number }, km: number): string {
  const dLat = km / KM_LAT; const dLng = km / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
}
const kw = 'cafe';
for (const [name, r, over] of [['denseCentre', 3, {}], ['mixedMetro', 15, {}], ['sparseRegion', 40, { places: 20000 }]] as const) {
  const world = createPresetWorld(name, 7, over);
  const a = parseAreaText(box(world.centre, r)); if (!a.ok) throw 0;
  const m = queryMatcher(kw);
  const res = await runSweepLoop({ world, area: a.area, keyword: kw, viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: { ...DRIVER_POLICY, initialCells: (ar, o) => DRIVER_POLICY.initialCells(ar, { ...o, startZoom: 12 }) }, planner: { maxZoom: 20 } });
  const hist: Record<string, number> = {};
  let leaves = 0, leafSum = 0; const buckets = [0, 0, 0, 0, 0, 0, 0];
  for (const c of res.cells) {
    hist[c.decision.reason] = (hist[c.decision.reason] ?? 0) + 1;
    if (c.decision.verdict === 'done') {
      const n = world.placesIn(c.cell.bbox).filter((p) => m.matches(p)).length;
      leaves++; leafSum += n; buckets[Math.min(6, Math.floor(n / 20))]!++;
    }
  }
  console.log(name, res.searches, hist, 'leaves', leaves, 'avg in cell', (leafSum / leaves).toFixed(1), 'by 20s', buckets.join(','));
}
