/** The bench's table for standard output, and the shape of bench-output/summary.json. */
import type { BenchFigures } from './commit';
import type { ChromiumDetails, ChromiumFigures } from './chromium';
import type { BrowsingCost, DashboardCost } from './ui-cost';
import type { DriverCheck } from './driver-check';
import { TARGETS, type WorldFigures } from './efficiency';
import { formatGeometryTable, type GeometryFigures } from './geometry';
import { formatReferenceTable } from './reference';
import { formatRecallTable } from './recall';
import { UNIFORM_CELL_KM } from './uniform';
import { formatBeforeAfter, type BundleFigures } from './bundle';
import { pct } from './stats';

export interface Summary {
  generated_at: string;
  /** The closing audit's cost and catch (scripts/bench/audit.ts); null when skipped. */
  audit?: import('./audit').AuditScenario[] | null;
  machine: { cpus: number; node: string; platform: string };
  worlds: Record<string, WorldFigures>;
  targets: typeof TARGETS;
  /** Chromium's IndexedDB when measured, else Node + fake-indexeddb (commit_ms_environment says which). */
  commit_ms: Record<string, BenchFigures> | null;
  commit_ms_environment: string;
  commit_ms_ratio_largest_to_smallest: number | null;
  /** Node + fake-indexeddb: shows the algorithm's growth, not Chromium's disk. */
  commit_ms_node: Record<string, BenchFigures> | null;
  /** Real-Chromium figures (scripts/bench/chromium.ts); null when not measured. */
  chromium: ChromiumFigures;
  chromium_details: ChromiumDetails;
  /** Why a Chromium figure is missing, by key. */
  chromium_errors: Record<string, string>;
  resume_to_lease_s: number | null;
  export_100k: { seconds: number; peak_mb: number } | null;
  overhead_ratio: number | null;
  pending: string[];
  driver_check: DriverCheck | null;
  /** The dashboard's listings table with a 100,000-place collection (real Chromium). */
  dashboard_100k: DashboardCost | null;
  /** Page-side cost of collecting while browsing (real Chromium, replica pages). */
  browsing_cost: BrowsingCost | null;
  /** Recall and searches under each replica search geometry, calibrated and not (scripts/bench/geometry.ts); null with --no-geometry. */
  geometry: GeometryFigures | null;
  /** Sweep searches against a greedy omniscient cover G, median / worst over reporting seeds × shifts × keywords (scripts/bench/reference.ts); null with --no-reference. */
  reference?: import('./reference').ReferenceFigures | null;
  /** Recall on imperfect pages with the real driver and store, over reporting seeds × shifts × keywords (scripts/bench/recall.ts); null with --no-recall. */
  recall?: import('./recall').RecallFigures | null;
  /** Each entry point's JS in the production build (scripts/bench/bundle.ts); null without a build. */
  bundle: BundleFigures | null;
}

const mark = (ok: boolean) => (ok ? 'yes' : 'NO');

