/**
 * Each replica's own view of a world place (issue 24, tests/replica/site-views.ts): drawn from the
 * seed, the place and the site alone; shares near the documented ones; served by the three
 * replicas (pins, names, phones, closed, presence, ground truth); absent, nothing changes; and the
 * truth helper's ids lead back to the place through each replica's own id maps.
 */
import { describe, expect, it } from 'vitest';
import { bboxContains } from '../../utils/geo/bbox';
import { haversineMetres } from '../../utils/geo/distance';
import { bboxToWcongRect, wcongnamulToWgs84, wcongRectContains } from '../../utils/geo/wcongnamul';
import { kakaoWorld } from '../replica/kakao/places';
import { kakaoGroundTruth, placeRecord } from '../replica/kakao/search';
import { DEFAULT_KAKAO_SWITCHES } from '../replica/kakao/switches';
import { indexOfNaverId, naverIdOf, naverPlaceById, naverPlaceOf } from '../replica/naver/data';
import { listItemState } from '../replica/naver/pages';
import { naverGroundTruth, naverSearch } from '../replica/naver/search';
import { placeArray } from '../replica/place-data';
import { groundTruth, searchPlaces } from '../replica/search';
import {
  GOOGLE_LATIN_SHARE,
  KAKAO_CLOSED_SHARE,
  MAX_OFFSET_M,
  MIN_OFFSET_M,
  MISSING_SHARE,
  NAVER_VIRTUAL_ALONGSIDE_SHARE,
  NAVER_VIRTUAL_ONLY_SHARE,
  type PlaceSiteViews,
  type Site,
  SITES,
  STALE_PHONE_SHARE,
  siteTruth,
} from '../replica/site-views';
import { createWorld, type ReplicaPlace, type World, type WorldOptions } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const OPTIONS: WorldOptions = { seed: 24, places: 20_000, centre: SEOUL, radiusKm: 5 };
const plain = createWorld(OPTIONS);
const viewed = createWorld({ ...OPTIONS, siteViews: true });
const kw = kakaoWorld(viewed);
const planted = new Set(viewed.siteViews!.lookAlikes.flatMap((l) => l.indices));
const views = (p: ReplicaPlace): PlaceSiteViews => p.siteViews!;
const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
const share = (part: number, whole: number): number => part / whole;
/** The centre of Seoul's densest cluster: enough places of every kind. */
const BOX = { south: 37.556, north: 37.577, west: 126.965, east: 126.991 };

/** What each replica serves for a place, by its own id maps: null where it does not list it. */
function served(world: World, place: ReplicaPlace): Record<Site, { name: string; lat: number; lng: number; phone: string | null } | null> {
  const g = world.byCid.get(place.cid);
  const P = g ? placeArray(g, { signedIn: true, query: 'x' }) : null;
  const n = naverPlaceById(world, naverIdOf(place.index));
  const kakao = kakaoWorld(world);
  const k = kakao.byConfirmId.get(kakao.of(place).confirmId);
  const record = k ? placeRecord(k, DEFAULT_KAKAO_SWITCHES, false) : null;
  const pinG = P?.[9] as [null, null, number, number] | undefined;
  return {
    google: P ? { name: P[11] as string, lat: pinG![2], lng: pinG![3], phone: g!.phone?.digits ?? null } : null,
    naver: n ? { name: n.name, lat: Number(n.y), lng: Number(n.x), phone: n.phone } : null,
    kakao: record ? { name: String(record.name), lat: Number(record.lat), lng: Number(record.lon), phone: String(record.tel) || null } : null,
  };
}

describe('site views: drawn from (seed, place, site)', () => {
  it('are the same for the same seed and differ for another', () => {
    const again = createWorld({ ...OPTIONS, siteViews: true });
    expect(json(again.places.map(views))).toBe(json(viewed.places.map(views)));
    expect(json(again.siteViews)).toBe(json(viewed.siteViews));
    const other = createWorld({ ...OPTIONS, seed: 25, siteViews: true });
    const moved = other.places.slice(0, 500).filter((p, i) => views(p).google.offsetM !== views(viewed.places[i]!).google.offsetM);
    expect(moved.length).toBeGreaterThan(450);
  });

  it('do not depend on the size of the world for a place the two worlds share', () => {
    const smaller = createWorld({ ...OPTIONS, places: 12_000, siteViews: true });
    const plantedThere = new Set(smaller.siteViews!.lookAlikes.flatMap((l) => l.indices));
    const shared = smaller.places.filter((p) => !planted.has(p.index) && !plantedThere.has(p.index));
    expect(shared.length).toBeGreaterThan(11_900);
    for (const p of shared) expect(json(views(p))).toBe(json(views(viewed.places[p.index]!)));
  });
});

