/**
 * The replica's world: a seeded, reproducible set of up to 100,000 businesses around a centre,
 * clustered like a real city (dense centres with Gaussian falloff, sparse outskirts), with a grid
 * index so a viewport search over the whole set stays fast.
 */
import type { BBox, LatLng } from '../../utils/geo/types';
import { idsFromPair } from '../../utils/providers/google/ids';
import { CATEGORIES, type Category, type CategoryId, categoryById, normaliseQuery } from './categories';
import { createRng, deriveSeed, type Rng } from './prng';
import { type ChainBranch, drawSiteViews, type LookAlike, type PlaceSiteViews } from './site-views';

export const MAX_PLACES = 100_000;
const KM_PER_DEG_LAT = 110.574;
const KM_PER_DEG_LNG_AT_EQUATOR = 111.32;

export interface ReplicaPhone {
  /** As the card and place page show it: `02-1234-5678`. */
  display: string;
  /** `+82 2-1234-5678` (`P[178][0][1][1][0]`). */
  international: string;
  /** `+82212345678` (`P[178][0][3]`, the `phone:tel:` id). */
  digits: string;
}

export interface ReplicaAddress {
  street: string;
  district: string;
  city: string;
  postal: string;
  country: string;
  countryCode: string;
}

export interface ReplicaPlace {
  /** Position in `world.places`. */
  index: number;
  /** The raw 64-bit pair every Google id form comes from (ids.ts). */
  hi: bigint;
  lo: bigint;
  featureId: string;
  cid: string;
  placeId: string;
  /** Knowledge-graph id `/g/…` (the `!16s` token). */
  mid: string;
  name: string;
  category: CategoryId;
  /** `P[13]`: the main label first. */
  categories: string[];
  /**
   * Only on a planted oversized place (WorldOptions.oversized): the category path every site
   * shows as it is, broadest first (Kakao's category string, Naver's arrays). Absent: each
   * site derives its own path from `category`.
   */
  categoryPath?: string[];
  /** Rounded to 7 decimals, as hrefs carry them. */
  lat: number;
  lng: number;
  address: ReplicaAddress;
  /** `P[39]`: street, district, city, country. */
  fullAddress: string;
  phone: ReplicaPhone | null;
  /** The business's own site. */
  website: string | null;
  /** Whether `P[7][0]` wraps the site in Google's `/url?q=` redirect. */
  websiteWrapped: boolean;
  rating: number | null;
  reviewCount: number | null;
  /** `₩₩` style, restaurants and bars only. */
  priceLevel: string | null;
  /** 0..1: how strongly the search ranks it. */
  prominence: number;
  /** Opening hours in whole hours (closes may be 24); null when unknown. `open24h` for round-the-clock. */
  hours: { opens: number; closes: number } | 'open24h' | null;
  /** Lower-cased name, for matching. */
  searchName: string;
  /** Only with WorldOptions.siteViews: how each site lists this place (site-views.ts). */
  siteViews?: PlaceSiteViews;
}

export interface Cluster {
  centre: LatLng;
  sigmaKm: number;
  weight: number;
  district: string;
}

export interface World {
  seed: number;
  centre: LatLng;
  radiusKm: number;
  city: string;
  places: readonly ReplicaPlace[];
  clusters: readonly Cluster[];
  /** Google's ids: with site views, Google's own view of each place it lists (and none it does not). */
  byCid: ReadonlyMap<string, ReplicaPlace>;
  byFeatureId: ReadonlyMap<string, ReplicaPlace>;
  /** Only with WorldOptions.siteViews: the look-alike neighbours planted among the places. */
  siteViews?: { lookAlikes: readonly LookAlike[] };
  /** Places whose pin is inside the box (in no particular order). */
  placesIn(bbox: BBox): ReplicaPlace[];
}

