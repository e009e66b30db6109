import { BENCH_WORLDS, loadBenchWorld } from './worlds';
import { measureWorld } from './efficiency';
for (const spec of BENCH_WORLDS) {
  const t0 = performance.now();
  const bw = loadBenchWorld(spec, 7, process.argv[2] ?? 'cafe');
  const f = await measureWorld(bw, undefined, console.log);
  console.log(JSON.stringify(f), Math.round(performance.now() - t0), 'ms');
}
