/**
 * Every Google capture in ../shared/real-pages/google/, read in place. Expected values
 * were read off the files by hand (see SOURCES.md there for what each file is).
 *
 * Pages are parsed in their own happy-dom Window whose network answers 404 locally: the
 * captures reference Google's scripts, styles and preloads, which must not be fetched.
 */
import { beforeAll, expect, it } from 'vitest';
import { appStateFromDocument, placeFromInnerState } from '../../utils/providers/google/app-state';
import { extractFeed, type FeedExtraction } from '../../utils/providers/google/feed';
import { buildObservation } from '../../utils/providers/google/observe';
import { detectPageKind } from '../../utils/providers/google/page-kind';
import { extractPlacePanel } from '../../utils/providers/google/place';
import { parseTbmBody } from '../../utils/providers/google/tbm';
import { DREAM_COFFEE_CARD } from '../helpers/dream-coffee';
import { readRealPage, realPageParser, realPagesDescribe } from '../helpers/real-pages';
const realDescribe = realPagesDescribe('google-real-pages.test.ts');

const read = (file: string): string => readRealPage('google', file);
const parse = realPageParser();
const parsePage = (html: string): Document => parse(html, 'https://www.google.com/maps');

realDescribe('Amsterdam results page (rendered, 2025-11, 99 cards, a place panel open)', () => {
  let doc: Document;
  let feed: FeedExtraction;
  beforeAll(() => {
    doc = parsePage(read('gmaps_search_feed_restaurants-amsterdam_en_2025-11.html'));
    feed = extractFeed(doc);
  });

  it('is a results page, with all 99 cards counted', () => {
    expect(detectPageKind(doc, 'https://www.google.com/maps/search/restaurants+in+Amsterdam+Centrum')).toBe('results');
    expect(feed.feed?.getAttribute('aria-label')).toBe('Results for restaurants in Amsterdam Centrum');
    expect(feed.cardsVisible).toBe(99);
    expect(feed.warnings).toEqual([]);
  });

  it('extracts every card: each card href maps to a listing with the card name', () => {
    const byKey = new Map(feed.listings.map((l) => [l.key, l]));
    const cards = [...doc.querySelectorAll('[role="feed"] [role="article"]')];
    expect(cards).toHaveLength(99);
    for (const card of cards) {
      const href = card.querySelector('a[href*="/maps/place/"]')!.getAttribute('href')!;
      const lo = /!1s0x[0-9a-f]+:0x([0-9a-f]+)/.exec(href)![1]!;
      const listing = byKey.get(`google:${BigInt(`0x${lo}`).toString()}`);
      expect(listing, href).toBeDefined();
      expect(listing!.name).toBe(card.getAttribute('aria-label'));
    }
    // BISOUS is advertised twice under the same href: one listing for it.
    expect(feed.listings).toHaveLength(98);
  });

  it('reads the first card as shown', () => {
    expect(feed.listings[0]).toEqual({
      key: 'google:12767831181282150353',
      provider: 'google',
      providerId: '12767831181282150353',
      featureId: '0x47c609e91734d71b:0xb13072d0007a87d1',
      placeId: 'ChIJG9c0F-kJxkcR0Yd6ANByMLE',
      cid: '12767831181282150353',
      url: 'https://www.google.com/maps?cid=12767831181282150353',
      name: 'The Pantry',
      category: 'Dutch',
      address: 'Leidsekruisstraat 21',
      phone: null,
      website: null,
      rating: 4.7,
      reviews: 8713,
      lat: 52.3634845,
      lng: 4.8849427,
      sponsored: false,
      sources: { category: 'card', address: 'card', rating: 'card', reviews: 'card' },
    });
  });

  it('flags exactly the sponsored cards', () => {
    const sponsored = feed.listings.filter((l) => l.sponsored).map((l) => l.name);
    expect(sponsored.sort()).toEqual(['BISOUS', 'Villa Maria Steakhouse']);
    const bisous = feed.listings.find((l) => l.name === 'BISOUS')!;
    expect(bisous).toMatchObject({ key: 'google:3155162444219114509', rating: 4.4, reviews: 169, address: '31 Albert Cuypstraat' });
    // Its ad link is an /aclk redirect with an empty adurl: dropped, not taken as the website.
    expect(bisous.website).toBeNull();
  });

  it('parses every rating and count, agreeing with the visible "4.7(8,713)" text of each card', () => {
    for (const card of doc.querySelectorAll('[role="feed"] [role="article"]')) {
      const name = card.getAttribute('aria-label');
      const listing = feed.listings.find((l) => l.name === name)!;
      const shown = card.querySelector('.MW4etd')!.textContent!;
      const count = card.querySelector('.UY7F9')!.textContent!.replace(/[(),]/g, '');
      expect([listing.rating, listing.reviews], name!).toEqual([Number(shown), Number(count)]);
    }
    const namKee = feed.listings.find((l) => l.name === 'Nam Kee')!;
    expect([namKee.category, namKee.address]).toEqual(['Chinese', 'Zeedijk 111-113']);
  });

  it('has no end-of-list marker (the capture stopped before the end)', () => {
    expect(feed.endOfList).toBe(false);
  });

  it('extracts the open place panel ("The Pantry") with the URL the browser shows', () => {
    const url =
      'https://www.google.com/maps/place/The+Pantry/@52.3634845,4.8823678,17z/data=!4m6!3m5' +
      '!1s0x47c609e91734d71b:0xb13072d0007a87d1!8m2!3d52.3634845!4d4.8849427!16s%2Fg%2F1tfxfwsp?entry=ttu';
    expect(extractPlacePanel(doc, url)).toEqual({
      key: 'google:12767831181282150353',
      provider: 'google',
      providerId: '12767831181282150353',
      featureId: '0x47c609e91734d71b:0xb13072d0007a87d1',
      placeId: 'ChIJG9c0F-kJxkcR0Yd6ANByMLE',
      cid: '12767831181282150353',
      url: 'https://www.google.com/maps?cid=12767831181282150353',
      name: 'The Pantry',
      category: 'Dutch restaurant',
      address: 'Leidsekruisstraat 21, 1017 RE Amsterdam, Netherlands',
      phone: '+31 20 620 0922',
      website: 'https://www.thepantry.nl/?redirect=yes',
      rating: 4.7,
      reviews: 8713,
      lat: 52.3634845,
      lng: 4.8849427,
      sponsored: false,
      sources: { category: 'panel', address: 'panel', phone: 'panel', website: 'panel', rating: 'panel', reviews: 'panel' },
    });
  });

  it('without a place URL, identifies the panel from its own booking link (no pin then)', () => {
    const place = extractPlacePanel(doc, 'https://www.google.com/maps/search/restaurants')!;
    expect([place.key, place.featureId, place.lat]).toEqual(['google:12767831181282150353', '0x47c609e91734d71b:0xb13072d0007a87d1', null]);
  });
});