export interface WorldOptions {
  seed: number;
  /** How many places (1..100,000). */
  places: number;
  centre: LatLng;
  radiusKm: number;
  /** Dense centres; the first sits on `centre`. Default 6. */
  clusters?: number;
  /** Spread of each centre, drawn in this range. Default [0.3, 1.5] km. */
  clusterSigmaKm?: [number, number];
  /** Share of places spread evenly over the disc (the sparse outskirts). Default 0.15. */
  backgroundShare?: number;
  city?: string;
  /** District names given to clusters, in order. */
  districts?: readonly string[];
  /** Telephone area code without the leading 0 (`2` for Seoul). */
  areaCode?: string;
  categoryWeights?: Partial<Record<CategoryId, number>>;
  phoneShare?: number;
  websiteShare?: number;
  ratedShare?: number;
  koreanNameShare?: number;
  /**
   * A hostile place planted in the world (issue 22): the place at `index` keeps its position,
   * ids and category but gets a name of `nameLength` characters (Korean and emoji, so a cut can
   * fall inside a surrogate pair) and `categories` category levels. Nothing is drawn for it,
   * so every other place is the same with it or without it; absent, the world is unchanged.
   */
  oversized?: OversizedPlace;
  /**
   * Each site its own view of every place (issue 24, tests/replica/site-views.ts: missing places,
   * pins off by 5–80 m, name forms, stale phones, Naver's 0507-only, closed on Kakao) and
   * look-alike neighbours planted among the places (plantLookAlikes). Drawn from their own seeds
   * after the world, so the world's draws are the same; absent, nothing changes.
   */
  siteViews?: true;
}

export interface OversizedPlace {
  index: number;
  nameLength: number;
  categories: number;
}

const SEOUL_DISTRICTS = [
  'Jung District',
  'Jongno District',
  'Gangnam District',
  'Mapo District',
  'Yongsan District',
  'Seocho District',
  'Songpa District',
  'Seongdong District',
  'Gwangjin District',
  'Yeongdeungpo District',
  'Dongdaemun District',
  'Seodaemun District',
  'Gangseo District',
  'Nowon District',
];

const ROADS = [
  'Sejong-daero',
  'Jong-ro',
  'Teheran-ro',
  'Dosan-daero',
  'Eulji-ro',
  'Toegye-ro',
  'Hangang-daero',
  'Yanghwa-ro',
  'Itaewon-ro',
  'Seongsu-ileo-ro',
  'Olympic-ro',
  'Gangnam-daero',
  'Yulgok-ro',
  'Cheonggyecheon-ro',
  'Wausan-ro',
  'Nonhyeon-ro',
];

const BRANCHES: readonly { en: string; ko: string }[] = [
  { en: 'Gwanghwamun', ko: '광화문' },
  { en: 'Myeongdong', ko: '명동' },
  { en: 'Euljiro', ko: '을지로' },
  { en: 'City Hall', ko: '시청' },
  { en: 'Jongno', ko: '종로' },
  { en: 'Gangnam', ko: '강남' },
  { en: 'Yeoksam', ko: '역삼' },
  { en: 'Hapjeong', ko: '합정' },
  { en: 'Hongdae', ko: '홍대' },
  { en: 'Itaewon', ko: '이태원' },
  { en: 'Seongsu', ko: '성수' },
  { en: 'Jamsil', ko: '잠실' },
  { en: 'Yeouido', ko: '여의도' },
];

const SLUG_PARTS = ['haru', 'bom', 'soop', 'dal', 'maru', 'nuri', 'hana', 'saem', 'onda', 'byeol', 'gureum', 'baram'];
const MID_ALPHABET = '0123456789bcdfghjklmnpqrstvwxyz_';

/** A seeded world. Same options → the same places, ids and order, on every run. */
export function createWorld(options: WorldOptions): World {
  const o = validateOptions(options);
  const rng = createRng(deriveSeed(o.seed, 'world'));
  const clusters = makeClusters(rng, o);
  const categoryWeights = CATEGORIES.map((c) => o.categoryWeights?.[c.id] ?? c.weight);
  const usedCids = new Set<string>();
  const places: ReplicaPlace[] = [];
  for (let i = 0; i < o.places; i++) {
    const { point, cluster } = samplePoint(rng, o, clusters);
    const category = CATEGORIES[rng.weighted(categoryWeights)]!;
    places.push(makePlace(rng, i, point, cluster, category, o, usedCids));
  }
  if (o.oversized) places[o.oversized.index] = oversizedPlace(places[o.oversized.index]!, o.oversized);
  const meta = { seed: o.seed, centre: o.centre, radiusKm: o.radiusKm, city: o.city, clusters };
  if (!o.siteViews) return buildWorld(meta, places);
  const lookAlikes = plantLookAlikes(places, o);
  const planted = new Set(lookAlikes.flatMap((l) => l.indices));
  const viewed = places.map((p) => ({ ...p, siteViews: drawSiteViews(o.seed, p, chainBranchOf(p), planted.has(p.index)) }));
  return buildWorld({ ...meta, siteViews: { lookAlikes } }, viewed);
}

