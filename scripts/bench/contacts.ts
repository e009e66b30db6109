/**
 * The contacts pass (issue 23) against the replica web (tests/replica/web/), in-process through
 * the replica's own fetch, the real pass, queue, readers and store (fake-indexeddb):
 * - e-mail precision and recall against the replica's truth, and profiles found, over reporting
 *   seeds the tests do not use (the unit test's seed 23 is where the readers were tuned);
 * - websites per hour at the default pace (1 s between two requests to one site, 4 sites at a
 *   time): real waits, a web without hanging sites (a hang costs its 10 s bound, whatever the pace);
 * - memory over 10,000 sites: the heap after each 2,000 sites, with a garbage collection first.
 * `npx tsx --expose-gc scripts/bench/contacts.ts [--seeds=101,102,103] [--sites=1000] [--pace-sites=60] [--memory-sites=10000]`
 */
import { DEFAULT_CONTACTS_SETTINGS } from '../../utils/contacts/pass';
import { contactsOf } from '../../utils/contacts/read';
import { boundedFetch, inMemoryPass, placesOfWeb, storeOfWeb } from '../../tests/helpers/contacts-run';
import { precisionOf, recallOf, scoreContacts } from '../../tests/helpers/contacts-score';
import { DEFAULT_WEB_SHARES } from '../../tests/replica/web/sites';
import { startWebReplica } from '../../tests/replica/web/server';
import { installFakeIndexedDb, logLine as log, numbersOf, outDirOf, runIfMain, writeSection } from './standalone';
import { median, round } from './stats';

export interface ContactsFigures {
  seeds: number[];
  sitesPerSeed: number;
  precision: { median: number; perSeed: number[] };
  recall: { median: number; perSeed: number[] };
  profiles: { median: number; perSeed: number[] };
  /** Websites an hour at the default pace, measured on `paceSites` sites. */
  sitesPerHour: number;
  paceSites: number;
  /** Heap in MB after each step of the memory run, the sites done at each, and the store's records (in the same heap) as JSON. */
  memory: { sites: number; heapMb: number; storedMb: number }[];
}

/** The hanging sites are bounded well under the product's 10 s: the figures are about reading, not waiting. */
const HANG_MS = 1000;