realDescribe('Nicosia place page (rendered, 2023-04)', () => {
  let doc: Document;
  beforeAll(() => {
    doc = parsePage(read('gmaps_place_page_tipsy-sticks-nicosia_en_2023-04.html'));
  });

  it('is a place page', () => {
    expect(detectPageKind(doc, 'https://www.google.com/maps/place/Tipsy+Sticks/')).toBe('place');
  });

  it('extracts the panel, with ids and pin from its APP_INITIALIZATION_STATE', () => {
    // No URL was saved with the capture: the ids must come from the page's own state.
    expect(extractPlacePanel(doc, 'https://www.google.com/maps/place/Tipsy+Sticks/')).toEqual({
      key: 'google:13256035819497102811',
      provider: 'google',
      providerId: '13256035819497102811',
      featureId: '0x14de1786bd2659b9:0xb7f6e65826fa9ddb',
      placeId: 'ChIJuVkmvYYX3hQR2536Jljm9rc',
      cid: '13256035819497102811',
      url: 'https://www.google.com/maps?cid=13256035819497102811',
      name: 'Tipsy Sticks',
      category: 'Restaurant',
      address: 'Stasandrou 10, Nicosia 1060',
      phone: '22 783333',
      website: 'https://www.thetipsysticks.com/',
      rating: 4.7,
      reviews: 20,
      lat: 35.1673191,
      lng: 33.3635318,
      sponsored: false,
      sources: { category: 'panel', address: 'panel', phone: 'panel', website: 'panel', rating: 'panel', reviews: 'panel' },
    });
  });

  it('has the full place array in its state ([3][6]), agreeing with the panel', () => {
    const state = appStateFromDocument(doc)!;
    expect(state.place).toMatchObject({
      name: 'Tipsy Sticks',
      featureId: '0x14de1786bd2659b9:0xb7f6e65826fa9ddb',
      placeId: 'ChIJuVkmvYYX3hQR2536Jljm9rc',
      category: 'Restaurant',
      address: 'Stasandrou 10, Nicosia 1060',
      website: 'https://www.thetipsysticks.com/',
      phone: '22 783333',
      rating: 4.7,
      reviews: 20,
    });
  });
});