/** Look-alikes per this many places (at least one of each kind in a world of four or more). */
const PLACES_PER_LOOK_ALIKE = 1000;
/** A building's worth of shared names: nothing in them says what the business is. */
const BUILDING_NAMES = ['하나', '미소', '다온', '봄날', '해오름', '온새미로', '라온', '가온'];

/**
 * Re-dresses pairs of places (in `places`) as neighbours a linker could wrongly merge: two branches
 * of one chain 25–35 m apart (distinct branch names on every site), and two businesses of one
 * name in one building (same road address, different category and phone). Their ids, ratings
 * and the rest stay theirs; the oversized place is never taken.
 */
function plantLookAlikes(places: ReplicaPlace[], o: ValidOptions): LookAlike[] {
  if (places.length < 4) return [];
  const rng = createRng(deriveSeed(o.seed, 'look-alikes'));
  const taken = new Set<number>(o.oversized ? [o.oversized.index] : []);
  const phones = new Set(places.flatMap((p) => (p.phone ? [p.phone.digits] : [])));
  const newPhone = (): ReplicaPhone => {
    for (;;) {
      const phone = makePhone(rng, o.areaCode);
      if (phones.has(phone.digits)) continue;
      phones.add(phone.digits);
      return phone;
    }
  };
  const take = (accept: (p: ReplicaPlace) => boolean = () => true): ReplicaPlace | null => {
    for (let tries = 0; tries < 200; tries++) {
      const p = places[rng.int(0, places.length - 1)]!;
      if (taken.has(p.index) || !accept(p)) continue;
      taken.add(p.index);
      return p;
    }
    return null;
  };
  const put = (p: ReplicaPlace): void => {
    places[p.index] = { ...p, fullAddress: formatAddress(p.address), searchName: normaliseQuery(p.name) };
  };
  const chainCategories = CATEGORIES.filter((c) => c.chains.length > 0 && (o.categoryWeights?.[c.id] ?? c.weight) > 0);
  const out: LookAlike[] = [];
  const pairs = Math.max(1, Math.floor(places.length / PLACES_PER_LOOK_ALIKE));
  for (let n = 0; n < pairs && chainCategories.length > 0; n++) {
    const a = take();
    const b = take();
    if (!a || !b) break;
    const category = rng.pick(chainCategories);
    const chain = rng.pick(category.chains);
    const first = rng.pick(BRANCHES);
    const second = rng.pick(BRANCHES.filter((x) => x !== first));
    const korean = rng.chance(o.koreanNameShare);
    const named = (branch: { en: string; ko: string }) => (korean ? `${chain.ko} ${branch.ko}점` : `${chain.en} ${branch.en}`);
    const dress = { category: category.id, categories: [category.labels[0]!], priceLevel: null };
    const [num, ...road] = a.address.street.split(' ');
    const next = offsetKm(a, fromBearing(rng, 0.025 + rng.next() * 0.01));
    put({ ...a, ...dress, name: named(first) });
    put({
      ...b,
      ...dress,
      name: named(second),
      lat: round7(next.lat),
      lng: round7(next.lng),
      address: { ...a.address, street: `${Number(num) + 2} ${road.join(' ')}` },
      phone: newPhone(),
    });
    out.push({ kind: 'chain-branches', indices: [a.index, b.index] });
  }
  for (let n = 0; n < pairs; n++) {
    const c = take();
    const d = c && take((p) => p.category !== c.category);
    if (!c || !d) break;
    const name = rng.pick(BUILDING_NAMES);
    const door = offsetKm(c, fromBearing(rng, 0.003 + rng.next() * 0.007));
    put({ ...c, name, phone: c.phone ?? newPhone() });
    put({ ...d, name, lat: round7(door.lat), lng: round7(door.lng), address: { ...c.address }, phone: newPhone() });
    out.push({ kind: 'same-building', indices: [c.index, d.index] });
  }
  return out;
}

function fromBearing(rng: Rng, km: number): { dx: number; dy: number } {
  const a = rng.next() * 2 * Math.PI;
  return { dx: km * Math.cos(a), dy: km * Math.sin(a) };
}

