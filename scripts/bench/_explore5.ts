import { createPresetWorld } from '../../tests/replica/world';
import { queryMatcher, viewRadiusMeters } from '../../tests/replica/search';
import { parseAreaText, DEFAULT_VIEWPORT, cellSearchView, visibleBBox, haversineMetres } from '../../utils/geo';
import { runSweepLoop, DRIVER_POLICY, type LoopPolicy } from './sweep-loop';
const KM_LAT = 110.574;
function box(c: { lat: number; lng: number }, km: number): string {
  const dLat = km / KM_LAT; const dLng = km / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
}
const kw = 'cafe';
const rows: string[] = [];
for (const [name, r, over] of [['denseCentre', 3, {}], ['mixedMetro', 15, {}], ['sparseRegion', 40, { places: 20000 }]] as const) {
  const world = createPresetWorld(name, 7, over);
  const a = parseAreaText(box(world.centre, r)); if (!a.ok) throw 0;
  const m = queryMatcher(kw);
  const pol: LoopPolicy = {
    ...DRIVER_POLICY,
    initialCells: (ar, o) => DRIVER_POLICY.initialCells(ar, { ...o, startZoom: 12 }),
    split: (ctx) => {
      const view = cellSearchView(ctx.cell.bbox, DEFAULT_VIEWPORT, 21);
      const vis = visibleBBox(view, DEFAULT_VIEWPORT);
      const nTrue = world.placesIn(vis).filter((p) => m.matches(p)).length;
      // cell-centre normalised: fraction of results in the central quarter-area box of the visible box
      const R = viewRadiusMeters(view, DEFAULT_VIEWPORT);
      const ds = ctx.organic.map((l) => haversineMetres(view, { lat: l.lat!, lng: l.lng! }) / R);
      const s1 = ds.reduce((s, d) => s + d * d, 0) / ds.length;
      const sorted = [...ds].sort((x, y) => x - y);
      const d90 = sorted[Math.floor(sorted.length * 0.9)]!;
      rows.push(`${name} ${nTrue} ${s1.toFixed(3)} ${d90.toFixed(3)}`);
      return DRIVER_POLICY.split(ctx);
    },
  };
  await runSweepLoop({ world, area: a.area, keyword: kw, viewport: DEFAULT_VIEWPORT, switches: { signedIn: true, sparseZoomOut: true }, policy: pol, planner: { maxZoom: 20 } });
}
console.log(rows.sort((x, y) => Number(x.split(' ')[1]) - Number(y.split(' ')[1])).join('\n'));
