// @vitest-environment happy-dom
/**
 * Issue 16: complete listings from the data the page already has. On the real captures (read
 * in place), on the replica's pages whose cards leave phones off, and with forged or
 * contradicting page data, which must be dropped and counted, never believed.
 */
import { describe, expect, it } from 'vitest';
import { auditObservation } from '../../utils/domain/audit-page';
import type { Listing, StoredListing } from '../../utils/domain/listing';
import { unwrapLink } from '../../utils/providers/google/fields';
import { extractFeed } from '../../utils/providers/google/feed';
import { idsFromPair } from '../../utils/providers/google/ids';
import { createNetworkCollector } from '../../utils/providers/google/network-hook';
import { buildObservation } from '../../utils/providers/google/observe';
import { joinPageData, pageDataLookup } from '../../utils/providers/google/page-data';
import { PIN_TOLERANCE_DEG } from '../../utils/listing/contradiction';
import { placeFromInnerState } from '../../utils/providers/google/app-state';
import { readPlaceArray } from '../../utils/providers/google/place-array';
import { parseTbmBody } from '../../utils/providers/google/tbm';
import { mergeListing } from '../../utils/store/listing-merge';
import { openReplicaSearch } from '../helpers/replica-search-page';
import { clientRenderer } from '../replica/client-renderer';
import { answerSearchXhr } from '../replica/search-xhr';
import { createWorld, type ReplicaPlace } from '../replica/world';
import { readRealPage, realPagesDescribe } from '../helpers/real-pages';
const realDescribe = realPagesDescribe('google-page-data.test.ts');

const read = (file: string): string => readRealPage('google', file);

/** Share of listings (in %) with each field known: the figure the issue asks for. */
const FIELDS = ['address', 'addressParts', 'categories', 'phone', 'phoneE164', 'website', 'hours', 'openingHours', 'priceLevel'] as const;
function completeness(listings: readonly Listing[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of FIELDS) {
    const known = listings.filter((l) => {
      const v = l[f];
      return v !== null && v !== undefined && (!Array.isArray(v) || v.length > 0);
    }).length;
    out[f] = Math.round((1000 * known) / Math.max(1, listings.length)) / 10;
  }
  return out;
}

const E164 = /^\+[1-9]\d{7,14}$/;

