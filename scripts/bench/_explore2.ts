import { createPresetWorld } from '../../tests/replica/world';
import { groundTruth } from '../../tests/replica/search';
import { parseAreaText, DEFAULT_VIEWPORT } from '../../utils/geo';
import { runSweepLoop, DRIVER_POLICY } from './sweep-loop';
const KM_LAT = 110.574;
function box(c: { lat: number; lng: number }, km: number): string {
  const dLat = km / KM_LAT; const dLng = km / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
}
const kw = process.argv[2] ?? 'cafe';
for (const [name, r, over] of [['denseCentre', 3, {}], ['mixedMetro', 15, {}], ['sparseRegion', 40, { places: 20000 }]] as const) {
  const t0 = performance.now();
  const world = createPresetWorld(name, 7, over);
  const a = parseAreaText(box(world.centre, r)); if (!a.ok) throw 0;
  const truth = groundTruth(world, kw, a.area);
  const res = await runSweepLoop({ world, area: a.area, keyword: kw, viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: DRIVER_POLICY });
  const hit = truth.filter((p) => res.found.has(`google:${p.cid}`)).length;
  console.log(name, truth.length, Math.ceil(truth.length / 120), res.searches, hit, (hit / truth.length).toFixed(4), res.saturated, Math.round(performance.now() - t0), 'ms');
}
