/**
 * The bench's figures come from an in-memory loop (sweep-loop.ts). They stand for the
 * extension only while the loop makes the driver's decisions, so the bench sweeps one world
 * with the real driver, queue and store too (simSweep, fake-indexeddb) and compares.
 */
import type { Viewport } from '../../utils/geo/types';
import type { Store } from '../../utils/store';
import { simSweep } from '../../tests/helpers/sim-sweep';
import { BENCH_SWITCHES, runSweepLoop } from './sweep-loop';
import type { BenchWorld } from './worlds';

export interface DriverCheck {
  world: string;
  driver: { searches: number; kept: number };
  loop: { searches: number; kept: number };
  /** Same page loads and exactly the same places kept. */
  same: boolean;
}

export async function checkDriver(bw: BenchWorld, viewport: Viewport): Promise<DriverCheck> {
  const real = await simSweep({ world: bw.world, areaText: bw.areaText, keywordsText: bw.keyword, viewport, switches: BENCH_SWITCHES });
  const driverKeys = await storedKeys(real.store, real.sweep.id);
  real.store.close();
  const loop = await runSweepLoop({ world: bw.world, area: bw.area, keyword: bw.keyword, viewport });
  const same = loop.searches === real.loads && loop.found.size === driverKeys.size && [...loop.found].every((k) => driverKeys.has(k));
  return {
    world: bw.spec.name,
    driver: { searches: real.loads, kept: driverKeys.size },
    loop: { searches: loop.searches, kept: loop.found.size },
    same,
  };
}

async function storedKeys(store: Store, sweepId: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const batch of store.iterateListings(1000, sweepId)) for (const l of batch) keys.add(l.key);
  return keys;
}
