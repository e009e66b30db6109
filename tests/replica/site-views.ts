/**
 * Each site's own view of one world place (issue 24), so the three replicas disagree about a
 * business the way Google Maps, Naver Map and Kakao Map do. Opt-in: `WorldOptions.siteViews`.
 * Absent, no place carries views and every replica serves exactly what it served before.
 *
 * With it, every world place gets a view per site, drawn from (world seed, place index, site)
 * alone (prng.ts deriveSeed/createRng), so adding sites' quirks never moves another place:
 *
 * | what varies | share |
 * |---|---|
 * | missing from the site | 6% on each site, drawn apart; never on all three (one is put back); planted look-alikes never |
 * | pin | every site 5–80 m off the world pin, its own way: 5 + 75·u² m (median ≈ 24 m), bearing uniform |
 * | name, chain branches | Korean forms: `스타벅스 강남점` 55%, `스타벅스 강남` 12%, `스타벅스강남점` 12%, `스타벅스(강남점)` 13%, `스타벅스 강남역점` 8% |
 * | name, Latin brand | Google keeps an English-named chain in Latin (`Starbucks Gangnam`, the world's koreanNameShare decides which); of Korean-named ones it shows 20% in Latin. Naver and Kakao always show Hangul |
 * | name, `2호점` | `X 2호점` 70%, `X2호점` 15%, `X 2호` 15%, on each site; other names as the world has them (an English one stays English on Naver too; without views Naver still translates it as it always did) |
 * | stale phone | 8% of places with a phone: one of the sites that show the own number shows another number of the same area code |
 * | Naver 0507 | of places with a phone, 15% show only the 0507 virtual number on Naver, 25% show both |
 * | closed | 4% of places Kakao lists, marked closed there (`openoff_status: "N"`, ../shared/naver-kakao-notes.md B); Google and Naver mark none: ../shared/ has no fact on how either shows a closed business (Google's replica has only the hours line, Naver's `businessStatus` is the hours status) |
 *
 * Planted in the world too (world.ts plantLookAlikes, re-dressing existing places, so the count and
 * every id stay), one of each per 1,000 places (at least one each in a world of four or more whose
 * categories allow it): two branches of one chain 25–35 m apart with distinct branch names on
 * every site, and two different businesses of the same name in one building (same road address;
 * other category and phone). Both are listed on every site. `siteTruth` gives the ids and groups.
 */
import type { BBox } from '../../utils/geo/types';
import { bboxContains } from '../../utils/geo/bbox';
import { EARTH_RADIUS_M } from '../../utils/geo/distance';
import { normaliseQuery } from './categories';
import { kakaoWorld } from './kakao/places';
import { naverIdOf } from './naver/data';
import { createRng, deriveSeed, type Rng } from './prng';
import type { ReplicaPhone, ReplicaPlace, World } from './world';

export type Site = 'google' | 'naver' | 'kakao';
export const SITES: readonly Site[] = ['google', 'naver', 'kakao'];

export const MISSING_SHARE = 0.06;
export const MIN_OFFSET_M = 5;
export const MAX_OFFSET_M = 80;
export const STALE_PHONE_SHARE = 0.08;
export const NAVER_VIRTUAL_ONLY_SHARE = 0.15;
export const NAVER_VIRTUAL_ALONGSIDE_SHARE = 0.25;
export const KAKAO_CLOSED_SHARE = 0.04;
export const GOOGLE_LATIN_SHARE = 0.2;

/** How a site spells a name: a chain branch's forms, `2호점`'s, or the world's own. */
export type NameForm = 'world' | 'latin' | 'standard' | 'bare' | 'tight' | 'paren' | 'station';

const CHAIN_FORMS: readonly [NameForm, number][] = [
  ['standard', 0.55],
  ['bare', 0.12],
  ['tight', 0.12],
  ['paren', 0.13],
  ['station', 0.08],
];
const SECOND_BRANCH_FORMS: readonly [NameForm, number][] = [
  ['standard', 0.7],
  ['tight', 0.15],
  ['bare', 0.15],
];

/** A chain branch's name parts (world.ts knows its chains and branches, and parses them). */
export interface ChainBranch {
  chain: { en: string; ko: string };
  branch: { en: string; ko: string };
}

interface ViewBase {
  /** Whether the site lists the place at all. */
  present: boolean;
  /**
   * The place as this site has it: its pin, name and phone; ids, category, address and the rest
   * the world's. Carries no `siteViews` of its own.
   */
  place: ReplicaPlace;
  /** How far the site's pin is from the world's, in metres. */
  offsetM: number;
  nameForm: NameForm;
  /** The site shows a number that is not the business's. */
  stalePhone: boolean;
}

export interface GoogleView extends ViewBase {
  site: 'google';
}

/** `only`: Naver shows the 0507 number and not the business's own; `alongside`: both. */
export type NaverVirtual = 'none' | 'alongside' | 'only';

