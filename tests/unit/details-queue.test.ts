/**
 * The place-details queue over the store (utils/details/queue.ts): filled once, all or nothing;
 * leases that are times (a leased place never committed is handed out again, nothing committed
 * is lost, across a closed and reopened database); one strict transaction per place that
 * merges by the more-complete rule; failures retried with backoff, then left; contradicting
 * place pages dropped and logged.
 */
import { describe, expect, it } from 'vitest';
import type { Listing, StoredListing } from '../../utils/domain/listing';
import { openStore, type Store } from '../../utils/store';
import {
  commitPlace,
  countPlaces,
  enqueueDetails,
  failPlace,
  getPlaceJob,
  isQueued,
  leasePlace,
  releasePlace,
  releasePlaceLeases,
} from '../../utils/details/queue';
import { detailsLaneUrl, missingFields, needsDetails } from '../../utils/details/needs';
import { placePageUrl, PROVIDERS } from '../../utils/providers/registry';
import { placeJobId } from '../../utils/details/records';
import { BACKOFF_BASE_MS } from '../../utils/queue/backoff';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const NOW = 10_000_000;
const LEASE = 60_000;

function stored(l: Listing, collections = ['s1']): StoredListing {
  return { ...l, firstSeen: 1, lastSeen: 2, collections, keywords: ['bakery'], cells: [] };
}

/** A store with a finished sweep `s1` and its listings (written directly: the sweep's own commits are tested elsewhere). */
async function seeded(listings: StoredListing[], factory = freshFactory(), name = 'd'): Promise<Store> {
  const store = await openStore({ factory, name });
  await store.createSweep(makeSweep('s1', { status: 'finished' }), [makeCell('s1', 'r0c0')]);
  await store.transact(['listings'], 'readwrite', async (tx) => {
    for (const l of listings) await tx.objectStore('listings').put(l);
  });
  return store;
}

const card = (cid: string, o: Partial<Listing> = {}) => makeListing(cid, { address: `${cid} Rue`, ...o });
/** What a place page reads for the same place: full address and parts, phone, website, hours. */
const page = (cid: string, o: Partial<Listing> = {}): Listing => ({
  ...makeListing(cid),
  address: `${cid} Rue de Test, 75001 Paris, France`,
  addressParts: { street: `${cid} Rue de Test`, district: null, city: 'Paris', postalCode: '75001', region: null, countryCode: 'FR' },
  phone: '01 23 45 67 89',
  phoneE164: '+33123456789',
  website: 'https://example.fr/',
  hours: 'Monday: 9 AM–6 PM',
  sources: { address: 'page-data', addressParts: 'page-data', phone: 'panel', phoneE164: 'page-data', website: 'panel', hours: 'page-data' },
  ...o,
});

describe('which listings a place page can complete', () => {
  it('only those missing fields the page gives; a listing read from a complete record is not loaded again', () => {
    expect(needsDetails(card('1'))).toBe(true);
    expect(missingFields(card('1'))).toEqual(['address', 'phone', 'website', 'hours', 'categories']);
    expect(needsDetails(page('2', { categories: ['Bakery'] }))).toBe(false);
    // From Google's own data (tbm=map): its nulls are the site's answer, not a card's omission…
    expect(needsDetails(card('3', { sources: { address: 'page-data' }, hours: 'Monday: 9 AM–6 PM' }))).toBe(false);
    // …except for hours, which that data has not carried since November 2025: missing, so the page is loaded…
    expect(needsDetails(card('3', { sources: { address: 'page-data' } }))).toBe(true);
    // Also beside a panel's reading: a panel is read while a person browses too, with no page data (so no hours).
    expect(needsDetails(card('3', { sources: { address: 'page-data', phone: 'panel' } }))).toBe(true);
    expect(needsDetails(card('4', { sponsored: true }))).toBe(false);
    const naver: Listing = {
      ...card('5'),
      key: 'naver:1178829266',
      providerId: '1178829266',
      provider: 'naver',
      cid: null,
      roadAddress: '서울 중구 세종대로 110',
      lotAddress: '서울 중구 태평로1가 31',
      phone: '02-120',
      website: 'https://a.kr/',
      bookingUrl: null,
    };
    expect(missingFields(naver)).toEqual(['bookingUrl', 'hours']);
    expect(placePageUrl(card('77'), 'ko')).toBe('https://www.google.com/maps?cid=77&hl=ko');
    expect(placePageUrl(card('77', { featureId: '0x357CA2:0x4D' }), 'ko')).toBe('https://www.google.com/maps/place/data=!4m2!3m1!1s0x357ca2:0x4d?hl=ko');
    expect(placePageUrl(card('77', { featureId: '0x1:0x4d"><b>' }))).toBe('https://www.google.com/maps?cid=77');
    expect(placePageUrl(naver)).toBe('https://pcmap.place.naver.com/place/1178829266/home');
    expect(placePageUrl({ provider: 'kakao', providerId: '8252248', cid: null })).toBe('https://place.map.kakao.com/8252248');
    expect(placePageUrl({ provider: 'google', providerId: 'x"><', cid: null })).toBeNull();
  });

  it("every site's place pages load in their own host's lane, and a record of a site this version does not know needs none", () => {
    for (const p of PROVIDERS) {
      const url = placePageUrl({ provider: p.id, providerId: '1178829266', cid: null });
      expect(url, p.id).not.toBeNull();
      expect(new URL(url!).host, p.id).toBe(new URL(detailsLaneUrl(p.id)).host);
    }
    const stranger = { ...card('6'), provider: 'osm' as never };
    expect(missingFields(stranger)).toEqual([]);
    expect(placePageUrl(stranger)).toBeNull();
  });
});