/** The chain and branch a world name was made of (makePlace's two forms), or null. */
function chainBranchOf(place: ReplicaPlace): ChainBranch | null {
  for (const chain of categoryById(place.category).chains) {
    for (const branch of BRANCHES) {
      if (place.name === `${chain.ko} ${branch.ko}점` || place.name === `${chain.en} ${branch.en}`) return { chain, branch };
    }
  }
  return null;
}

export type PresetName = 'denseCentre' | 'mixedMetro' | 'sparseRegion';

/** Worlds a benchmark can name. Seoul's centre, all of metro Seoul, and a thin region on the east coast. */
export const WORLD_PRESETS: Record<PresetName, Omit<WorldOptions, 'seed'>> = {
  denseCentre: {
    places: 20_000,
    centre: { lat: 37.5665, lng: 126.978 },
    radiusKm: 3,
    clusters: 4,
    clusterSigmaKm: [0.25, 0.8],
    backgroundShare: 0.1,
  },
  mixedMetro: {
    places: 60_000,
    centre: { lat: 37.5519, lng: 126.9918 },
    radiusKm: 15,
    clusters: 12,
    clusterSigmaKm: [0.4, 2],
    backgroundShare: 0.15,
  },
  sparseRegion: {
    places: 3_000,
    centre: { lat: 37.7519, lng: 128.8761 },
    radiusKm: 40,
    clusters: 3,
    clusterSigmaKm: [0.5, 2.5],
    backgroundShare: 0.4,
    city: 'Gangneung-si',
    districts: ['Gyo-dong', 'Jumunjin-eup', 'Okgye-myeon', 'Gangdong-myeon'],
    areaCode: '33',
    websiteShare: 0.2,
  },
};

export function createPresetWorld(name: PresetName, seed: number, overrides: Partial<WorldOptions> = {}): World {
  const preset = WORLD_PRESETS[name];
  if (!preset) throw new Error(`unknown world preset "${String(name)}"`);
  return createWorld({ ...preset, ...overrides, seed });
}

/** What a hand-made test place must say; everything else is filled in deterministically. */
export interface PlaceSpec {
  name: string;
  category: CategoryId;
  lat: number;
  lng: number;
  prominence: number;
  rating?: number | null;
  reviewCount?: number | null;
  phone?: ReplicaPhone | null;
  website?: string | null;
}

/** A world of exactly these places (for tests that compute expectations by hand). */
export function worldFromSpecs(specs: readonly PlaceSpec[], meta: { seed?: number; centre?: LatLng; radiusKm?: number } = {}): World {
  const seed = meta.seed ?? 1;
  const rng = createRng(deriveSeed(seed, 'specs'));
  const usedCids = new Set<string>();
  const places = specs.map((spec, index) => {
    const { hi, lo } = uniquePair(rng, usedCids);
    const ids = idsFromPair(hi, lo);
    const category = categoryById(spec.category);
    const street = `${index + 1} ${ROADS[index % ROADS.length]}`;
    const address: ReplicaAddress = {
      street,
      district: 'Jung District',
      city: 'Seoul',
      postal: '04524',
      country: 'South Korea',
      countryCode: 'KR',
    };
    const place: ReplicaPlace = {
      index,
      hi,
      lo,
      ...ids,
      mid: randomMid(rng),
      name: spec.name,
      category: spec.category,
      categories: [category.labels[0]!],
      lat: round7(spec.lat),
      lng: round7(spec.lng),
      address,
      fullAddress: formatAddress(address),
      phone: spec.phone ?? null,
      website: spec.website ?? null,
      websiteWrapped: false,
      rating: spec.rating ?? null,
      reviewCount: spec.reviewCount ?? null,
      priceLevel: null,
      prominence: spec.prominence,
      hours: null,
      searchName: normaliseQuery(spec.name),
    };
    return place;
  });
  const centre = meta.centre ?? (places[0] ? { lat: places[0].lat, lng: places[0].lng } : { lat: 37.5665, lng: 126.978 });
  return buildWorld({ seed, centre, radiusKm: meta.radiusKm ?? 5, city: 'Seoul', clusters: [] }, places);
}

