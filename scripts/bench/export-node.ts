/**
 * The CSV export's own cost in Node, without a browser: where the time goes when the Chromium
 * figure (chromium-export.ts) is too slow. Two figures over the same synthetic listings
 * (export-listings.ts: three providers, Korean text, quotes, line breaks, formula starts):
 *  - builder: csvChunks alone over listings already in memory, batches of EXPORT_BATCH;
 *  - store: buildExport as the offscreen document runs it (store reads batch by batch, each
 *    batch a Blob), on fake-indexeddb. fake-indexeddb is far slower than Chromium's IndexedDB
 *    and keeps everything on the JS heap, so this shows the reads' share, not the browser's time.
 *
 * Run: `npx tsx scripts/bench/export-node.ts [--places=100000] [--runs=5] [--no-store]`
 */
import { buildExport, EXPORT_BATCH } from '../../utils/export/build';
import { csvChunks } from '../../utils/export/csv';
import type { StoredListing } from '../../utils/domain/listing';
import { handled, openStore } from '../../utils/store';
import { variedListings } from './export-listings';
import { median, round } from './stats';
import { installFakeIndexedDb, logLine, optionOf, runPrinted } from './standalone';

export interface NodeExportFigures {
  places: number;
  builder_s: number[];
  builder_s_median: number;
  file_mb: number;
  store_s?: number[];
  store_s_median?: number;
  /** Node's heap growth at its peak during one store export (sampled every 20 ms), MB. */
  store_peak_heap_over_mb?: number;
}

async function* batchesOf(all: StoredListing[]): AsyncGenerator<StoredListing[]> {
  for (let i = 0; i < all.length; i += EXPORT_BATCH) yield all.slice(i, i + EXPORT_BATCH);
}

export async function benchNodeExport(places: number, runs: number, withStore: boolean, log: (line: string) => void = () => {}): Promise<NodeExportFigures> {
  const all = variedListings(places);
  const builder: number[] = [];
  let chars = 0;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    let bytes = 0;
    for await (const chunk of csvChunks(batchesOf(all))) bytes += Buffer.byteLength(chunk);
    builder.push(round((performance.now() - start) / 1000, 3));
    chars = bytes;
  }
  log(`export (Node): builder ${places} places: ${builder.join(', ')} s`);
  const figures: NodeExportFigures = { places, builder_s: builder, builder_s_median: round(median(builder), 3), file_mb: round(chars / 2 ** 20, 1) };
  if (!withStore) return figures;

  await installFakeIndexedDb();
  const { IDBFactory } = await import('fake-indexeddb');
  const store = await openStore({ factory: new IDBFactory(), name: `bench-export-${places}` });
  try {
    for (let i = 0; i < all.length; i += 10_000) {
      const slice = all.slice(i, i + 10_000);
      await store.transact(['listings'], 'readwrite', async (tx) => {
        await Promise.all(slice.map((l) => handled(tx.objectStore('listings').put(l))));
      });
    }
    const timed: number[] = [];
    let peakOver = 0;
    for (let r = 0; r < Math.min(runs, 3); r++) {
      const base = process.memoryUsage().heapUsed;
      let peak = base;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
      const start = performance.now();
      const built = await buildExport(store, { collection: 'bench-export', fileWords: ['cafe'] }, 'csv', new Date());
      const blob = new Blob(built.parts, { type: built.type });
      timed.push(round((performance.now() - start) / 1000, 3));
      clearInterval(timer);
      peakOver = Math.max(peakOver, (peak - base) / 2 ** 20);
      if (built.places !== places || blob.size !== chars)
        throw new Error(`export (Node): ${built.places} places, ${blob.size} bytes; expected ${places}, ${chars}`);
    }
    log(`export (Node): fake-indexeddb store ${places} places: ${timed.join(', ')} s`);
    return { ...figures, store_s: timed, store_s_median: round(median(timed), 3), store_peak_heap_over_mb: Math.round(peakOver) };
  } finally {
    store.close();
  }
}

runPrinted(import.meta.url, (argv) =>
  benchNodeExport(Number(optionOf(argv, 'places') ?? 100_000), Number(optionOf(argv, 'runs') ?? 5), !argv.includes('--no-store'), logLine),
);
