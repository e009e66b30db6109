/**
 * Prints the two page-side figures of issue 5 (scripts/bench/ui-cost.ts):
 * `npx tsx scripts/bench/ui-cost-run.ts [dashboard|browsing]...` (both when none is named).
 */
import { benchBrowsingCost, benchDashboard100k } from './ui-cost';
import { chromiumUnavailable } from './chromium-session';

async function main(): Promise<void> {
  const unavailable = chromiumUnavailable();
  if (unavailable) throw new Error(unavailable);
  const asked = process.argv.slice(2);
  const wants = (name: string) => asked.length === 0 || asked.includes(name);
  if (wants('dashboard')) console.log('dashboard_100k', JSON.stringify(await benchDashboard100k()));
  if (wants('browsing')) console.log('browsing_cost', JSON.stringify(await benchBrowsingCost()));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
