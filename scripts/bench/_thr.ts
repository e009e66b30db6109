import { DEFAULT_VIEWPORT, cellSearchView, visibleBBox, MAX_ZOOM } from '../../utils/geo';
import { splitCell, planSplit } from '../../utils/grid';
import * as presplit from '../../utils/grid/presplit';
import { BENCH_WORLDS, loadBenchWorld } from './worlds';
import { runSweepLoop, MIDPOINT_SPLIT, type SplitPolicy } from './sweep-loop';
let hits = 0, tot = 0;
const sums: Record<string, number> = {};
for (const kw of ['restaurant', 'cafe', 'pharmacy', 'gym']) for (const seed of [7, 2]) for (const spec of BENCH_WORLDS) {
  const bw = loadBenchWorld(spec, seed, kw);
  const marked = new Set<string>();
  const probe: SplitPolicy = { name: 'probe', split: (ctx) => {
    const children = splitCell(ctx.cell, ctx.area, ctx.opts);
    for (const c of children) {
      const v = visibleBBox(cellSearchView(c.bbox, ctx.opts.viewport, MAX_ZOOM), ctx.opts.viewport);
      const n = ctx.organic.filter((l) => l.lat! >= v.south && l.lat! <= v.north && l.lng! >= v.west && l.lng! <= v.east).length;
      if (n >= 80) marked.add(c.path);
    }
    return { children, preSplit: [] };
  } };
  // run midpoint, and see which marked children capped
  const capped = new Set<string>();
  const wrap: SplitPolicy = { name: 'w', split: (ctx) => { capped.add(ctx.cell.path); return probe.split(ctx); } };
  await runSweepLoop({ world: bw.world, area: bw.area, keyword: kw, viewport: DEFAULT_VIEWPORT, policy: wrap });
  for (const p of marked) { tot++; if (capped.has(p)) hits++; }
  for (const T of [40, 60, 80, 100, 121]) {
    const pol: SplitPolicy = { name: 'T', split: ({ cell, area, opts, organic, cellsKnown }) => planSplit({ cell, area, observed: organic, cellsKnown }, opts) };
    (presplit as { PRESPLIT_SHARE: number }).PRESPLIT_SHARE; // constant; emulate by cap scaling below
    const r = await runSweepLoop({ world: bw.world, area: bw.area, keyword: kw, viewport: DEFAULT_VIEWPORT, policy: T === 121 ? MIDPOINT_SPLIT : { name: 'T', split: (ctx) => planSplit({ cell: ctx.cell, area: ctx.area, observed: ctx.organic, cellsKnown: ctx.cellsKnown }, { ...ctx.opts, cap: Math.round(T * 1.5) }) } });
    sums[T] = (sums[T] ?? 0) + r.searches;
  }
}
console.log(`children with >=80 of the parent's results in view that capped when searched: ${hits}/${tot}`);
console.log('total searches by threshold (121 = no pre-split):', JSON.stringify(sums));
