import { build } from 'esbuild';
import { newProfileDir, openPopup } from '../../tests/browser/harness';
import { dispose, extensionBrowser, startBenchReplica, areaAround, CENTRE, UNPACED_SETTINGS } from './chromium-context';
import { callBench, installBench } from './chromium-session';
const replica = await startBenchReplica();
const log = (l: string) => console.log(new Date().toISOString().slice(11, 19), l);
const b = await extensionBrowser({ replica, log }, newProfileDir());
try {
  const popup = await openPopup(b.context);
  await installBench(popup, log);
  const out = await build({ entryPoints: ['/tmp/exp/page.ts'], bundle: true, format: 'iife', globalName: 'Exp', write: false, logLevel: 'error' });
  await popup.evaluate(out.outputFiles[0]!.text + ';globalThis.Exp=Exp;');
  const stored = Number(process.argv[2]);
  const r = await callBench(popup, 'seedSweep', { sweepId: 'e', keywordsText: 'cafe\nbar\nbakery\npharmacy', areaText: areaAround(0.5, CENTRE.lat, CENTRE.lng), status: 'paused', pauseReason: 'restart', settings: UNPACED_SETTINGS, listings: stored });
  log(`seeded ${JSON.stringify(r)}`);
  for (let k = 0; k < 4; k++) {
    log(`phase ${k}: ${JSON.stringify(await popup.evaluate(`Exp.measure('e', 20, ${stored}, ${k})`))}`);
    await popup.waitForTimeout(20000);
  }
} finally { await dispose(b); await replica.close(); }