describe('site views: shares', () => {
  const all = viewed.places.filter((p) => !planted.has(p.index));
  const phoned = all.filter((p) => p.phone !== null);

  it('misses about the documented share on each site, never on all three', () => {
    for (const site of SITES) {
      const missing = all.filter((p) => !views(p)[site].present).length;
      expect(share(missing, all.length)).toBeGreaterThan(MISSING_SHARE * 0.75);
      expect(share(missing, all.length)).toBeLessThan(MISSING_SHARE * 1.25);
    }
    expect(viewed.places.filter((p) => SITES.every((s) => !views(p)[s].present))).toEqual([]);
  });

  it('gives one site a stale number of the same area code, on a site that shows the own number', () => {
    const stale = phoned.filter((p) => SITES.some((s) => views(p)[s].stalePhone));
    expect(share(stale.length, phoned.length)).toBeGreaterThan(STALE_PHONE_SHARE * 0.75);
    expect(share(stale.length, phoned.length)).toBeLessThan(STALE_PHONE_SHARE * 1.25);
    for (const p of stale) {
      const sites = SITES.filter((s) => views(p)[s].stalePhone);
      expect(sites).toHaveLength(1);
      const shown = views(p)[sites[0]!].place.phone!;
      expect(shown.digits).not.toBe(p.phone!.digits);
      expect(shown.display.split('-')[0]).toBe(p.phone!.display.split('-')[0]);
      expect(shown.display).toMatch(/^0\d{1,2}-\d{3,4}-\d{4}$/);
      if (sites[0] === 'naver') expect(views(p).naver.virtualPhone).not.toBe('only');
    }
    expect(all.filter((p) => p.phone === null && SITES.some((s) => views(p)[s].place.phone !== null))).toEqual([]);
  });

  it('shows only the 0507 number on Naver for some places, both for others', () => {
    const only = phoned.filter((p) => views(p).naver.virtualPhone === 'only');
    const alongside = phoned.filter((p) => views(p).naver.virtualPhone === 'alongside');
    expect(share(only.length, phoned.length)).toBeGreaterThan(NAVER_VIRTUAL_ONLY_SHARE * 0.8);
    expect(share(only.length, phoned.length)).toBeLessThan(NAVER_VIRTUAL_ONLY_SHARE * 1.2);
    expect(share(alongside.length, phoned.length)).toBeGreaterThan(NAVER_VIRTUAL_ALONGSIDE_SHARE * 0.8);
    expect(share(alongside.length, phoned.length)).toBeLessThan(NAVER_VIRTUAL_ALONGSIDE_SHARE * 1.2);
    for (const p of only.slice(0, 300)) {
      const item = listItemState(naverPlaceOf(p), false, 'PlaceSummary');
      expect(item.phone).toBeNull();
      expect(item.virtualPhone).toMatch(/^0507-/);
    }
    for (const p of alongside.slice(0, 300)) {
      const item = listItemState(naverPlaceOf(p), false, 'PlaceSummary');
      expect(item.phone).toBe(views(p).naver.place.phone!.display);
      expect(item.virtualPhone).toMatch(/^0507-/);
    }
  });

  it('marks some places closed on Kakao only, in its own field', () => {
    const onKakao = all.filter((p) => views(p).kakao.present);
    const closed = onKakao.filter((p) => views(p).kakao.closed);
    expect(share(closed.length, onKakao.length)).toBeGreaterThan(KAKAO_CLOSED_SHARE * 0.7);
    expect(share(closed.length, onKakao.length)).toBeLessThan(KAKAO_CLOSED_SHARE * 1.3);
    const status = (p: ReplicaPlace) => placeRecord(kw.of(p), DEFAULT_KAKAO_SWITCHES, false).openoff_status;
    for (const p of closed) expect(status(p)).toBe('N');
    for (const p of onKakao.slice(0, 2000).filter((q) => !views(q).kakao.closed)) expect(status(p)).toBe('Y');
  });

  it('spells chain branches in every documented form, Latin brands on Google only', () => {
    const chains = all.filter((p) => views(p).naver.nameForm !== 'world' && !/2호점$/.test(p.name));
    expect(chains.length).toBeGreaterThan(1000);
    const forms = new Set(chains.flatMap((p) => SITES.map((s) => views(p)[s].nameForm)));
    expect([...forms].sort()).toEqual(['bare', 'latin', 'paren', 'standard', 'station', 'tight']);
    for (const p of chains) {
      expect(views(p).naver.place.name).toMatch(/[가-힣]/);
      expect(views(p).kakao.place.name).toMatch(/[가-힣]/);
    }
    const examples = new Set(chains.map((p) => views(p).kakao.place.name));
    expect(examples).toContain('스타벅스 강남점');
    expect([...examples].some((n) => /^스타벅스\(.+점\)$/.test(n))).toBe(true);
    expect([...examples].some((n) => /^스타벅스 .+역점$/.test(n))).toBe(true);
    const koreanInWorld = chains.filter((p) => /[가-힣]/.test(p.name));
    const latinOnGoogle = koreanInWorld.filter((p) => views(p).google.nameForm === 'latin');
    expect(share(latinOnGoogle.length, koreanInWorld.length)).toBeGreaterThan(GOOGLE_LATIN_SHARE * 0.7);
    expect(share(latinOnGoogle.length, koreanInWorld.length)).toBeLessThan(GOOGLE_LATIN_SHARE * 1.3);
    for (const p of chains.filter((q) => !/[가-힣]/.test(q.name))) expect(views(p).google.place.name).toBe(p.name);
  });
});

