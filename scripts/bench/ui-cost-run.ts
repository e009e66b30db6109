/**
 * Prints the two page-side figures of issue 5 (scripts/bench/ui-cost.ts):
 * `npx tsx scripts/bench/ui-cost-run.ts [dashboard|browsing]...` (both when none is named).
 */
import { benchBrowsingCost, benchDashboard100k } from './ui-cost';
import { requireChromium } from './chromium-session';
import { runIfMain } from './standalone';

runIfMain(import.meta.url, async (asked) => {
  requireChromium();
  const wants = (name: string) => asked.length === 0 || asked.includes(name);
  if (wants('dashboard')) console.log('dashboard_100k', JSON.stringify(await benchDashboard100k()));
  if (wants('browsing')) console.log('browsing_cost', JSON.stringify(await benchBrowsingCost()));
});
