// @vitest-environment happy-dom
/**
 * The content side of the place-details pass (utils/providers/{google,naver,kakao}/place-details.ts): each site's place
 * page read into one Listing, on the real captures where there is one (Tipsy Sticks, Nicosia:
 * panel + APP_INITIALIZATION_STATE; 동암상회's pcmap Apollo state) and on the replicas' place
 * pages (Google, Kakao); a state naming another place is never used; the wait for the place
 * asked for is bounded and returns what it saw.
 */
import { describe, expect, it } from 'vitest';
import { waitForPlace } from '../../utils/content/place-details';
import { createPlacePageDriver } from '../../utils/details/page';
import { readGooglePlace } from '../../utils/providers/google/place-details';
import { readKakaoPlace } from '../../utils/providers/kakao/place-details';
import { readNaverPlace } from '../../utils/providers/naver/place-details';
import { needsDetails } from '../../utils/details/needs';
import { placePageUrl as replicaPlaceUrl } from '../replica/hrefs';
import { placePageHtml } from '../replica/pages';
import { kakaoPlacePageHtml } from '../replica/kakao/pages';
import { openingHoursText } from '../../utils/export/columns';
import { readRealPage, realPageParser, realPagesIt, realPagesDescribe } from '../helpers/real-pages';
import { fakeClock } from '../helpers/details-sim';
import { world } from '../helpers/sim-world';
import { kw } from '../helpers/kakao-content-harness';
const realIt = realPagesIt('details-content.test.ts');
const realDescribe = realPagesDescribe('details-content.test.ts');

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const parseReal = realPageParser();

describe('Google place page', () => {
  it('the replica page: panel and state joined: full address and parts, phone with E.164, hours, categories, by source', () => {
    const place = world.places.find((p) => p.phone && p.website && p.hours && p.hours !== 'open24h')!;
    const url = replicaPlaceUrl(place);
    const l = readGooglePlace(
      parse(placePageHtml({ place, view: { lat: place.lat, lng: place.lng, zoom: 17 }, variant: 'a', signedIn: true, canonicalUrl: null })),
      url,
    )!;
    expect(l).toMatchObject({
      key: `google:${place.cid}`,
      name: place.name,
      address: place.fullAddress,
      phone: place.phone!.display,
      phoneE164: place.phone!.digits,
      website: place.website,
    });
    expect(l.addressParts).toMatchObject({ postalCode: place.address.postal, countryCode: place.address.countryCode });
    expect(l.categories).toEqual(place.categories);
    expect(l.openingHours).toHaveLength(7);
    expect(l.sources).toMatchObject({ phone: expect.stringMatching(/panel|page-data/), hours: 'page-data', addressParts: 'page-data' });
    // Read from a complete record: a second pass would not load it again.
    expect(needsDetails(l)).toBe(false);
  });

  it("a state naming another place than the panel's is dropped whole: the panel alone is read", () => {
    const [a, b] = world.places.filter((p) => p.phone);
    const page = placePageHtml({ place: a!, view: { lat: a!.lat, lng: a!.lng, zoom: 17 }, variant: 'a', signedIn: true, canonicalUrl: null });
    const other = placePageHtml({ place: b!, view: { lat: b!.lat, lng: b!.lng, zoom: 17 }, variant: 'a', signedIn: true, canonicalUrl: null });
    const forged = page.replace(
      /<script>window\.APP_INITIALIZATION_STATE=[\s\S]*?<\/script>/,
      /<script>window\.APP_INITIALIZATION_STATE=[\s\S]*?<\/script>/.exec(other)![0],
    );
    const l = readGooglePlace(parse(forged), replicaPlaceUrl(a!))!;
    expect(l.key).toBe(`google:${a!.cid}`);
    expect(l.name).toBe(a!.name);
    expect(l.addressParts).toBeUndefined();
    expect(l.hours).toBeUndefined();
  });

  realIt('the real Tipsy Sticks capture (Nicosia, 2023-04): panel phone and website, hours from its state', () => {
    const doc = parseReal(readRealPage('google', 'gmaps_place_page_tipsy-sticks-nicosia_en_2023-04.html'), 'https://www.google.com/maps/place/Tipsy+Sticks/');
    const l = readGooglePlace(doc, 'https://www.google.com/maps/place/Tipsy+Sticks/')!;
    expect(l).toMatchObject({ key: 'google:13256035819497102811', website: 'https://www.thetipsysticks.com/', rating: 4.7, reviews: 20 });
    expect(l.phone).toMatch(/22 783333/);
    expect(l.address).toMatch(/Nicosia|Λευκωσία/);
  });

  it('is null on a page that shows no place', () => {
    expect(readGooglePlace(parse('<html><body><div role="main"><div role="feed"></div></div></body></html>'), 'https://www.google.com/maps?cid=1')).toBeNull();
  });
});