describe('site views: served by each replica', () => {
  it('puts every pin 5–80 m off the world pin, each site its own way, as the pages carry it', () => {
    const sample = viewed.places.filter((p) => p.index % 4 === 0);
    const offsets: Record<Site, number[]> = { google: [], naver: [], kakao: [] };
    for (const p of sample) {
      const s = served(viewed, p);
      for (const site of SITES) {
        const pin = s[site];
        if (!pin) continue;
        const m = haversineMetres(p, pin);
        expect(m).toBeGreaterThan(MIN_OFFSET_M - 0.05);
        expect(m).toBeLessThan(MAX_OFFSET_M + 0.05);
        offsets[site].push(m);
      }
      const k = kw.byConfirmId.get(kw.of(p).confirmId);
      // Kakao's WCONGNAMUL integers are its pin too (a unit is 0.4 m).
      if (k) expect(haversineMetres(wcongnamulToWgs84(k)!, { lat: k.lat, lng: k.lng })).toBeLessThan(1);
    }
    for (const site of SITES) {
      const sorted = [...offsets[site]].sort((a, b) => a - b);
      expect(sorted[Math.floor(sorted.length / 2)]!).toBeGreaterThan(15);
      expect(sorted.at(-1)!).toBeGreaterThan(70);
    }
    const same = sample.filter((p) => views(p).google.place.lat === views(p).naver.place.lat && views(p).naver.place.lat === views(p).kakao.place.lat);
    expect(same).toEqual([]);
  });

  it('shows each site its own name and phone', () => {
    for (const p of viewed.places.slice(0, 3000)) {
      const s = served(viewed, p);
      const v = views(p);
      if (s.google) {
        expect(s.google.name).toBe(v.google.place.name);
        expect(s.google.phone).toBe(v.google.place.phone?.digits ?? null);
      }
      if (s.naver && v.naver.virtualPhone !== 'only') expect(s.naver.phone).toBe(v.naver.place.phone?.display ?? null);
      if (s.kakao) {
        expect(s.kakao.name).toBe(v.kakao.place.name);
        expect(s.kakao.phone).toBe(v.kakao.place.phone?.display ?? null);
      }
    }
  });

  it("lists in search and ground truth exactly what the site lists, by the site's pin", () => {
    const cafesOn = (site: Site) =>
      viewed.places
        .filter((p) => p.category === 'cafe' && views(p)[site].present && bboxContains(BOX, views(p)[site].place))
        .map((p) => p.index)
        .sort((a, b) => a - b);
    const google = groundTruth(viewed, 'cafe', BOX).map((p) => p.index);
    expect(google.length).toBeGreaterThan(100);
    expect(google).toEqual(cafesOn('google'));
    expect(naverGroundTruth(viewed, 'cafe', BOX).map((p) => p.place.index)).toEqual(cafesOn('naver'));
    const rect = bboxToWcongRect(BOX)!;
    const kakaoExpected = viewed.places
      .filter((p) => p.category === 'cafe' && views(p).kakao.present && wcongRectContains(rect, kw.of(p)))
      .map((p) => p.index)
      .sort((a, b) => a - b);
    expect(kakaoGroundTruth(kw, 'cafe', rect).map((k) => k.place.index)).toEqual(kakaoExpected);
    // The searches a sweep sees leave the missing ones out too.
    const missing = Object.fromEntries(SITES.map((site) => [site, new Set(viewed.places.filter((p) => !views(p)[site].present).map((p) => p.index))]));
    const missingOn = (site: Site) => missing[site]!;
    const results = searchPlaces(
      viewed,
      'cafe',
      { lat: 37.5665, lng: 126.978, zoom: 16 },
      { width: 1200, height: 800, panelWidth: 400 },
      { signedIn: true, sparseZoomOut: false },
    ).results;
    expect(results.length).toBeGreaterThan(20);
    expect(results.filter((p) => missingOn('google').has(p.index))).toEqual([]);
    const naver = naverSearch(viewed, { query: '카페', bounds: BOX, centre: null }, { resultCap: 300, boundsMode: 'strict' }).results;
    expect(naver.filter((p) => missingOn('naver').has(p.place.index))).toEqual([]);
    expect(kw.places.filter((k) => missingOn('kakao').has(k.place.index))).toEqual([]);
  });
});