export interface NaverView extends ViewBase {
  site: 'naver';
  virtualPhone: NaverVirtual;
}

export interface KakaoView extends ViewBase {
  site: 'kakao';
  closed: boolean;
}

export interface PlaceSiteViews {
  google: GoogleView;
  naver: NaverView;
  kakao: KakaoView;
}

export type LookAlikeKind = 'chain-branches' | 'same-building';

/** Two world places a matcher must keep apart. */
export interface LookAlike {
  kind: LookAlikeKind;
  indices: [number, number];
}

const DEG = Math.PI / 180;

/** Every site's view of `place`, a world place without views yet (world.ts calls it once per place when `siteViews` is on). */
export function drawSiteViews(seed: number, place: ReplicaPlace, chain: ChainBranch | null, planted: boolean): PlaceSiteViews {
  const joint = createRng(deriveSeed(seed, `site-views:${place.index}`));
  const rngs = { google: siteRng(seed, place, 'google'), naver: siteRng(seed, place, 'naver'), kakao: siteRng(seed, place, 'kakao') };
  const present = { google: !rngs.google.chance(MISSING_SHARE), naver: !rngs.naver.chance(MISSING_SHARE), kakao: !rngs.kakao.chance(MISSING_SHARE) };
  if (planted) present.google = present.naver = present.kakao = true;
  // A business no site lists is no listing to link: the sweep could never see it.
  else if (!present.google && !present.naver && !present.kakao) present[joint.pick(SITES)] = true;

  const names = {
    google: nameFor(rngs.google, place, chain, 'google'),
    naver: nameFor(rngs.naver, place, chain, 'naver'),
    kakao: nameFor(rngs.kakao, place, chain, 'kakao'),
  };
  const pins = { google: pinFor(rngs.google, place), naver: pinFor(rngs.naver, place), kakao: pinFor(rngs.kakao, place) };
  const roll = rngs.naver.next();
  const virtualPhone: NaverVirtual =
    place.phone === null
      ? 'none'
      : roll < NAVER_VIRTUAL_ONLY_SHARE
        ? 'only'
        : roll < NAVER_VIRTUAL_ONLY_SHARE + NAVER_VIRTUAL_ALONGSIDE_SHARE
          ? 'alongside'
          : 'none';
  const closed = present.kakao && rngs.kakao.chance(KAKAO_CLOSED_SHARE);

  // Stale only where the own number is shown: a stale number hidden behind Naver's 0507 is no disagreement.
  const showsOwn = SITES.filter((s) => s !== 'naver' || virtualPhone !== 'only');
  const staleOn: Site | null = place.phone !== null && !planted && joint.chance(STALE_PHONE_SHARE) ? joint.pick(showsOwn) : null;

  const view = (site: Site) => {
    const phone = staleOn === site ? otherNumber(joint, place.phone!) : place.phone;
    const { lat, lng, offsetM } = pins[site];
    const { name, form } = names[site];
    return {
      present: present[site],
      place: { ...place, lat, lng, name, searchName: normaliseQuery(name), phone },
      offsetM,
      nameForm: form,
      stalePhone: staleOn === site,
    };
  };
  return {
    google: { site: 'google', ...view('google') },
    naver: { site: 'naver', ...view('naver'), virtualPhone },
    kakao: { site: 'kakao', ...view('kakao'), closed },
  };
}

function siteRng(seed: number, place: ReplicaPlace, site: Site): Rng {
  return createRng(deriveSeed(seed, `site-views:${place.index}:${site}`));
}

function nameFor(rng: Rng, place: ReplicaPlace, chain: ChainBranch | null, site: Site): { name: string; form: NameForm } {
  if (chain) {
    const latinInWorld = !/[가-힣]/.test(place.name);
    const latin = site === 'google' && (latinInWorld || rng.chance(GOOGLE_LATIN_SHARE));
    if (latin) return { name: `${chain.chain.en} ${chain.branch.en}`, form: 'latin' };
    const form = drawForm(rng, CHAIN_FORMS);
    return { name: chainForm(chain.chain.ko, chain.branch.ko, form), form };
  }
  const second = /^(.+) 2호점$/.exec(place.name);
  if (second) {
    const form = drawForm(rng, SECOND_BRANCH_FORMS);
    const base = second[1]!;
    return { name: form === 'tight' ? `${base}2호점` : form === 'bare' ? `${base} 2호` : place.name, form };
  }
  return { name: place.name, form: 'world' };
}

function drawForm(rng: Rng, forms: readonly [NameForm, number][]): NameForm {
  return forms[rng.weighted(forms.map(([, w]) => w))]![0];
}

function chainForm(brand: string, branch: string, form: NameForm): string {
  switch (form) {
    case 'bare':
      return `${brand} ${branch}`;
    case 'tight':
      return `${brand}${branch}점`;
    case 'paren':
      return `${brand}(${branch}점)`;
    case 'station':
      return `${brand} ${branch}역점`;
    default:
      return `${brand} ${branch}점`;
  }
}