realDescribe('Naver place page (pcmap Apollo state)', () => {
  const state = readRealPage('naver', 'naver_pcmap_place_apollo-state_1446535451_ko_2026-05.json');
  const doc = parse(`<html><head><script>window.__APOLLO_STATE__ = ${state};</script></head><body></body></html>`);

  it('reads the place the URL names, as page data', () => {
    const l = readNaverPlace(doc, 'https://pcmap.place.naver.com/restaurant/1446535451/home')!;
    expect(l).toMatchObject({
      key: 'naver:1446535451',
      provider: 'naver',
      name: '동암상회',
      roadAddress: '인천 부평구 백범로468번길 13 101호',
      lotAddress: '인천 부평구 십정동 440-10',
      phone: '0507-1474-8861',
    });
    expect(l.sources?.phone).toBe('page-data');
  });

  it('never reads a state left from another place, nor a list page', () => {
    expect(readNaverPlace(doc, 'https://pcmap.place.naver.com/restaurant/1813533684/home')).toBeNull();
    expect(readNaverPlace(doc, 'https://pcmap.place.naver.com/place/list?query=x')).toBeNull();
  });
});

describe('Kakao place page', () => {
  it('the replica page: name, both addresses, phone, as the place panel', () => {
    const k = kw.places.find((p) => p.phone && p.roadAddress && p.jibunAddress)!;
    const url = `https://place.map.kakao.com/${k.confirmId}`;
    const l = readKakaoPlace(parse(kakaoPlacePageHtml(k)), url)!;
    expect(l).toMatchObject({
      key: `kakao:${k.confirmId}`,
      name: k.name,
      roadAddress: k.roadAddress,
      lotAddress: k.jibunAddress,
      phone: k.phone,
      address: k.roadAddress,
    });
    expect(l.sources?.phone).toBe('panel');
  });

  it('the week under the page\u2019s 영업시간 heading, one line or a line a day, read as the world\u2019s hours; none where the place gives none', () => {
    const forms = new Set<number>();
    let withHours = 0;
    for (const k of kw.places.slice(0, 200)) {
      const l = readKakaoPlace(parse(kakaoPlacePageHtml(k)), `https://place.map.kakao.com/${k.confirmId}`)!;
      const h = k.place.hours;
      if (h === null) {
        expect(l.hours ?? null, k.confirmId).toBeNull();
        continue;
      }
      withHours++;
      forms.add(Number(k.confirmId) % 2);
      const span = h === 'open24h' ? '00:00-24:00' : `${String(h.opens).padStart(2, '0')}:00-${String(h.closes).padStart(2, '0')}:00`;
      expect(openingHoursText(l.openingHours), k.confirmId).toBe(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'].map((d) => `${d} ${span}`).join('; '));
    }
    expect(withHours).toBeGreaterThan(20);
    expect(forms.size).toBe(2);
  });
});

describe('waiting for the place asked for', () => {
  it('polls until the page shows it, and after the bound returns what it saw (another place, or null)', async () => {
    const clock = fakeClock();
    const env = { doc: document, url: () => 'u', now: clock.now, sleep: clock.sleep };
    const req = { key: 'google:2', provider: 'google' as const, settleMs: 3000 };
    const listing = (key: string) => ({ key }) as never;
    let reads = 0;
    expect(await waitForPlace(env, req, () => (++reads < 4 ? null : listing('google:2')))).toEqual({ key: 'google:2' });
    expect(reads).toBe(4);
    const start = clock.now();
    expect(await waitForPlace(env, req, () => listing('google:9'))).toEqual({ key: 'google:9' });
    expect(clock.now() - start).toBeGreaterThanOrEqual(3000);
    expect(await waitForPlace(env, req, () => null)).toBeNull();
  });
});

describe('the background side of collectPlace', () => {
  it('asks again while the content script is not there yet (or the page replaced itself), and passes its own errors on', async () => {
    let calls = 0;
    const base = { load: async (_t: number, url: string) => ({ url }), exists: async () => true };
    const driver = createPlacePageDriver(
      base,
      async () => {
        if (++calls < 3) throw new Error('Could not establish connection. Receiving end does not exist.');
        return { key: 'google:1' } as never;
      },
      async () => {},
    );
    expect(await driver.collectPlace(1, { key: 'google:1', provider: 'google', settleMs: 10 }, 5000)).toEqual({ key: 'google:1' });
    expect(calls).toBe(3);
    const refusing = createPlacePageDriver(
      base,
      async () => Promise.reject(new Error('Not accepted.')),
      async () => {},
    );
    await expect(refusing.collectPlace(1, { key: 'google:1', provider: 'google', settleMs: 10 }, 5000)).rejects.toThrow('Not accepted.');
  });
});
