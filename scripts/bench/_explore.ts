import 'fake-indexeddb/auto';
import { createPresetWorld } from '../../tests/replica/world';
import { groundTruth } from '../../tests/replica/search';
import { simSweep } from '../../tests/helpers/sim-sweep';
import { parseAreaText } from '../../utils/geo';

const KM_LAT = 110.574;
function box(c: { lat: number; lng: number }, km: number): string {
  const dLat = km / KM_LAT;
  const dLng = km / (111.32 * Math.cos((c.lat * Math.PI) / 180));
  return `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
}
const worlds = [
  ['denseCentre', 3, {}],
  ['mixedMetro', 15, {}],
  ['sparseRegion', 40, { places: 20000 }],
] as const;
const kw = process.argv[2] ?? 'cafe';
for (const [name, r, over] of worlds) {
  const t0 = performance.now();
  const world = createPresetWorld(name, 7, over);
  const areaText = box(world.centre, r);
  const area = parseAreaText(areaText);
  if (!area.ok) throw new Error('area');
  const truth = groundTruth(world, kw, area.area);
  const { store, sweep, loads } = await simSweep({ world, areaText, keywordsText: kw, switches: { signedIn: true, sparseZoomOut: true } });
  let found = 0;
  const truthKeys = new Set(truth.map((p) => `google:${p.cid}`));
  for await (const batch of store.iterateListings(1000, sweep.id)) for (const l of batch) if (truthKeys.has(l.key)) found++;
  console.log(name, { matching: truth.length, lb: Math.ceil(truth.length / 120), loads, found, recall: found / truth.length, counters: sweep.counters, ms: Math.round(performance.now() - t0) });
}