describe('site views: absent, nothing changes', () => {
  const small = { ...OPTIONS, places: 4000 };
  const serialise = (world: World) => {
    const k = kakaoWorld(world);
    return {
      google: json(world.places.map((p) => placeArray(world.byCid.get(p.cid)!, { signedIn: true, query: 'cafe' }))),
      naver: json(world.places.map(naverPlaceOf)),
      kakao: json(k.places.map((r) => placeRecord(r, DEFAULT_KAKAO_SWITCHES, false))),
    };
  };

  it('leaves no view on a place and serves what a world without the option serves', () => {
    expect(plain.siteViews).toBeUndefined();
    expect(plain.places.filter((p) => 'siteViews' in p)).toEqual([]);
    expect(plain.places.filter((p) => plain.byCid.get(p.cid) !== p)).toEqual([]);
    expect(serialise(createWorld({ ...small, siteViews: undefined }))).toEqual(serialise(createWorld(small)));
    expect(kakaoWorld(plain).places).toHaveLength(plain.places.length);
    expect(json(plain.places.map((p) => placeRecord(kakaoWorld(plain).of(p), DEFAULT_KAKAO_SWITCHES, false).openoff_status))).not.toContain('N');
  });

  it('with the option, changes only what a view varies (planted places aside)', () => {
    const k0 = kakaoWorld(plain);
    const without = <T extends Record<string, unknown>>(o: T, keys: readonly string[]) =>
      json(Object.fromEntries(Object.entries(o).filter(([key]) => !keys.includes(key))));
    for (const p of viewed.places.filter((q) => !planted.has(q.index) && q.index % 3 === 0)) {
      const before = plain.places[p.index]!;
      const { siteViews: _views, ...world } = p;
      expect(json(world)).toBe(json(before));
      const gBefore = placeArray(before, { signedIn: true, query: 'cafe' });
      const gAfter = placeArray(views(p).google.place, { signedIn: true, query: 'cafe' });
      const changedG = gBefore.flatMap((v, i) => (json(v) === json(gAfter[i]) ? [] : [i]));
      // The pin, the name, the name-and-address line, the canonical link (name and pin), the phone.
      expect(changedG.filter((i) => ![9, 11, 18, 27, 178].includes(i))).toEqual([]);
      const nChanged = ['place', 'name', 'x', 'y', 'phone', 'virtualPhone'];
      expect(without({ ...naverPlaceOf(p) }, nChanged)).toBe(without({ ...naverPlaceOf(before) }, nChanged));
      const kChanged = ['name', 'x', 'y', 'lat', 'lon', 'roadview', 'tel', 'openoff_status'];
      expect(without(placeRecord(kw.of(p), DEFAULT_KAKAO_SWITCHES, false), kChanged)).toBe(
        without(placeRecord(k0.of(before), DEFAULT_KAKAO_SWITCHES, false), kChanged),
      );
    }
  });
});