export async function measureContacts(opts: {
  seeds: number[];
  sites: number;
  paceSites: number;
  memorySites: number;
  log(line: string): void;
}): Promise<ContactsFigures> {
  const { IDBFactory } = await import('fake-indexeddb');
  const precision: number[] = [];
  const recall: number[] = [];
  const profiles: number[] = [];
  for (const seed of opts.seeds) {
    const web = await startWebReplica({ seed, hosts: opts.sites });
    try {
      const store = await storeOfWeb(web, new IDBFactory());
      const pass = inMemoryPass(store, boundedFetch(web, HANG_MS), { gapMs: 0, concurrency: 16, maxAttempts: 2 }, 50);
      await pass.start('s1');
      await pass.idle();
      const contacts = await contactsOf(store, placesOfWeb(web));
      const score = scoreContacts(web.web.hosts.map((host, i) => ({ truth: web.truth(host), record: contacts.get(`google:${i + 1}`) })));
      precision.push(round(precisionOf(score), 4));
      recall.push(round(recallOf(score), 4));
      profiles.push(round(score.socialsExpected ? score.socialsFound / score.socialsExpected : 1, 4));
      opts.log(
        `seed ${seed}: ${opts.sites} sites, e-mail precision ${precision.at(-1)}, recall ${recall.at(-1)} (${score.recalledEmails}/${score.findableEmails}), profiles ${score.socialsFound}/${score.socialsExpected}`,
      );
      for (const line of [...score.missed.slice(0, 5), ...score.wrong.slice(0, 5), ...score.socialsWrong.slice(0, 5)]) opts.log(`  ${line}`);
      store.close();
    } finally {
      await web.close();
    }
  }

  // The pace: real 1 s gaps and 4 sites at a time; no hanging sites (each would cost its bound).
  const noHangs = { ...DEFAULT_WEB_SHARES.fates, timeout: 0 };
  const paceWeb = await startWebReplica({ seed: opts.seeds[0]!, hosts: opts.paceSites, shares: { fates: noHangs } });
  let sitesPerHour = 0;
  try {
    const store = await storeOfWeb(paceWeb, new IDBFactory());
    const pass = inMemoryPass(store, (url, init) => paceWeb.fetch(url, init), {});
    const started = performance.now();
    await pass.start('s1');
    await pass.idle();
    const seconds = (performance.now() - started) / 1000;
    sitesPerHour = Math.round((opts.paceSites / seconds) * 3600);
    opts.log(
      `pace: ${opts.paceSites} sites in ${seconds.toFixed(1)} s at ${DEFAULT_CONTACTS_SETTINGS.gapMs} ms per request per site, ${DEFAULT_CONTACTS_SETTINGS.concurrency} at a time: ${sitesPerHour} sites/hour`,
    );
    store.close();
  } finally {
    await paceWeb.close();
  }

  // Memory: the same store and pass over 10,000 sites, queued and visited 2,000 at a time.
  const memory: ContactsFigures['memory'] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  const memWeb = await startWebReplica({ seed: opts.seeds[0]!, hosts: opts.memorySites });
  try {
    const store = await storeOfWeb(memWeb, new IDBFactory());
    const pass = inMemoryPass(store, boundedFetch(memWeb, 200), { gapMs: 0, concurrency: 16, maxAttempts: 1 }, 20);
    await pass.start('s1');
    const step = Math.max(1, Math.floor(opts.memorySites / 5));
    let next = step;
    const keys = placesOfWeb(memWeb);
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const settled = [...(await contactsOf(store, keys)).values()].filter((c) => c.status === 'done' || c.status === 'failed').length;
      const finished = !pass.isRunning();
      if (settled >= next || finished) {
        gc?.();
        // fake-indexeddb keeps the database in this heap: its records are counted apart.
        const storedMb = round((await storedBytes(store)) / 2 ** 20, 1);
        memory.push({ sites: settled, heapMb: round(process.memoryUsage().heapUsed / 2 ** 20, 1), storedMb });
        opts.log(
          `memory: ${settled} sites settled, heap ${memory.at(-1)!.heapMb} MB, of which the store's records ≈ ${storedMb} MB as JSON${gc ? '' : ' (no --expose-gc: heap before collection)'}`,
        );
        next += step;
      }
      if (finished) break;
    }
    store.close();
  } finally {
    await memWeb.close();
  }

  return {
    seeds: opts.seeds,
    sitesPerSeed: opts.sites,
    precision: { median: median(precision), perSeed: precision },
    recall: { median: median(recall), perSeed: recall },
    profiles: { median: median(profiles), perSeed: profiles },
    sitesPerHour,
    paceSites: opts.paceSites,
    memory,
  };
}

/** The listings' and contact sites' records as JSON, a stand-in for what fake-indexeddb holds of them. */
async function storedBytes(store: Awaited<ReturnType<typeof storeOfWeb>>): Promise<number> {
  return store.transact(['listings', 'contactSites'], 'readonly', async (tx) => {
    let bytes = 0;
    for (const name of ['listings', 'contactSites'] as const) for (const r of await tx.objectStore(name).getAll()) bytes += JSON.stringify(r).length;
    return bytes;
  });
}

runIfMain(import.meta.url, async (argv) => {
  await installFakeIndexedDb();
  const figures = await measureContacts({
    seeds: numbersOf(argv, 'seeds') ?? [101, 102, 103],
    sites: numbersOf(argv, 'sites')?.[0] ?? 1000,
    paceSites: numbersOf(argv, 'pace-sites')?.[0] ?? 60,
    memorySites: numbersOf(argv, 'memory-sites')?.[0] ?? 10_000,
    log,
  });
  console.log(JSON.stringify(figures, null, 2));
  await writeSection(outDirOf(argv), 'contacts', figures);
});
