/**
 * Tuning predicted descent (utils/grid/descent.ts) on the TUNING seeds only: the sweep loop's
 * searches with and without it, per world and keyword, one area alignment. The reporting
 * seeds (reference.ts) are never looked at here.
 * `npx tsx scripts/bench/tune-descent.ts`
 */
import { DEFAULT_VIEWPORT } from '../../utils/geo';
import { groundTruth } from '../../tests/replica/search';
import { median } from './stats';
import { REFERENCE_KEYWORDS, REFERENCE_SWITCHES, TUNING_SEEDS } from './reference';
import { runSweepLoop } from './sweep-loop';
import { BENCH_WORLDS, loadBenchWorld } from './worlds';

async function main(): Promise<void> {
  const ratios: number[] = [];
  for (const spec of BENCH_WORLDS) {
    for (const seed of TUNING_SEEDS) {
      const bw = loadBenchWorld(spec, seed);
      for (const keyword of REFERENCE_KEYWORDS) {
        const base = { world: bw.world, area: bw.area, keyword, viewport: DEFAULT_VIEWPORT, switches: REFERENCE_SWITCHES };
        const off = await runSweepLoop({ ...base, descent: false });
        let right = 0;
        let wrong = 0;
        const on = await runSweepLoop({
          ...base,
          descent: true,
          onPredicted: (cell) => {
            const n = groundTruth(bw.world, keyword, cell.bbox).length;
            if (n >= 115) right++;
            else wrong++;
            if (process.env.DEBUG) console.log(`   ${cell.path}: truth ${n}`);
          },
        });
        const truth = groundTruth(bw.world, keyword, bw.area);
        const lost = truth.filter((p) => !on.found.has(`google:${p.cid}`)).length - truth.filter((p) => !off.found.has(`google:${p.cid}`)).length;
        ratios.push(on.searches / off.searches);
        console.log(`${spec.name} seed ${seed} ${keyword}: ${off.searches} → ${on.searches} searches (${on.predicted} predicted: ${right} right, ${wrong} wrong), recall change ${-lost}`);
      }
    }
  }
  console.log(`median on/off ${median(ratios).toFixed(3)}, worst ${Math.max(...ratios).toFixed(3)}, best ${Math.min(...ratios).toFixed(3)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
