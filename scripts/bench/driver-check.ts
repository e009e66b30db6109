/**
 * Which split the real driver makes today: one world swept by the real driver, queue and
 * store (simSweep, fake-indexeddb) and by the in-memory loop with each split policy. The
 * loop's figures stand for the extension only if one policy matches the driver exactly.
 */
import type { Store } from '../../utils/store';
import { simSweep } from '../../tests/helpers/sim-sweep';
import { BENCH_SWITCHES, MIDPOINT_SPLIT, PLAN_SPLIT, runSweepLoop, type SplitPolicy } from './sweep-loop';
import type { BenchWorld } from './worlds';
import type { Viewport } from '../../utils/geo/types';

export interface DriverCheck {
  world: string;
  driver: { searches: number; kept: number };
  /** Loop policies that made the same page loads and kept the same places (both, when this world needs no pre-split). */
  matching: string[];
  loop: Record<string, { searches: number; kept: number; sameKeys: boolean }>;
}

export async function checkDriver(bw: BenchWorld, viewport: Viewport): Promise<DriverCheck> {
  const real = await simSweep({ world: bw.world, areaText: bw.areaText, keywordsText: bw.keyword, viewport, switches: BENCH_SWITCHES });
  const driverKeys = await storedKeys(real.store, real.sweep.id);
  real.store.close();
  const loop: DriverCheck['loop'] = {};
  const matching: string[] = [];
  for (const policy of [PLAN_SPLIT, MIDPOINT_SPLIT] as SplitPolicy[]) {
    const r = await runSweepLoop({ world: bw.world, area: bw.area, keyword: bw.keyword, viewport, policy });
    const sameKeys = r.found.size === driverKeys.size && [...r.found].every((k) => driverKeys.has(k));
    loop[policy.name] = { searches: r.searches, kept: r.found.size, sameKeys };
    if (sameKeys && r.searches === real.loads) matching.push(policy.name);
  }
  return { world: bw.spec.name, driver: { searches: real.loads, kept: driverKeys.size }, matching, loop };
}

async function storedKeys(store: Store, sweepId: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const batch of store.iterateListings(1000, sweepId)) for (const l of batch) keys.add(l.key);
  return keys;
}