/** `place` with a name of `o.nameLength` UTF-16 units and `o.categories` category levels (see WorldOptions.oversized). */
function oversizedPlace(place: ReplicaPlace, o: OversizedPlace): ReplicaPlace {
  const unit = `${place.name} 대형몰🍰 `;
  let name = unit.repeat(Math.ceil(o.nameLength / unit.length)).slice(0, o.nameLength);
  // The slice may end on half an emoji: a whole character instead, as a page's text would be.
  if (/[\ud800-\udbff]$/.test(name)) name = `${name.slice(0, -1)}x`;
  const path = Array.from({ length: o.categories }, (_, i) => (i === o.categories - 1 ? place.categories[0]! : `분류 ${i + 1}`));
  return { ...place, name, categories: [...path].reverse(), categoryPath: path, searchName: normaliseQuery(name) };
}

function validateOptions(
  options: WorldOptions,
): Required<Omit<WorldOptions, 'categoryWeights' | 'oversized' | 'siteViews'>> & Pick<WorldOptions, 'categoryWeights' | 'oversized' | 'siteViews'> {
  const o = {
    clusters: 6,
    clusterSigmaKm: [0.3, 1.5] as [number, number],
    backgroundShare: 0.15,
    city: 'Seoul',
    districts: SEOUL_DISTRICTS,
    areaCode: '2',
    phoneShare: 0.7,
    websiteShare: 0.4,
    ratedShare: 0.85,
    koreanNameShare: 0.55,
    ...options,
  };
  const problems: string[] = [];
  if (!Number.isInteger(o.seed)) problems.push(`seed must be an integer (got ${o.seed})`);
  if (!Number.isInteger(o.places) || o.places < 1 || o.places > MAX_PLACES) problems.push(`places must be an integer in 1..${MAX_PLACES} (got ${o.places})`);
  if (!o.centre || !(Math.abs(o.centre.lat) <= 80) || !(Math.abs(o.centre.lng) <= 180))
    problems.push('centre must be a LatLng with |lat| <= 80 and |lng| <= 180');
  if (!(o.radiusKm > 0 && o.radiusKm <= 500)) problems.push(`radiusKm must be in (0, 500] (got ${o.radiusKm})`);
  if (!Number.isInteger(o.clusters) || o.clusters < 1) problems.push(`clusters must be a positive integer (got ${o.clusters})`);
  const [sMin, sMax] = o.clusterSigmaKm;
  if (!(sMin > 0 && sMax >= sMin)) problems.push('clusterSigmaKm must be [min, max] with 0 < min <= max');
  for (const key of ['backgroundShare', 'phoneShare', 'websiteShare', 'ratedShare', 'koreanNameShare'] as const) {
    if (!(o[key] >= 0 && o[key] <= 1)) problems.push(`${key} must be in [0, 1] (got ${o[key]})`);
  }
  if (o.districts.length === 0) problems.push('districts must not be empty');
  if (o.oversized && !(Number.isInteger(o.oversized.index) && o.oversized.index >= 0 && o.oversized.index < o.places)) {
    problems.push(`oversized.index must be a place's index in 0..${o.places - 1} (got ${o.oversized.index})`);
  }
  if (
    o.oversized &&
    !(Number.isInteger(o.oversized.nameLength) && o.oversized.nameLength >= 1 && Number.isInteger(o.oversized.categories) && o.oversized.categories >= 1)
  ) {
    problems.push('oversized.nameLength and oversized.categories must be whole numbers ≥ 1');
  }
  if (problems.length) throw new Error(`createWorld: ${problems.join('; ')}`);
  return o;
}

type ValidOptions = ReturnType<typeof validateOptions>;

function makeClusters(rng: Rng, o: ValidOptions): Cluster[] {
  const clusters: Cluster[] = [];
  for (let i = 0; i < o.clusters; i++) {
    // The first centre is the downtown on `centre`; others fall within 70% of the radius.
    const centre = i === 0 ? o.centre : offsetKm(o.centre, uniformInDisc(rng, o.radiusKm * 0.7));
    clusters.push({
      centre,
      sigmaKm: o.clusterSigmaKm[0] + rng.next() * (o.clusterSigmaKm[1] - o.clusterSigmaKm[0]),
      weight: i === 0 ? 2 : 0.4 + rng.next(),
      district: o.districts[i % o.districts.length]!,
    });
  }
  return clusters;
}