export function formatTable(summary: Summary): string {
  const lines: string[] = [];
  const names = Object.keys(summary.worlds);
  const row = (label: string, cells: string[]) => lines.push(label.padEnd(34) + cells.map((c) => c.padStart(19)).join(''));
  const w = (f: (x: WorldFigures) => string) => names.map((n) => f(summary.worlds[n]!));
  row('world', names);
  row(
    '  keyword',
    w((x) => x.keyword),
  );
  row(
    '  places in world',
    w((x) => String(x.places_total)),
  );
  row(
    '  matching places in area',
    w((x) => String(x.places_matching)),
  );
  row(
    'adaptive planner: recall',
    w((x) => pct(x.recall)),
  );
  row(
    '  searches',
    w((x) => String(x.searches)),
  );
  row(
    '  lower bound ceil(n/120)',
    w((x) => String(x.lower_bound)),
  );
  row(
    '  searches / lower bound',
    w((x) => `${x.searches_over_lower_bound.toFixed(2)}x`),
  );
  row(
    '  floor: quadtree knowing counts',
    w((x) => `${x.quadtree_floor} (${(x.quadtree_floor / x.lower_bound).toFixed(2)}x)`),
  );
  row(
    '  crowded (split) / saturated cells',
    w((x) => `${(x.decisions['cap-hit'] ?? 0) + (x.decisions['no-end-marker'] ?? 0)} / ${x.saturated_cells}`),
  );
  for (const km of UNIFORM_CELL_KM) {
    row(
      `uniform ${km} km (z${summary.worlds[names[0]!]?.uniform[km]?.zoom.toFixed(0) ?? '?'}): searches @ recall`,
      w((x) => `${x.uniform[km]!.searches} @ ${pct(x.uniform[km]!.recall)}`),
    );
  }
  row(
    'uniform at the same recall',
    w((x) => (x.uniform_at_same_recall ? `${x.uniform_searches_at_same_recall} (${x.uniform_at_same_recall.cell_km.toFixed(2)} km)` : 'not reached')),
  );
  row(
    '  adaptive / uniform',
    w((x) => (x.uniform_searches_at_same_recall ? (x.searches / x.uniform_searches_at_same_recall).toFixed(2) : '-')),
  );
  row(
    `target recall >= ${pct(TARGETS.recall)}`,
    w((x) => mark(x.targets_met.recall)),
  );
  row(
    `target searches <= ${TARGETS.searchesOverLowerBound}x lower bound`,
    w((x) => mark(x.targets_met.searches_le_2x_lower_bound)),
  );
  row(
    'target <= 1/3 of uniform',
    w((x) => mark(x.targets_met.le_third_of_uniform)),
  );
  lines.push('');
  if (summary.geometry) lines.push(formatGeometryTable(summary.geometry), '');
  if (summary.reference) lines.push(formatReferenceTable(summary.reference), '');
  if (summary.recall) lines.push(formatRecallTable(summary.recall), '');
  if (summary.commit_ms) {
    lines.push(`commitCell of 20 listings (10 new, 10 stored), ms (${summary.commit_ms_environment}):`);
    for (const [size, f] of Object.entries(summary.commit_ms)) lines.push(`  ${size.padEnd(5)} stored: median ${f.median}, p95 ${f.p95}`);
    lines.push(`  largest / smallest median: ${summary.commit_ms_ratio_largest_to_smallest ?? '-'}`);
  }
  if (summary.commit_ms_node && summary.commit_ms !== summary.commit_ms_node) {
    const node = Object.entries(summary.commit_ms_node).map(([size, f]) => `${size} median ${f.median}, p95 ${f.p95}`);
    lines.push(`  (Node + fake-indexeddb, in memory: ${node.join('; ')})`);
  }
  lines.push(...chromiumLines(summary));
  const overhead = summary.chromium_details.overhead;
  lines.push(
    formatBeforeAfter(summary.bundle, summary.overhead_ratio !== null && overhead ? { ratio: summary.overhead_ratio, rounds: overhead.rounds } : null),
  );
  if (summary.driver_check) {
    const d = summary.driver_check;
    lines.push(
      `driver check (${d.world}): real driver ${d.driver.searches} searches, ${d.driver.kept} places; bench loop ${d.loop.searches}, ${d.loop.kept}: ` +
        (d.same ? 'same' : 'DIFFERENT: the figures above do not describe the driver'),
    );
  }
  lines.push(`pending (real Chromium, scripts/bench/chromium.ts): ${summary.pending.join(', ') || 'none'}`);
  return lines.join('\n');
}

function chromiumLines(summary: Summary): string[] {
  const { chromium: f, chromium_details: d } = summary;
  const lines: string[] = [];
  const c = d.commit;
  if (f.commit_ms && c) lines.push(`  (Chromium: ${c.samples} commits per size, ${c.seconds} s with the fills)`);
  if (f.resume_to_lease_s !== null && d.resume) {
    const r = d.resume;
    lines.push(
      `resume, ${r.listings} listings stored: browser start → next cell's search ${f.resume_to_lease_s} s, Resume → search ${r.click_to_lease_s} s ` +
        `(median of ${r.samples.length}); same sweep with no listings: ${r.control_launch_to_lease_s} s / ${r.control_click_to_lease_s} s`,
    );
  }
  if (f.export_100k && d.export) {
    const e = d.export;
    lines.push(
      `export CSV of ${e.runs[0]?.rows ?? '?'} places: ${f.export_100k.seconds} s (median of ${e.runs.length}); browser peak RSS ${f.export_100k.peak_mb} MB ` +
        `(+${e.peak_over_baseline_mb} MB over idle), peak Pss ${e.peak_pss_mb} MB (+${e.peak_pss_over_baseline_mb} MB)`,
    );
  }
  const dash = summary.dashboard_100k;
  if (dash) {
    const scroll = dash.scroll_frame_ms ? `; scroll jump median ${dash.scroll_frame_ms.median} ms, p95 ${dash.scroll_frame_ms.p95} ms` : '';
    lines.push(`dashboard, 100,000 places: first rows ${dash.first_rows_ms} ms, all loaded ${dash.all_loaded_ms} ms${scroll}`);
  }
  const browsing = summary.browsing_cost;
  if (browsing) {
    lines.push(
      `collect while browsing: ${browsing.ms_per_20_cards.median} ms per 20 new cards (p95 ${browsing.ms_per_20_cards.p95} ms, ${browsing.samples} scans)`,
    );
  }
  for (const [key, why] of Object.entries(summary.chromium_errors)) lines.push(`not measured: ${key}: ${why}`);
  return lines;
}

export function commitRatio(figures: Record<string, BenchFigures> | null): number | null {
  if (!figures) return null;
  const medians = Object.values(figures).map((f) => f.median);
  if (medians.length < 2 || Math.min(...medians) <= 0) return null;
  return Number((Math.max(...medians) / Math.min(...medians)).toFixed(2));
}
