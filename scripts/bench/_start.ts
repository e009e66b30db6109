import { DEFAULT_VIEWPORT, fitZoom } from '../../utils/geo';
import { BENCH_WORLDS, loadBenchWorld } from './worlds';
import { PLAN_SPLIT, runSweepLoop } from './sweep-loop';
import { recallOf } from './uniform';
const rows: Record<string, number[]> = {};
for (const kw of ['restaurant', 'cafe', 'pharmacy', 'gym']) for (const seed of [7, 2]) for (const spec of BENCH_WORLDS) {
  const bw = loadBenchWorld(spec, seed, kw);
  const lb = Math.ceil(bw.truth.size / 120);
  const fz = fitZoom(bw.area.bbox, DEFAULT_VIEWPORT);
  const variants: [string, number][] = [['z13', 13], ['z12', 12], ['z11', 11], ['K1', fz]];
  for (const [name, z0] of variants) {
    const startZoom = Math.floor(z0 * 100 - 1e-6) / 100;
    const r = await runSweepLoop({ world: bw.world, area: bw.area, keyword: kw, viewport: DEFAULT_VIEWPORT, policy: PLAN_SPLIT, planner: { startZoom } });
    if (recallOf(r.found, bw.truth) < 0.995) console.log('recall!', name, kw, spec.name);
    (rows[`${name}`] ??= []).push(r.searches / lb);
    (rows[`${name} ${kw}`] ??= []).push(r.searches / lb);
    (rows[`${name} ${spec.name}`] ??= []).push(r.searches / lb);
  }
}
const gm = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
for (const [k, v] of Object.entries(rows).sort()) console.log(k.padEnd(28), 'geomean', gm(v).toFixed(2), 'max', Math.max(...v).toFixed(2));