function samplePoint(rng: Rng, o: ValidOptions, clusters: Cluster[]): { point: LatLng; cluster: Cluster } {
  for (;;) {
    let point: LatLng;
    let cluster: Cluster;
    if (rng.chance(o.backgroundShare)) {
      point = offsetKm(o.centre, uniformInDisc(rng, o.radiusKm));
      cluster = nearestCluster(clusters, point);
    } else {
      cluster = clusters[rng.weighted(clusters.map((c) => c.weight))]!;
      point = offsetKm(cluster.centre, { dx: rng.gaussian() * cluster.sigmaKm, dy: rng.gaussian() * cluster.sigmaKm });
    }
    // Keep the world inside its disc so the grid index has known bounds.
    if (kmBetween(o.centre, point) <= o.radiusKm) return { point, cluster };
  }
}

function makePlace(rng: Rng, index: number, point: LatLng, cluster: Cluster, category: Category, o: ValidOptions, usedCids: Set<string>): ReplicaPlace {
  const { hi, lo } = uniquePair(rng, usedCids);
  const ids = idsFromPair(hi, lo);
  const korean = rng.chance(o.koreanNameShare);
  const chain = category.chains.length > 0 && rng.chance(0.25) ? rng.pick(category.chains) : null;
  let name: string;
  if (chain) {
    const branch = rng.pick(BRANCHES);
    name = korean ? `${chain.ko} ${branch.ko}점` : `${chain.en} ${branch.en}`;
  } else {
    name = korean ? rng.pick(category.koNames) : rng.pick(category.enNames);
    if (rng.chance(0.08)) name += korean ? ' 2호점' : ' 2';
  }
  const label = rng.pick(category.labels);
  const categories = rng.chance(0.3) && category.labels.length > 1 ? [label, ...category.labels.filter((l) => l !== label).slice(0, 1)] : [label];
  const address: ReplicaAddress = {
    street: `${rng.int(1, 480)} ${rng.pick(ROADS)}`,
    district: cluster.district,
    city: o.city,
    postal: String(rng.int(1000, 8999)).padStart(5, '0'),
    country: 'South Korea',
    countryCode: 'KR',
  };
  const prominence = Math.min(1, rng.next() ** 1.6 + (chain ? 0.1 : 0));
  const rated = rng.chance(o.ratedShare);
  const rating = rated ? Math.round(Math.min(5, Math.max(2.5, 4.3 + rng.gaussian() * 0.4)) * 10) / 10 : null;
  const reviewCount = rated ? Math.max(1, Math.round(Math.exp(2 + 4.5 * prominence + rng.gaussian() * 0.8))) : null;
  const website = rng.chance(o.websiteShare) ? makeWebsite(rng) : null;
  const hoursRoll = rng.next();
  return {
    index,
    hi,
    lo,
    ...ids,
    mid: randomMid(rng),
    name,
    category: category.id,
    categories,
    lat: round7(point.lat),
    lng: round7(point.lng),
    address,
    fullAddress: formatAddress(address),
    phone: rng.chance(o.phoneShare) ? makePhone(rng, o.areaCode) : null,
    website,
    websiteWrapped: website !== null && rng.chance(0.25),
    rating,
    reviewCount,
    priceLevel: category.priced && rng.chance(0.6) ? '₩'.repeat(rng.int(1, 3)) : null,
    prominence,
    hours: hoursRoll < 0.1 ? 'open24h' : hoursRoll < 0.85 ? { opens: rng.int(7, 11), closes: rng.int(18, 24) } : null,
    searchName: normaliseQuery(name),
  };
}

function buildWorld(meta: Omit<World, 'places' | 'byCid' | 'byFeatureId' | 'placesIn'>, places: ReplicaPlace[]): World {
  // Google's id maps hold what Google lists: with site views, its own view of each place it lists.
  const google = places.flatMap((p) => (!p.siteViews ? [p] : p.siteViews.google.present ? [p.siteViews.google.place] : []));
  const byCid = new Map(google.map((p) => [p.cid, p]));
  const byFeatureId = new Map(google.map((p) => [p.featureId, p]));
  const index = createGridIndex(places);
  return { ...meta, places, byCid, byFeatureId, placesIn: (bbox) => index(bbox) };
}

/**
 * Fixed-size grid buckets over the places' bounding box: about 16 places per bucket on average,
 * so a box query touches only the buckets it overlaps.
 */