realDescribe('real capture: tbm=map response for coffee near Athens (2024-12)', () => {
  const file = read('gmaps_tbm-map_search_coffee-athens_en_2024-12.json');
  const raw = (JSON.parse(file) as unknown[][])[0]![1] as unknown[][];
  const rawPlaces = raw.slice(1).map((item) => item[14] as unknown[]);
  const out = parseTbmBody(`)]}'\n${file}`);
  if (out.blocked) throw new Error(out.reason);
  const places = out.places;

  it('every place gets the full address as the site formats it, with its parts', () => {
    expect(places).toHaveLength(20);
    for (const [i, p] of places.entries()) {
      const P = rawPlaces[i]!;
      expect(p.address).toBe(P[39]);
      // What a card prints is the first line only (P[2][0]); the full one says more.
      expect(p.address!.startsWith(`${(P[2] as string[])[0]}, `)).toBe(true);
      expect(p.address!.endsWith(', Greece')).toBe(true);
      expect(p.addressParts).toMatchObject({ countryCode: 'GR' });
      expect(p.addressParts!.street).toBeTruthy();
      expect(p.addressParts!.postalCode).toMatch(/^\d{3} \d{2}$/);
      // The parts are the site's own, spelt as it spells them (one says "Agii Anargiri" in
      // the address and "Agioi Anargyroi" in the parts): kept as given, never cross-derived.
      expect(p.addressParts!.city).toBeTruthy();
      expect(p.sources?.address).toBe('page-data');
    }
  });

  it('keeps every category, main one first', () => {
    for (const [i, p] of places.entries()) {
      expect(p.categories).toEqual(rawPlaces[i]![13]);
      expect(p.category).toBe(p.categories![0]);
    }
    expect(places.find((p) => p.name === 'Coffee Maniacs micro roasters')!.categories).toEqual(['Coffee shop', 'Cafe']);
    expect(places.filter((p) => p.categories!.length > 1).length).toBeGreaterThan(0);
  });

  it('phones in display form and E.164, hours Monday first with their times', () => {
    for (const p of places.filter((x) => x.phone)) expect(p.phoneE164).toMatch(E164);
    const dream = places.find((p) => p.name === 'Dream Coffee')!;
    expect(dream.phoneE164).toBe('+302102616578');
    expect(dream.openingHours!.map((d) => d.day)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(dream.openingHours![0]).toEqual({ day: 1, dayName: 'Monday', text: '7 AM–8:30 PM', intervals: [{ open: '07:00', close: '20:30' }] });
    expect(dream.openingHours![6]).toEqual({ day: 7, dayName: 'Sunday', text: 'Closed', intervals: [] });
    expect(dream.closed).toBeNull();
    console.log('Athens capture, page data completeness (%):', JSON.stringify(completeness(places)));
  });
});

realDescribe('real capture: Kipriakon place state (Greek, 2024-10)', () => {
  const place = placeFromInnerState(JSON.parse(read('gmaps_app-init-state_3-6_place_kipriakon-limassol_el_2024-10.json')))!.place!;

  it('has the week in the results language, structured, Monday first', () => {
    expect(place.openingHours).toHaveLength(7);
    expect(place.openingHours![0]).toEqual({ day: 1, dayName: 'Δευτέρα', text: '9:00 π.μ.–11:30 μ.μ.', intervals: [{ open: '09:00', close: '23:30' }] });
    expect(place.hours!.split('; ')).toHaveLength(7);
    expect(place.hours!.startsWith('Δευτέρα: 9:00 π.μ.–11:30 μ.μ.; Τρίτη: ')).toBe(true);
  });

  it('E.164 from the international form when the digits are local; price; parts; not closed', () => {
    expect(place.phone).toBe('25 101555');
    expect(place.phoneE164).toBe('+35725101555');
    expect(place.priceLevel).toBe('€€');
    expect(place.addressParts).toEqual({ street: 'Old port', district: null, city: 'Λεμεσός', postalCode: '3042', region: null, countryCode: 'CY' });
    expect(place.closed).toBeNull();
    console.log('Kipriakon capture, page data completeness (%):', JSON.stringify(completeness([place])));
  });

  it('the older P[34][1] block gives the same week when P[203] is missing', () => {
    const jd = JSON.parse(read('gmaps_app-init-state_3-6_place_kipriakon-limassol_el_2024-10.json')) as unknown[];
    const P = [...(jd[6] as unknown[])];
    P[203] = null;
    const older = readPlaceArray(P);
    if (!older.ok) throw new Error(older.reason);
    expect(older.place.openingHours).toEqual(place.openingHours);
  });
});

/** A P with the §1.5 paths filled in; `patch` overrides single indices. */
function placeArray(lo: bigint, name: string, patch: Record<number, unknown> = {}): unknown[] {
  const ids = idsFromPair(0x14a1a32f316b15a1n, lo);
  const p: unknown[] = new Array(204).fill(null);
  p[9] = [null, null, 38.03, 23.7];
  p[10] = ids.featureId;
  p[11] = name;
  p[13] = ['Cafe'];
  p[39] = '1 Main St, Athens 105 57, Greece';
  p[78] = ids.placeId;
  p[178] = [
    [
      '+30 21 0000 0000',
      [
        ['21 0000 0000', 1],
        ['+30 21 0000 0000', 2],
      ],
      null,
      '+302100000000',
    ],
  ];
  for (const [i, v] of Object.entries(patch)) p[Number(i)] = v;
  return p;
}

function parsed(p: unknown[]): Listing {
  const r = readPlaceArray(p);
  if (!r.ok) throw new Error(r.reason);
  return r.place;
}

describe('the schema: strict core, lenient details', () => {
  it('an unknown shape of a detail block reads as not given, the place stays', () => {
    for (const junk of ['x', 5, [[['Monday', 'not a day']]], { 0: [] }]) {
      const p = parsed(placeArray(1n, 'A', { 203: junk, 183: junk, 34: junk }));
      expect([p.name, p.hours, p.addressParts ?? null]).toEqual(['A', undefined, null]);
    }
  });

  it('a core field of the wrong shape refuses the whole place, with the path in the reason', () => {
    const r = readPlaceArray(placeArray(1n, 'A', { 4: [null, null, null, null, null, null, null, 9, 1] }));
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/^P\[4\]\[7\]: /) });
    expect(readPlaceArray(placeArray(1n, 'A', { 13: ['Cafe', 'x'.repeat(500)] })).ok).toBe(false);
  });

  it('marks permanently and temporarily closed places from their status line', () => {
    const status = (text: string) => parsed(placeArray(2n, 'B', { 203: [null, [null, 0, 1, null, [text]]] })).closed;
    expect(status('Permanently closed')).toBe('permanently');
    expect(status('Temporarily closed')).toBe('temporarily');
    expect(status('임시 휴업')).toBe('temporarily');
    expect(status('Open ⋅ Closes 8 PM')).toBeNull();
    expect(parsed(placeArray(2n, 'B')).closed).toBeUndefined();
  });

  it('every phone, the first with its E.164; the full address from P[18] or P[2] when P[39] is missing', () => {
    const p = parsed(placeArray(3n, 'C', { 39: null, 178: [['+30 21 0000 0000', null, null, '+302100000000'], ['+30 69 1111 1111']] }));
    expect([p.phone, p.phoneE164, p.otherPhones]).toEqual(['+30 21 0000 0000', '+302100000000', ['+30 69 1111 1111']]);
    expect(parsed(placeArray(4n, 'Caf', { 39: null, 18: 'Caf, 2 Odos, Athens 105 57' })).address).toBe('2 Odos, Athens 105 57');
    expect(parsed(placeArray(5n, 'D', { 39: null, 2: ['3 Odos', 'Athens 105 57', 'Greece'] })).address).toBe('3 Odos, Athens 105 57, Greece');
  });

  it('websites lose /url?q= and ad-click wrappers', () => {
    const wrapped = parsed(placeArray(6n, 'E', { 7: ['/url?q=https://e.example/menu&opi=1&sa=U'] }));
    expect(wrapped.website).toBe('https://e.example/menu');
    expect(unwrapLink('https://www.googleadservices.com/pagead/aclk?sa=L&ai=x&adurl=https%3A%2F%2Fshop.example%2F')).toBe('https://shop.example/');
    expect(unwrapLink('https://www.google.com/aclk?sa=L&adurl=https://shop.example/x')).toBe('https://shop.example/x');
    expect(unwrapLink('https://www.googleadservices.com/pagead/aclk?sa=L&ai=x')).toBeNull();
  });
});

