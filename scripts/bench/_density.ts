import { createPresetWorld } from '../../tests/replica/world';
import { queryMatcher } from '../../tests/replica/search';
const kw = process.argv[2] ?? 'cafe';
for (const [name, over] of [['denseCentre', {}], ['mixedMetro', {}], ['sparseRegion', { places: 20000 }]] as const) {
  const world = createPresetWorld(name, 7, over);
  const m = queryMatcher(kw);
  const pts = world.places.filter((p) => m.matches(p));
  const out: string[] = [];
  for (const z of [16, 17, 18, 19, 20]) {
    const mpp = (156543.03392 * Math.cos((37.56 * Math.PI) / 180)) / 2 ** z;
    const wDeg = (872 * mpp) / 1000 / (111.32 * Math.cos((37.56 * Math.PI) / 180));
    const hDeg = (800 * mpp) / 1000 / 110.574;
    // sliding window approx: grid at half window offsets
    let best = 0;
    for (const ox of [0, 0.5]) for (const oy of [0, 0.5]) {
      const counts = new Map<string, number>();
      for (const p of pts) {
        const k = `${Math.floor(p.lat / hDeg + oy)},${Math.floor(p.lng / wDeg + ox)}`;
        const c = (counts.get(k) ?? 0) + 1;
        counts.set(k, c);
        if (c > best) best = c;
      }
    }
    out.push(`z${z}(${Math.round(872 * mpp)}m):${best}`);
  }
  console.log(name, pts.length, out.join(' '));
}