function createGridIndex(places: readonly ReplicaPlace[]): (bbox: BBox) => ReplicaPlace[] {
  if (places.length === 0) return () => [];
  let south = Infinity;
  let west = Infinity;
  let north = -Infinity;
  let east = -Infinity;
  for (const p of places) {
    south = Math.min(south, p.lat);
    north = Math.max(north, p.lat);
    west = Math.min(west, p.lng);
    east = Math.max(east, p.lng);
  }
  const side = Math.max(1, Math.ceil(Math.sqrt(places.length / 16)));
  const cellLat = Math.max((north - south) / side, 1e-6);
  const cellLng = Math.max((east - west) / side, 1e-6);
  const buckets: number[][] = Array.from({ length: side * side }, () => []);
  const cellOf = (v: number, min: number, size: number): number => Math.min(side - 1, Math.max(0, Math.floor((v - min) / size)));
  places.forEach((p, i) => {
    buckets[cellOf(p.lat, south, cellLat) * side + cellOf(p.lng, west, cellLng)]!.push(i);
  });
  return (bbox) => {
    if (bbox.north < south || bbox.south > north || bbox.east < west || bbox.west > east) return [];
    const y0 = cellOf(bbox.south, south, cellLat);
    const y1 = cellOf(bbox.north, south, cellLat);
    const x0 = cellOf(bbox.west, west, cellLng);
    const x1 = cellOf(bbox.east, west, cellLng);
    const out: ReplicaPlace[] = [];
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        for (const i of buckets[y * side + x]!) {
          const p = places[i]!;
          if (p.lat >= bbox.south && p.lat <= bbox.north && p.lng >= bbox.west && p.lng <= bbox.east) out.push(p);
        }
      }
    }
    return out;
  };
}

function uniquePair(rng: Rng, used: Set<string>): { hi: bigint; lo: bigint } {
  for (;;) {
    const hi = rng.uint64();
    const lo = rng.uint64();
    const cid = lo.toString(10);
    if (lo !== 0n && !used.has(cid)) {
      used.add(cid);
      return { hi, lo };
    }
  }
}

function randomMid(rng: Rng): string {
  let s = '/g/11';
  for (let i = 0; i < 8; i++) s += MID_ALPHABET[rng.int(0, MID_ALPHABET.length - 1)];
  return s;
}

function makePhone(rng: Rng, areaCode: string): ReplicaPhone {
  const mid = String(rng.int(areaCode === '2' ? 1000 : 100, areaCode === '2' ? 9999 : 999));
  const last = String(rng.int(0, 9999)).padStart(4, '0');
  return {
    display: `0${areaCode}-${mid}-${last}`,
    international: `+82 ${areaCode}-${mid}-${last}`,
    digits: `+82${areaCode}${mid}${last}`,
  };
}

function makeWebsite(rng: Rng): string {
  const slug = `${rng.pick(SLUG_PARTS)}${rng.pick(SLUG_PARTS)}${rng.int(1, 99)}`;
  switch (rng.int(0, 3)) {
    case 0:
      return `https://www.instagram.com/${slug}/`;
    case 1:
      return `https://blog.naver.com/${slug}`;
    case 2:
      return `https://${slug}.com/`;
    default:
      return `http://www.${slug}.co.kr/`;
  }
}

function formatAddress(a: ReplicaAddress): string {
  return `${a.street}, ${a.district}, ${a.city}, ${a.country}`;
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

function uniformInDisc(rng: Rng, radiusKm: number): { dx: number; dy: number } {
  const r = radiusKm * Math.sqrt(rng.next());
  const a = rng.next() * 2 * Math.PI;
  return { dx: r * Math.cos(a), dy: r * Math.sin(a) };
}

function offsetKm(from: LatLng, d: { dx: number; dy: number }): LatLng {
  return {
    lat: from.lat + d.dy / KM_PER_DEG_LAT,
    lng: from.lng + d.dx / (KM_PER_DEG_LNG_AT_EQUATOR * Math.cos((from.lat * Math.PI) / 180)),
  };
}

function kmBetween(a: LatLng, b: LatLng): number {
  const dy = (b.lat - a.lat) * KM_PER_DEG_LAT;
  const dx = (b.lng - a.lng) * KM_PER_DEG_LNG_AT_EQUATOR * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(dx, dy);
}

function nearestCluster(clusters: Cluster[], p: LatLng): Cluster {
  let best = clusters[0]!;
  let bestKm = Infinity;
  for (const c of clusters) {
    const km = kmBetween(c.centre, p) / c.sigmaKm;
    if (km < bestKm) {
      bestKm = km;
      best = c;
    }
  }
  return best;
}