/** A card as the feed reads it: street fragment, no phone. */
function card(lo: bigint, name: string, extra: Partial<Listing> = {}): Listing {
  const ids = idsFromPair(0x14a1a32f316b15a1n, lo);
  return {
    key: `google:${ids.cid}`,
    provider: 'google',
    providerId: ids.cid,
    placeId: ids.placeId,
    featureId: ids.featureId,
    cid: ids.cid,
    url: `https://www.google.com/maps?cid=${ids.cid}`,
    name,
    category: 'Cafe',
    address: '1 Main St',
    phone: null,
    website: null,
    rating: 4.5,
    reviews: 10,
    lat: 38.03,
    lng: 23.7,
    sponsored: false,
    sources: { category: 'card', address: 'card', rating: 'card', reviews: 'card' },
    ...extra,
  };
}

describe('joining page data to the DOM', () => {
  it('fills what the card lacks, keeps the DOM name and pin, records sources', () => {
    const data = parsed(placeArray(1n, 'Alpha'));
    const out = joinPageData([card(1n, 'Alpha')], pageDataLookup([data]));
    expect(out).toMatchObject({ filled: 1, dropped: 0 });
    expect(out.listings[0]).toMatchObject({
      name: 'Alpha',
      address: '1 Main St, Athens 105 57, Greece',
      phone: '+30 21 0000 0000',
      phoneE164: '+302100000000',
      rating: 4.5,
      sources: { address: 'page-data', phone: 'page-data', rating: 'card', category: 'page-data' },
    });
  });

  it.each([
    ['another name', placeArray(1n, 'Not Alpha'), 'name'],
    ['a pin 1 km away', placeArray(1n, 'Alpha', { 9: [null, null, 38.04, 23.7] }), 'coordinates'],
    ['another place_id for the same CID', placeArray(1n, 'Alpha', { 10: null, 78: idsFromPair(0x1n, 1n).placeId }), 'id'],
  ])('drops page data with %s and counts it, the card stays as it was', (_, P, reason) => {
    const dom = card(1n, 'Alpha');
    const out = joinPageData([dom, { ...dom, sponsored: true }], pageDataLookup([parsed(P)]));
    expect(out.listings[0]).toEqual(dom);
    expect(out).toMatchObject({ filled: 0, dropped: 1, reasons: { [reason]: 1 } });
  });

  it('accepts a pin within the tolerance, and the same name in other case and spacing', () => {
    const near = parsed(placeArray(1n, 'ALPHA ', { 9: [null, null, 38.03 + PIN_TOLERANCE_DEG / 2, 23.7] }));
    expect(joinPageData([card(1n, 'Alpha')], pageDataLookup([near])).filled).toBe(1);
  });

  it('two copies of one place that disagree are both disbelieved', () => {
    const real = parsed(placeArray(1n, 'Alpha'));
    const forged = parsed(placeArray(1n, 'Alpha', { 178: [['+1 900 555 0100']] }));
    const out = joinPageData([card(1n, 'Alpha')], pageDataLookup([real, forged]));
    expect(out).toMatchObject({ filled: 0, dropped: 1, reasons: { 'copies disagree': 1 } });
    expect(out.listings[0]!.phone).toBeNull();
  });

  it('never adds a place the DOM did not show', () => {
    const out = joinPageData([card(1n, 'Alpha')], pageDataLookup([parsed(placeArray(9n, 'Ghost'))]));
    expect(out.listings.map((l) => l.name)).toEqual(['Alpha']);
  });
});

