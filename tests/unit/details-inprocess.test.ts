// @vitest-environment happy-dom
/**
 * End to end in-process (issue 16): a whole Google sweep whose cards are the replica's (no
 * phone on one card in five, the street only, no hours), then the place-details pass over the
 * replica's own place pages, read by the shipped reader. Phone completeness then equals the
 * ground truth's, place by place; so do the full address, website, hours and categories.
 */
import { describe, expect, it } from 'vitest';
import { enqueueDetails, countPlaces } from '../../utils/details/queue';
import { needsDetails } from '../../utils/details/needs';
import { runDetails } from '../../utils/details/runner';
import { estimateDetails } from '../../utils/details/estimate';
import type { StoredListing } from '../../utils/domain/listing';
import { groundTruth } from '../replica/search';
import { cardSweep, completeness, replicaPlacePages, simPacer, truthCompleteness } from '../helpers/details-sim';
import { AREA, parsed, world } from '../helpers/sim-world';

async function all(store: Awaited<ReturnType<typeof cardSweep>>['store'], id: string): Promise<StoredListing[]> {
  const out: StoredListing[] = [];
  for await (const batch of store.iterateListings(500, id)) out.push(...batch);
  return out;
}

describe('place details in-process: cards that omit phones, completed from the place pages', () => {
  it('brings phone (and address, website, hours, categories) completeness to the ground truth, one paced load per place', async () => {
    const { store, sweep, clock, settings } = await cardSweep(world, AREA, 'pharmacy', { delayMs: 2000, jitterMs: 0 });
    expect(sweep.status).toBe('finished');
    const truth = groundTruth(world, 'pharmacy', parsed(AREA));
    const before = await all(store, sweep.id);
    expect(before.length).toBe(truth.length);
    expect(before.length).toBeGreaterThan(40);
    const missingPhones = before.filter((l) => l.phone === null && world.byCid.get(l.cid!)!.phone !== null);
    expect(missingPhones.length).toBeGreaterThan(0);

    const { queued } = await enqueueDetails(store, sweep.id, clock.now(), { provider: 'google', lang: sweep.settings.lang });
    expect(queued).toBe(before.filter(needsDetails).length);
    const estimate = estimateDetails(queued, settings);
    const pages = replicaPlacePages(world, clock);
    const started = clock.now();
    const exit = await runDetails({ store, page: pages, pacer: simPacer(clock, settings), now: clock.now, sleep: clock.sleep, random: () => 0.5 }, sweep.id, 1);
    expect(exit).toBe('finished');
    expect(pages.loads.length).toBe(queued);
    expect(new Set(pages.loads).size).toBe(queued);
    // Under /maps/, where the content script runs: the card's feature id names the page.
    expect(pages.loads.every((u) => u.startsWith('https://www.google.com/maps/place/data=!4m2!3m1!1s0x'))).toBe(true);
    expect(pages.maxConcurrent).toBe(1);
    // 2 s of pacing + 1 s load per place here; the estimate counts 2 s + 4 s: an upper bound.
    expect(clock.now() - started).toBeLessThanOrEqual(estimate.seconds * 1000);
    expect(await countPlaces(store, sweep.id)).toMatchObject({ done: queued, failed: 0, pending: 0, leased: 0 });

    const after = await all(store, sweep.id);
    for (const l of after) {
      const p = world.byCid.get(l.cid!)!;
      expect(l.phone, l.key).toBe(p.phone?.display ?? null);
      expect(l.address, l.key).toBe(p.fullAddress);
      expect(l.addressParts?.postalCode, l.key).toBe(p.address.postal);
      expect(l.name).toBe(p.name);
    }
    const b = completeness(before);
    const a = completeness(after);
    const t = truthCompleteness(truth);
    expect(a.phone).toBe(t.phone);
    expect(b.phone).toBeLessThan(t.phone);
    expect(a.fullAddress).toBe(100);
    expect(a.website).toBe(t.website);
    expect(a.hours).toBe(t.hours);
    expect(a.categories).toBe(100);
    // The figures for the report.
    console.info(
      `place details, replica pharmacies (${after.length} places): before ${JSON.stringify(b)} after ${JSON.stringify(a)} truth ${JSON.stringify(t)}`,
    );

    // A second pass finds the queue whole and nothing left: no page is loaded twice.
    expect(await enqueueDetails(store, sweep.id, clock.now(), { provider: 'google' })).toEqual({ queued: 0, filled: false });
    expect(await runDetails({ store, page: pages, pacer: simPacer(clock, settings), now: clock.now, sleep: clock.sleep, random: () => 0.5 }, sweep.id, 1)).toBe(
      'finished',
    );
    expect(pages.loads.length).toBe(queued);
    store.close();
  });
});