function pinFor(rng: Rng, place: ReplicaPlace): { lat: number; lng: number; offsetM: number } {
  const bearing = rng.next() * 2 * Math.PI;
  const metres = MIN_OFFSET_M + (MAX_OFFSET_M - MIN_OFFSET_M) * rng.next() ** 2;
  // On haversine's sphere, so the distance every test measures is the one drawn.
  const dLat = (metres * Math.cos(bearing)) / EARTH_RADIUS_M / DEG;
  const dLng = (metres * Math.sin(bearing)) / (EARTH_RADIUS_M * Math.cos(place.lat * DEG)) / DEG;
  return { lat: round7(place.lat + dLat), lng: round7(place.lng + dLng), offsetM: metres };
}

/** Another number of the same area code, as world.ts makes them (`02-1234-5678`, `033-123-4567`). */
function otherNumber(rng: Rng, phone: ReplicaPhone): ReplicaPhone {
  const [area, mid] = phone.display.split('-') as [string, string, string];
  const code = area.slice(1);
  const low = 10 ** (mid.length - 1);
  for (;;) {
    const m = String(rng.int(low, low * 10 - 1));
    const last = String(rng.int(0, 9999)).padStart(4, '0');
    const display = `${area}-${m}-${last}`;
    if (display !== phone.display) return { display, international: `+82 ${code}-${m}-${last}`, digits: `+82${code}${m}${last}` };
  }
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

/** The place as `site` has it: its view's, or the world place itself in a world without views. */
export function seenBy(place: ReplicaPlace, site: Site): ReplicaPlace {
  return place.siteViews?.[site].place ?? place;
}

export function listedOn(place: ReplicaPlace, site: Site): boolean {
  return place.siteViews?.[site].present ?? true;
}

/**
 * World places `site` lists with its own pin inside `bbox`, in no particular order. Without views,
 * the world's own box query, as every replica did before.
 */
export function listedIn(world: World, site: Site, bbox: BBox): ReplicaPlace[] {
  if (!world.siteViews) return world.placesIn(bbox).filter((p) => bboxContains(bbox, p));
  // A site's pin is at most MAX_OFFSET_M from the world's: look that much wider, then by the site's pin.
  const margin = MAX_OFFSET_M * 1.05;
  const dLat = margin / EARTH_RADIUS_M / DEG;
  const dLng = margin / (EARTH_RADIUS_M * Math.cos(Math.max(Math.abs(bbox.north), Math.abs(bbox.south)) * DEG)) / DEG;
  const wider = { south: bbox.south - dLat, north: bbox.north + dLat, west: bbox.west - dLng, east: bbox.east + dLng };
  return world.placesIn(wider).filter((p) => listedOn(p, site) && bboxContains(bbox, seenBy(p, site)));
}

/** Every world place `site` lists, in world order. */
export function listedAll(world: World, site: Site): ReplicaPlace[] {
  return world.siteViews ? world.places.filter((p) => listedOn(p, site)) : [...world.places];
}

export interface PlaceTruth {
  index: number;
  /** The place's id on each site that lists it: Google's CID, Naver's place id, Kakao's confirmid. */
  ids: Partial<Record<Site, string>>;
  /** Its listing keys (`google:{cid}`, `naver:{id}`, `kakao:{confirmid}`), in SITES order. */
  keys: string[];
}

export interface SiteTruth {
  places: PlaceTruth[];
  /** The listing keys that are one business: one group per world place (a place one site lists alone is a group of one). */
  groups: string[][];
  /** The planted look-alikes, as the keys of each side: a linker must not merge them. */
  lookAlikes: { kind: LookAlikeKind; indices: [number, number]; keys: [string[], string[]] }[];
}

/** Which listings are the same world place, by each replica's own ids. */
export function siteTruth(world: World): SiteTruth {
  const kw = kakaoWorld(world);
  const idOf: Record<Site, (p: ReplicaPlace) => string> = {
    google: (p) => p.cid,
    naver: (p) => naverIdOf(p.index),
    kakao: (p) => kw.of(p).confirmId,
  };
  const places = world.places.map((p): PlaceTruth => {
    const ids: Partial<Record<Site, string>> = {};
    for (const site of SITES) if (listedOn(p, site)) ids[site] = idOf[site](p);
    return { index: p.index, ids, keys: SITES.filter((s) => ids[s] !== undefined).map((s) => `${s}:${ids[s]}`) };
  });
  const lookAlikes = (world.siteViews?.lookAlikes ?? []).map((l) => ({
    ...l,
    keys: [places[l.indices[0]]!.keys, places[l.indices[1]]!.keys] as [string[], string[]],
  }));
  return { places, groups: places.map((p) => p.keys), lookAlikes };
}
