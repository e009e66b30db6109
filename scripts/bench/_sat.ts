import 'fake-indexeddb/auto';
import { createPresetWorld } from '../../tests/replica/world';
import { simSweep } from '../../tests/helpers/sim-sweep';
import { queryMatcher } from '../../tests/replica/search';
import { fitZoom, DEFAULT_VIEWPORT } from '../../utils/geo';
const world = createPresetWorld('denseCentre', 7);
const c = world.centre; const dLat = 3 / 110.574; const dLng = 3 / (111.32 * Math.cos((c.lat * Math.PI) / 180));
const areaText = `${c.lat - dLat},${c.lng - dLng},${c.lat + dLat},${c.lng + dLng}`;
const { store, sweep } = await simSweep({ world, areaText, keywordsText: 'cafe', switches: { signedIn: true, sparseZoomOut: true } });
const m = queryMatcher('cafe');
for (const cell of await store.listCells(sweep.id, 'saturated')) {
  const n = world.placesIn(cell.bbox).filter((p) => m.matches(p)).length;
  console.log(cell.id, cell.depth, fitZoom(cell.bbox, DEFAULT_VIEWPORT).toFixed(2), n, JSON.stringify(cell.result));
}
