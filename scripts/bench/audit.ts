/**
 * The closing audit's cost and what it catches (issue 10, "Measure"). The real driver (simSweep:
 * planner, queue, store, driver and audit, in-process against the replica's search semantics)
 * sweeps one district per seed, under the replica's default geometry (nothing to catch: the
 * audit's cost) and under sites whose searches leave out more of the map than any rule the
 * extension knows (the page draws a 408-px panel; the site excludes 560–800 px), with learning
 * on and off. Reported per scenario, over seeds: the audit's searches as a share of all, how
 * often it found missed places, and the recall at the end against the ground truth.
 *
 * Run alone: `npx tsx scripts/bench/audit.ts`. Reporting seeds 31–35 (never used for tuning).
 */
import { parseAreaText } from '../../utils/geo';
import { frozenCalibration, simSweep } from '../../tests/helpers/sim-sweep';
import { groundTruth } from '../../tests/replica/search';
import { createWorld } from '../../tests/replica/world';
import type { Store } from '../../utils/store';
import { median, pct } from './stats';
import { installFakeIndexedDb, runIfMain } from './standalone';

const SEEDS = [31, 32, 33, 34, 35];
const AREA = '37.54,126.95,37.59,127.01';
/** The panel the site leaves out of its searches; the page always draws 408 px. */
const EXCLUDED = [408, 560, 700, 800];

export interface AuditScenario {
  excludedPanel: number;
  learning: boolean;
  auditShareMedian: number;
  detectedRuns: number;
  runs: number;
  recallMin: number;
  recallMedian: number;
  roundsMax: number;
}

async function storedKeys(store: Store, collection: string): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const batch of store.iterateListings(500, collection)) for (const l of batch) keys.add(l.key);
  return keys;
}

export async function measureAudit(log: (line: string) => void = console.log): Promise<AuditScenario[]> {
  const area = parseAreaText(AREA);
  if (!area.ok) throw new Error(area.error.message);
  const out: AuditScenario[] = [];
  for (const excludedPanel of EXCLUDED) {
    // Learning off with an 800-px band collapses the learnt box to a sliver on some seeds
    // (thousands of searches): measured by hand, left out of the routine run.
    for (const learning of excludedPanel >= 800 ? [true] : [true, false]) {
      const shares: number[] = [];
      const recalls: number[] = [];
      let detected = 0;
      let rounds = 0;
      for (const seed of SEEDS) {
        const world = createWorld({ seed, places: 6000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 6 });
        const truth = new Set(groundTruth(world, 'cafe', area.area).map((p) => `google:${p.cid}`));
        const { store, sweep, loads } = await simSweep({
          world,
          areaText: AREA,
          keywordsText: 'cafe',
          seed,
          switches: { signedIn: true, sparseZoomOut: true, geometry: 'right-of-panel', panelWidth: excludedPanel },
          sim: { drawnPanelWidth: 408 },
          ...(learning ? {} : { calibration: frozenCalibration() }),
        });
        const got = await storedKeys(store, sweep.id);
        shares.push((sweep.audit?.searched ?? 0) / loads);
        recalls.push([...truth].filter((k) => got.has(k)).length / truth.size);
        if ((sweep.audit?.missed ?? 0) > 0) detected++;
        rounds = Math.max(rounds, sweep.audit?.round ?? 0);
        store.close();
      }
      const row: AuditScenario = {
        excludedPanel,
        learning,
        auditShareMedian: median(shares),
        detectedRuns: detected,
        runs: SEEDS.length,
        recallMin: Math.min(...recalls),
        recallMedian: median(recalls),
        roundsMax: rounds,
      };
      out.push(row);
      log(
        `excluded ${String(excludedPanel).padStart(3)} px  learning ${learning ? 'on ' : 'off'}  audit ${(100 * row.auditShareMedian).toFixed(1)}% of searches  ` +
          `found misses in ${detected}/${SEEDS.length} runs  recall min ${pct(row.recallMin)} median ${pct(row.recallMedian)}  rounds ≤ ${rounds}`,
      );
    }
  }
  return out;
}

runIfMain(import.meta.url, async () => {
  await installFakeIndexedDb();
  await measureAudit();
});