describe('the store keeps the more complete value, never merely the later one', () => {
  const ctx = { now: 2, collection: 'browsing', keyword: null, cellId: null };
  const full = joinPageData([card(1n, 'Alpha')], pageDataLookup([parsed(placeArray(1n, 'Alpha'))])).listings[0]!;
  const stored: StoredListing = { ...full, firstSeen: 1, lastSeen: 1, collections: ['s'], keywords: [], cells: [] };

  it('a later card with the street fragment and the phone without E.164 changes nothing', () => {
    const later = mergeListing(stored, card(1n, 'Alpha', { phone: '21 0000 0000', sources: { phone: 'card' } }), ctx);
    expect(later).toMatchObject({ address: full.address, phone: full.phone, phoneE164: '+302100000000', categories: ['Cafe'] });
    expect(later.sources).toMatchObject({ address: 'page-data', phone: 'page-data' });
  });

  it('a different number is a change: the newer wins, with nothing of the old one', () => {
    const later = mergeListing(stored, card(1n, 'Alpha', { phone: '+30 21 9999 9999', sources: { phone: 'card' } }), ctx);
    // The E.164 form is the new number's, read from it; the old one's (+302100000000) is gone.
    expect([later.phone, later.phoneE164 ?? null, later.sources?.phone]).toEqual(['+30 21 9999 9999', '+302199999999', 'card']);
  });

  it('refuses to store a listing whose page-data fields have the wrong shape', async () => {
    const { listingProblem } = await import('../../utils/store/listing-merge');
    expect(listingProblem(full)).toBeNull();
    expect(listingProblem({ ...full, categories: [5] })).toMatch(/categories/);
    expect(listingProblem({ ...full, sources: { phone: 'network' } })).toMatch(/source/);
  });
});