realDescribe('tbm=map search response, coffee near Athens (2024-12, 20 places)', () => {
  const file = read('gmaps_tbm-map_search_coffee-athens_en_2024-12.json');
  // The capture lost its first line; put the wire framing back, in both variants.
  const wire = `)]}'\n${file}`;
  const tch = `${JSON.stringify({ c: 0, d: `)]}'\n${file}` })}/*""*/`;

  it.each([
    ['direct', wire],
    ['tch=1', tch],
  ])('%s framing: 20 places, none dropped', (_, body) => {
    const out = parseTbmBody(body);
    if (out.blocked) throw new Error(out.reason);
    expect(out.places).toHaveLength(20);
    expect(out.dropped).toBe(0);
    expect(out.via).toBe('path');
    expect(new Set(out.places.map((p) => p.key)).size).toBe(20);
  });

  it('reads the first result as the file has it', () => {
    const out = parseTbmBody(wire);
    if (out.blocked) throw new Error(out.reason);
    expect(out.places[0]).toEqual({
      ...DREAM_COFFEE_CARD,
      // Issue 16: what the card does not print (tests/unit/google-page-data.test.ts has the rest).
      categories: ['Coffee shop'],
      addressParts: { street: 'Eakou 74', district: null, city: 'Ilion', postalCode: '131 22', region: null, countryCode: 'GR' },
      phoneE164: '+302102616578',
      hours: expect.stringMatching(/^Monday: 7 AM–8:30 PM; .*; Sunday: Closed$/),
      openingHours: expect.any(Array),
      closed: null,
      sources: expect.objectContaining({ address: 'page-data', phone: 'page-data', hours: 'page-data' }),
    });
    const nook = out.places.find((p) => p.name === 'NooK')!;
    expect([nook.reviews, nook.website, nook.category]).toEqual([1670, 'https://nookofficial.gr/', 'Coffee shop']);
  });

  it('finds the same 20 by the tree walk when the results path moves', () => {
    const moved = `)]}'\n[["moved"],[${file}]]`;
    const out = parseTbmBody(moved);
    if (out.blocked) throw new Error(out.reason);
    expect(out.via).toBe('tree');
    const direct = parseTbmBody(wire);
    if (direct.blocked) throw new Error(direct.reason);
    expect(out.places.map((p) => p.key)).toEqual(direct.places.map((p) => p.key));
  });

  it('calls the raw file (no prefix) and an HTML page blocked', () => {
    expect(parseTbmBody(file).blocked).toBe(true);
    expect(parseTbmBody('<html><body>Our systems have detected unusual traffic</body></html>').blocked).toBe(true);
  });
});

realDescribe('Kipriakon place state (APP_INITIALIZATION_STATE[3][6], Greek, 2024-10)', () => {
  const inner = read('gmaps_app-init-state_3-6_place_kipriakon-limassol_el_2024-10.json');

  const expected = {
    key: 'google:16519582940102929223',
    featureId: '0x14e732fd76f0d90d:0xe5415928d6702b47',
    placeId: 'ChIJDdnwdv0y5xQRRytw1ihZQeU',
    name: 'Κυπριακόν',
    category: 'Εστιατόριο',
    address: 'Old port, Λεμεσός 3042',
    phone: '25 101555',
    website: null,
    rating: 4.1,
    reviews: 516,
    lat: 34.670595399999996,
    lng: 33.042456699999995,
  };

  it('reads the place array at data[6]', () => {
    const state = placeFromInnerState(JSON.parse(inner))!;
    expect(state.place).toMatchObject(expected);
  });

  it('finds it inside a page script, with [3] as an array or as an object with obfuscated keys', () => {
    const prefixed = JSON.stringify(`)]}'\n${inner}`);
    for (const slot of [`[null,null,null,null,null,null,${prefixed}]`, `{"xQ3Lp":[null,null,null,null,null,${prefixed}]}`]) {
      const doc = parsePage(
        `<html><head><script>window.foo=1;window.APP_INITIALIZATION_STATE=[[[1,2,3]],null,null,${slot}];window.bar="]";</script></head><body></body></html>`,
      );
      expect(appStateFromDocument(doc)?.place).toMatchObject(expected);
    }
  });
});

realDescribe('Kochi place page fetched without JavaScript (2026-07)', () => {
  let doc: Document;
  const url = 'https://www.google.com/maps/place/Achus+Nest/';
  beforeAll(() => {
    doc = parsePage(read('gmaps_place_page_RAW-no-js_achus-nest-kochi_en-IN_2026-07.html'));
  });

  it('is recognised as not enough data: no feed, no panel, no listings, no throw', () => {
    expect(detectPageKind(doc, url)).toBe('unknown');
    const feed = extractFeed(doc);
    expect([feed.feed, feed.cardsVisible, feed.listings]).toEqual([null, 0, []]);
    expect(extractPlacePanel(doc, url)).toBeNull();
    const obs = buildObservation({ url, pageKind: 'unknown', feed, place: null, elapsedMs: 0 });
    expect([obs.cardsVisible, obs.listings, obs.stopReason]).toEqual([0, [], 'not-a-feed']);
  });

  it('still holds the short state (only a feature id and the query address)', () => {
    const state = appStateFromDocument(doc)!;
    expect(state.place).toBeNull();
    expect(state.ids.featureId).toBe('0x3b080d01273a820d:0xb486b938a6f7c697');
    expect(state.name).toMatch(/^Achus Nest, PNRA-79/);
  });
});