describe('site views: planted look-alikes', () => {
  const lookAlikes = viewed.siteViews!.lookAlikes;

  it('plants one of each kind per 1,000 places, listed on every site', () => {
    expect(lookAlikes.filter((l) => l.kind === 'chain-branches')).toHaveLength(20);
    expect(lookAlikes.filter((l) => l.kind === 'same-building')).toHaveLength(20);
    expect(planted.size).toBe(80);
    for (const i of planted) {
      const s = served(viewed, viewed.places[i]!);
      for (const site of SITES) expect(s[site], `${site} lists ${i}`).not.toBeNull();
    }
  });

  it('gives two branches of one chain ~30 m apart distinct names on every site', () => {
    for (const { indices } of lookAlikes.filter((l) => l.kind === 'chain-branches')) {
      const [a, b] = indices.map((i) => viewed.places[i]!) as [ReplicaPlace, ReplicaPlace];
      expect(haversineMetres(a, b)).toBeGreaterThan(24);
      expect(haversineMetres(a, b)).toBeLessThan(36);
      expect(a.category).toBe(b.category);
      const [sa, sb] = [served(viewed, a), served(viewed, b)];
      for (const site of SITES) expect(sa[site]!.name).not.toBe(sb[site]!.name);
      // One brand: the names share their first word on Naver (Hangul, always).
      expect(naverPlaceOf(a).name.slice(0, 2)).toBe(naverPlaceOf(b).name.slice(0, 2));
    }
  });

  it('gives two businesses in one building the same name and road address, another category and phone', () => {
    for (const { indices } of lookAlikes.filter((l) => l.kind === 'same-building')) {
      const [a, b] = indices.map((i) => viewed.places[i]!) as [ReplicaPlace, ReplicaPlace];
      expect(a.category).not.toBe(b.category);
      expect(a.fullAddress).toBe(b.fullAddress);
      expect(naverPlaceOf(a).roadAddress).toBe(naverPlaceOf(b).roadAddress);
      expect(kw.of(a).roadAddress).toBe(kw.of(b).roadAddress);
      expect(haversineMetres(a, b)).toBeLessThan(11);
      const [sa, sb] = [served(viewed, a), served(viewed, b)];
      for (const site of SITES) {
        expect(sa[site]!.name).toBe(sb[site]!.name);
        expect(sa[site]!.phone).not.toBeNull();
        expect(sa[site]!.phone).not.toBe(sb[site]!.phone);
      }
    }
  });
});

describe('siteTruth', () => {
  const truth = siteTruth(viewed);

  it("resolves every id back to its place through each replica's own id maps", () => {
    expect(truth.places).toHaveLength(viewed.places.length);
    for (const t of truth.places) {
      const p = viewed.places[t.index]!;
      if (t.ids.google) expect(viewed.byCid.get(t.ids.google)!.index).toBe(t.index);
      else expect(viewed.byCid.has(p.cid)).toBe(false);
      if (t.ids.naver) {
        expect(indexOfNaverId(t.ids.naver)).toBe(t.index);
        expect(naverPlaceById(viewed, t.ids.naver)!.place.index).toBe(t.index);
      } else expect(naverPlaceById(viewed, naverIdOf(t.index))).toBeNull();
      if (t.ids.kakao) expect(kw.byConfirmId.get(t.ids.kakao)!.place.index).toBe(t.index);
      else expect(kw.byConfirmId.has(kw.of(p).confirmId)).toBe(false);
      expect(t.keys).toEqual(SITES.filter((s) => t.ids[s]).map((s) => `${s}:${t.ids[s]}`));
      expect(t.keys.length).toBeGreaterThan(0);
    }
  });

  it('groups every listing once, and never a look-alike with its twin', () => {
    const keys = truth.groups.flat();
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(SITES.reduce((n, s) => n + viewed.places.filter((p) => views(p)[s].present).length, 0));
    const groupOf = new Map(truth.groups.flatMap((g, i) => g.map((k) => [k, i] as const)));
    expect(truth.lookAlikes).toHaveLength(viewed.siteViews!.lookAlikes.length);
    for (const l of truth.lookAlikes) {
      expect(l.keys[0]).toHaveLength(3);
      expect(l.keys[1]).toHaveLength(3);
      expect(groupOf.get(l.keys[0][0]!)).not.toBe(groupOf.get(l.keys[1][0]!));
    }
  });

  it('lists every place on every site in a world without views', () => {
    const t = siteTruth(plain);
    expect(t.lookAlikes).toEqual([]);
    expect(t.places.filter((p) => p.keys.length !== 3)).toEqual([]);
  });
});