describe('replica: cards that leave phones off, page data that has them', () => {
  const world = createWorld({ seed: 16, places: 6000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 4 });
  const switches = { signedIn: true, sparseZoomOut: true, sponsored: true };
  const view = { lat: 37.5665, lng: 126.978, zoom: 16 };

  function visit() {
    const run = openReplicaSearch(world, 'cafe', view, { switches });
    run.settle();
    for (let i = 0; i < 6; i++) {
      run.scrollFeed();
      run.settle();
    }
    const network = createNetworkCollector();
    // The bodies the page's own requests received, as the MAIN-world hook would copy them.
    for (const url of run.requests) network.accept(answerSearchXhr(world, switches, new URLSearchParams(url.split('?')[1])).body);
    return { run, network, feed: extractFeed(document) };
  }

  const truthOf = (l: Listing): ReplicaPlace => world.byCid.get(l.providerId)!;

  it('page data completes every organic listing to the ground truth, and the audit still counts the DOM', () => {
    const { run, network, feed } = visit();
    const before = buildObservation({ url: run.url(), pageKind: 'results', feed, network: network.snapshot(), elapsedMs: 0 });
    const after = buildObservation({ url: run.url(), pageKind: 'results', feed, network: network.snapshot(), pageData: network.pageData(), elapsedMs: 0 });
    const organicBefore = before.listings.filter((l) => !l.sponsored);
    const organic = after.listings.filter((l) => !l.sponsored);
    expect(organic.length).toBeGreaterThan(40);

    // The cards really leave phones off that the data has: the test would pass vacuously otherwise.
    const hidden = organicBefore.filter((l) => l.phone === null && truthOf(l).phone !== null);
    expect(hidden.length).toBeGreaterThan(3);
    expect(hidden.every((l) => !clientRenderer().cardShowsPhone([null, null, null, null, null, null, null, null, null, null, l.featureId]))).toBe(true);

    for (const l of organic) {
      const p = truthOf(l);
      expect(l.phone).toBe(p.phone?.display ?? null);
      expect(l.phoneE164 ?? null).toBe(p.phone?.digits ?? null);
      expect(l.address).toBe(p.fullAddress);
      expect(l.addressParts).toEqual({
        street: p.address.street,
        district: p.address.district,
        city: p.address.city,
        postalCode: p.address.postal,
        region: null,
        countryCode: 'KR',
      });
      expect(l.categories).toEqual(p.categories);
      expect(l.website).toBe(p.website);
      expect(l.priceLevel ?? null).toBe(p.priceLevel);
      expect((l.openingHours ?? []).length).toBe(p.hours === null ? 0 : 7);
    }
    // Page data never changes what the page is judged on.
    const { pageDataDropped: _, ...auditAfter } = auditObservation(after);
    expect(auditAfter).toEqual(auditObservation(before));
    expect(after.pageDataDropped).toBe(0);
    console.log('replica before (cards only, %):', JSON.stringify(completeness(organicBefore)));
    console.log('replica after (cards + page data, %):', JSON.stringify(completeness(organic)));
    const truth = organic.map(truthOf);
    const fullShare = (ls: Listing[]) => ((100 * ls.filter((l) => l.address === truthOf(l).fullAddress).length) / ls.length).toFixed(1);
    console.log(`replica full address: before ${fullShare(organicBefore)}%, after ${fullShare(organic)}%`);
    console.log(
      `replica ground truth: phone ${((100 * truth.filter((p) => p.phone).length) / truth.length).toFixed(1)}%, ` +
        `hours ${((100 * truth.filter((p) => p.hours).length) / truth.length).toFixed(1)}%, ` +
        `price ${((100 * truth.filter((p) => p.priceLevel).length) / truth.length).toFixed(1)}%, ` +
        `website ${((100 * truth.filter((p) => p.website).length) / truth.length).toFixed(1)}% of ${truth.length}`,
    );
  });

  it('forged page data for shown places is dropped and counted in the audit; for unshown ones it adds nothing', () => {
    const { run, network, feed } = visit();
    const shown = feed.listings.filter((l) => !l.sponsored);
    const [a, b] = [truthOf(shown[0]!), truthOf(shown[1]!)];
    const forgedP = (p: ReplicaPlace, patch: Record<number, unknown>) => {
      const P: unknown[] = new Array(180).fill(null);
      Object.assign(P, { 9: [null, null, p.lat, p.lng], 10: p.featureId, 11: p.name, 78: p.placeId, 178: [['+82 70-0000-0000']] }, patch);
      return P;
    };
    const ghost = world.places.find((p) => !shown.some((l) => l.cid === p.cid))!;
    const body = (Ps: unknown[][]) => `)]}'\n${JSON.stringify([['cafe', [[null], ...Ps.map((P) => [...new Array(14).fill(null), P])]]])}`;
    network.accept(body([forgedP(a, { 11: 'Totally Different' }), forgedP(b, { 9: [null, null, b.lat + 0.01, b.lng] }), forgedP(ghost, {})]));

    const obs = buildObservation({ url: run.url(), pageKind: 'results', feed, network: network.snapshot(), pageData: network.pageData(), elapsedMs: 0 });
    // a and b were already known from the page's real responses: the forged copies disagree with those.
    expect(obs.pageDataDropped).toBe(2);
    expect(auditObservation(obs)).toMatchObject({ pageDataDropped: 2, verdict: 'ok' });
    expect(obs.warnings.some((w) => w.startsWith('page data dropped for 2 place(s)'))).toBe(true);
    const byCid = new Map(obs.listings.map((l) => [l.cid, l]));
    expect(byCid.get(a.cid)!.name).toBe(a.name);
    expect(byCid.get(a.cid)!.phone).not.toBe('+82 70-0000-0000');
    expect(byCid.has(ghost.cid)).toBe(false);
    expect(obs.listings.length).toBe(feed.listings.length);
  });
});
