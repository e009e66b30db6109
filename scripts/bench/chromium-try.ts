import { startBenchReplica } from './chromium-context';
import { measureOverhead } from './chromium-overhead';
import { measureResume } from './chromium-resume';
import { measureExport } from './chromium-export';
const replica = await startBenchReplica();
const ctx = { replica, log: (l: string) => console.log(new Date().toISOString().slice(11, 19), l) };
const what = process.argv[2];
try {
  const t = Date.now();
  const r = what === 'overhead' ? await measureOverhead(ctx, Number(process.argv[3] ?? 1))
    : what === 'resume' ? await measureResume(ctx, Number(process.argv[3]), Number(process.argv[4] ?? 1))
    : await measureExport(ctx, Number(process.argv[3]), Number(process.argv[4] ?? 1));
  console.log(JSON.stringify(r, null, 1));
  console.log('total s', (Date.now() - t) / 1000);
} finally { await replica.close(); }