describe('the place queue', () => {
  it('is filled once, in one transaction: a second fill writes nothing, and places that need nothing get no job', async () => {
    const store = await seeded([stored(card('1')), stored(card('2')), stored(page('3', { categories: ['Bakery'] })), stored(card('4'), ['s2'])]);
    expect(await isQueued(store, 's1')).toBe(false);
    expect(await enqueueDetails(store, 's1', NOW, { provider: 'google' })).toEqual({ queued: 2, filled: true });
    expect(await isQueued(store, 's1')).toBe(true);
    expect(await enqueueDetails(store, 's1', NOW + 1, { provider: 'google' })).toEqual({ queued: 0, filled: false });
    expect(await countPlaces(store, 's1')).toEqual({ pending: 2, leased: 0, done: 0, failed: 0, total: 2, nextAvailableAt: NOW });
    // Deleting the sweep takes its queue with it.
    await store.deleteSweep('s1');
    expect(await isQueued(store, 's1')).toBe(false);
    expect((await countPlaces(store, 's1')).total).toBe(0);
    store.close();
  });

  it('survives a crash: a leased place never committed is handed out again once its lease runs out; nothing committed is lost', async () => {
    const factory = freshFactory();
    const store = await seeded([stored(card('1')), stored(card('2')), stored(card('3'))], factory, 'crash');
    await enqueueDetails(store, 's1', NOW, { provider: 'google' });
    const a = (await leasePlace(store, { sweepId: 's1', holder: 'loop:a', now: NOW, leaseMs: LEASE }))!;
    expect(await commitPlace(store, { jobId: a.id, holder: 'loop:a', now: NOW + 10, listing: page(a.key.slice(7)) })).toMatchObject({ applied: true });
    const b = (await leasePlace(store, { sweepId: 's1', holder: 'loop:a', now: NOW + 20, leaseMs: LEASE }))!;
    expect(b.key).not.toBe(a.key);
    // The worker dies here, holding b. The browser closes.
    store.close();

    const again = await openStore({ factory, name: 'crash' });
    // While b's lease runs, another loop gets the third place, never b (nor the done a).
    const c = (await leasePlace(again, { sweepId: 's1', holder: 'loop:b', now: NOW + 30, leaseMs: LEASE }))!;
    expect([a.key, b.key]).not.toContain(c.key);
    expect(await leasePlace(again, { sweepId: 's1', holder: 'loop:b', now: NOW + 40, leaseMs: LEASE })).toBeNull();
    // Once it has run out, b is available again: the lease was only a time.
    const b2 = (await leasePlace(again, { sweepId: 's1', holder: 'loop:b', now: NOW + 20 + LEASE + 1, leaseMs: LEASE }))!;
    expect(b2.id).toBe(b.id);
    // The dead loop's late commit is refused now that another holds b.
    expect(await commitPlace(again, { jobId: b.id, holder: 'loop:a', now: NOW + LEASE + 50, listing: page(b.key.slice(7)) })).toEqual({
      applied: false,
      reason: 'leased-by-other',
    });
    // a's details were committed before the crash and are all there.
    expect(await again.getListing(a.key)).toMatchObject({ phone: '01 23 45 67 89', address: `${a.key.slice(7)} Rue de Test, 75001 Paris, France` });
    expect((await getPlaceJob(again, a.id))!.status).toBe('done');
    // A committed place is never committed (nor loaded) twice.
    expect(await commitPlace(again, { jobId: a.id, holder: 'loop:b', now: NOW + LEASE + 60, listing: page(a.key.slice(7), { phone: '09 99' }) })).toEqual({
      applied: false,
      reason: 'settled',
    });
    expect((await again.getListing(a.key))!.phone).toBe('01 23 45 67 89');
    // After a restart every old lease is given back at once.
    expect(await releasePlaceLeases(again, NOW + LEASE + 70)).toBe(2);
    expect(await countPlaces(again, 's1')).toMatchObject({ pending: 2, leased: 0, done: 1 });
    again.close();
  });

  it('merges by the more-complete rule: the fuller value wins whichever came first, a null never erases, identity and history stay', async () => {
    const full = stored(
      card('1', {
        address: '1 Rue de Test, 75001 Paris, France',
        phone: '+33 1 23 45 67 89',
        phoneE164: '+33123456789',
        website: null,
        sources: { address: 'card' },
      }),
    );
    const store = await seeded([full]);
    await enqueueDetails(store, 's1', NOW, { provider: 'google' });
    const job = (await leasePlace(store, { sweepId: 's1', holder: 'h', now: NOW, leaseMs: LEASE }))!;
    // The place page gives a shorter address, the same phone without its E.164, no category, a website.
    const read = {
      ...makeListing('1'),
      name: 'PLACE 1',
      address: '1 Rue de Test',
      phone: '01 23 45 67 89',
      category: null,
      website: 'https://p1.fr/',
      sources: { website: 'panel' as const },
    };
    const r = await commitPlace(store, { jobId: job.id, holder: 'h', now: NOW + 5, listing: read });
    expect(r).toEqual({ applied: true, filled: ['website'] });
    const got = (await store.getListing('google:1'))!;
    expect(got).toMatchObject({
      address: '1 Rue de Test, 75001 Paris, France',
      phone: '+33 1 23 45 67 89',
      phoneE164: '+33123456789',
      category: 'Bakery',
      website: 'https://p1.fr/',
      name: 'Place 1',
      firstSeen: 1,
      lastSeen: 2,
      collections: ['s1'],
    });
    expect(got.sources).toMatchObject({ address: 'card', website: 'panel' });
    store.close();
  });

  it('drops a place page that contradicts the stored place (another name, a pin far away), logs it, and never retries it', async () => {
    const store = await seeded([stored(card('1')), stored(card('2'))]);
    await enqueueDetails(store, 's1', NOW, { provider: 'google' });
    const one = (await leasePlace(store, { sweepId: 's1', holder: 'h', now: NOW, leaseMs: LEASE }))!;
    expect(await commitPlace(store, { jobId: one.id, holder: 'h', now: NOW, listing: page(one.key.slice(7), { name: 'Somewhere Else' }) })).toEqual({
      applied: true,
      dropped: 'name',
    });
    const two = (await leasePlace(store, { sweepId: 's1', holder: 'h', now: NOW, leaseMs: LEASE }))!;
    expect(await commitPlace(store, { jobId: two.id, holder: 'h', now: NOW, listing: page(two.key.slice(7), { lat: 48.9 }) })).toEqual({
      applied: true,
      dropped: 'coordinates',
    });
    for (const key of [one.key, two.key]) expect((await store.getListing(key))!.phone).toBeNull();
    expect(await countPlaces(store, 's1')).toMatchObject({ failed: 2, pending: 0 });
    const warnings = (await store.listEvents('s1')).filter((e) => e.kind === 'warning');
    expect(warnings.map((e) => e.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/dropped.*\(name\)/), expect.stringMatching(/dropped.*\(coordinates\)/)]),
    );
    store.close();
  });

  it('retries a failing place page with a growing backoff, then leaves it: maxAttempts loads, never a loop', async () => {
    const store = await seeded([stored(card('1'))]);
    await enqueueDetails(store, 's1', NOW, { provider: 'google' });
    const id = placeJobId('s1', 'google:1');
    let now = NOW;
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = await leasePlace(store, { sweepId: 's1', holder: 'h', now, leaseMs: LEASE });
      expect(job?.id, `attempt ${attempt}`).toBe(id);
      const r = await failPlace(store, { jobId: id, holder: 'h', now, message: 'HTTP 503', maxAttempts: 3, random: () => 0.999 });
      if (attempt < 3) {
        expect(r).toMatchObject({ applied: true, outcome: 'retry', attempts: attempt });
        const at = (r as { nextAttemptAt: number }).nextAttemptAt;
        waits.push(at - now);
        // Not available before its backoff is over.
        expect(await leasePlace(store, { sweepId: 's1', holder: 'h', now: at - 1, leaseMs: LEASE })).toBeNull();
        now = at;
      } else {
        expect(r).toEqual({ applied: true, outcome: 'failed', attempts: 3 });
      }
    }
    expect(waits[0]).toBeLessThan(BACKOFF_BASE_MS);
    expect(waits[1]).toBeGreaterThan(waits[0]!);
    expect(await leasePlace(store, { sweepId: 's1', holder: 'h', now: now + 10 * 60_000, leaseMs: LEASE })).toBeNull();
    expect(await countPlaces(store, 's1')).toMatchObject({ failed: 1, pending: 0, leased: 0, nextAvailableAt: Number.POSITIVE_INFINITY });
    expect((await getPlaceJob(store, id))!.lastError).toBe('HTTP 503');
    store.close();
  });

  it('gives a lease back without counting an attempt (a block page)', async () => {
    const store = await seeded([stored(card('1'))]);
    await enqueueDetails(store, 's1', NOW, { provider: 'google' });
    const job = (await leasePlace(store, { sweepId: 's1', holder: 'h', now: NOW, leaseMs: LEASE }))!;
    expect(await releasePlace(store, { jobId: job.id, holder: 'other', now: NOW })).toBe(false);
    expect(await releasePlace(store, { jobId: job.id, holder: 'h', now: NOW })).toBe(true);
    expect(await leasePlace(store, { sweepId: 's1', holder: 'h', now: NOW, leaseMs: LEASE })).toMatchObject({ id: job.id, attempts: 0 });
    store.close();
  });
});
