import { DEFAULT_VIEWPORT, fitZoom } from '../../utils/geo';
import { BENCH_WORLDS, loadBenchWorld } from './worlds';
import { PLAN_SPLIT, runSweepLoop } from './sweep-loop';
import { recallOf } from './uniform';
import { quadtreeFloor } from './floor';
const [kw, seed, wname] = [process.argv[2]!, Number(process.argv[3]), process.argv[4]!];
const bw = loadBenchWorld(BENCH_WORLDS.find((w) => w.name === wname)!, seed, kw);
const lb = Math.ceil(bw.truth.size / 120);
const fz = fitZoom(bw.area.bbox, DEFAULT_VIEWPORT);
for (const [name, z0] of [['z13', 13], ['z12', 12], ['K1', fz]] as [string, number][]) {
  const startZoom = Math.floor(z0 * 100 - 1e-6) / 100;
  const r = await runSweepLoop({ world: bw.world, area: bw.area, keyword: kw, viewport: DEFAULT_VIEWPORT, policy: PLAN_SPLIT, planner: { startZoom } });
  console.log(name, 'N', bw.truth.size, 'lb', lb, 'searches', r.searches, 'recall', recallOf(r.found, bw.truth).toFixed(4), JSON.stringify(r.reasons), 'pre', r.preSplit, 'floor', quadtreeFloor(bw.world, bw.area, kw, DEFAULT_VIEWPORT, { startZoom }));
}
