/**
 * The replica world (tests/replica/world.ts, read-only) as Kakao Map knows it: the same places,
 * each with a stable confirmid, a Korean category path (cate_name_depth1..5), Korean road and
 * lot-number addresses and WCONGNAMUL coordinates. Derived, never drawn: the same world gives
 * the same Kakao places on every run, so the Google and Kakao replicas share one ground truth.
 * With site views (WorldOptions.siteViews) each record is Kakao's view: its pin, name, phone,
 * closed mark, and only the places Kakao lists (site-views.ts).
 */
import { ROAD_KO } from '../korean-roads';
import { wgs84ToWcongnamul } from '../../../utils/geo/wcongnamul';
import { CATEGORIES } from '../categories';
import type { ReplicaPlace, World } from '../world';

export interface KakaoReplicaPlace {
  /** The world place, as Kakao has it when the world has site views (site-views.ts: pin, name, phone). */
  place: ReplicaPlace;
  confirmId: string;
  name: string;
  categoryPath: string[];
  roadAddress: string;
  jibunAddress: string;
  phone: string | null;
  homepage: string | null;
  rating: number | null;
  ratingCount: number | null;
  /** WCONGNAMUL integers, as map.daum's x/y. */
  x: number;
  y: number;
  lat: number;
  lng: number;
  /** Only with site views, on a place Kakao marks closed (`openoff_status: "N"`). */
  closed?: true;
}

export interface KakaoWorld {
  world: World;
  /** The places Kakao lists (with site views, not every world place). */
  places: readonly KakaoReplicaPlace[];
  byConfirmId: ReadonlyMap<string, KakaoReplicaPlace>;
  /** Kakao's record of a world place, listed or not (its confirmid is its own either way). */
  of(place: ReplicaPlace): KakaoReplicaPlace;
}

const cache = new WeakMap<World, KakaoWorld>();

export function kakaoWorld(world: World): KakaoWorld {
  const hit = cache.get(world);
  if (hit) return hit;
  const used = new Set<string>();
  // Ids for every world place, listed or not, so a place Kakao leaves out moves no other's confirmid.
  const all = world.places.map((p) => toKakao(p, world.city, used));
  const places = world.siteViews ? all.filter((_k, i) => world.places[i]!.siteViews?.kakao.present !== false) : all;
  const byConfirmId = new Map(places.map((k) => [k.confirmId, k]));
  const kw: KakaoWorld = { world, places, byConfirmId, of: (p) => all[p.index]! };
  cache.set(world, kw);
  return kw;
}

/** 7–10 digits from the place's CID half, moved on past collisions in world order. */
export function confirmIdFor(place: ReplicaPlace, used: Set<string>): string {
  let n = 1_000_000n + (place.lo % 2_146_000_000n);
  while (used.has(n.toString())) n = n + 1n >= 2_147_000_000n ? 1_000_000n : n + 1n;
  const id = n.toString();
  used.add(id);
  return id;
}

const CITY_KO: Record<string, string> = { Seoul: '서울', 'Gangneung-si': '강원특별자치도 강릉시' };

const DISTRICT_KO: Record<string, { gu: string; dong: string }> = {
  'Jung District': { gu: '중구', dong: '태평로1가' },
  'Jongno District': { gu: '종로구', dong: '관훈동' },
  'Gangnam District': { gu: '강남구', dong: '역삼동' },
  'Mapo District': { gu: '마포구', dong: '합정동' },
  'Yongsan District': { gu: '용산구', dong: '이태원동' },
  'Seocho District': { gu: '서초구', dong: '서초동' },
  'Songpa District': { gu: '송파구', dong: '잠실동' },
  'Seongdong District': { gu: '성동구', dong: '성수동1가' },
  'Gwangjin District': { gu: '광진구', dong: '화양동' },
  'Yeongdeungpo District': { gu: '영등포구', dong: '여의도동' },
  'Dongdaemun District': { gu: '동대문구', dong: '회기동' },
  'Seodaemun District': { gu: '서대문구', dong: '신촌동' },
  'Gangseo District': { gu: '강서구', dong: '마곡동' },
  'Nowon District': { gu: '노원구', dong: '상계동' },
  'Gyo-dong': { gu: '', dong: '교동' },
  'Jumunjin-eup': { gu: '', dong: '주문진읍 교항리' },
  'Okgye-myeon': { gu: '', dong: '옥계면 현내리' },
  'Gangdong-myeon': { gu: '', dong: '강동면 안인리' },
};

const BRANCH_KO: Record<string, string> = {
  Gwanghwamun: '광화문',
  Myeongdong: '명동',
  Euljiro: '을지로',
  'City Hall': '시청',
  Jongno: '종로',
  Gangnam: '강남',
  Yeoksam: '역삼',
  Hapjeong: '합정',
  Hongdae: '홍대',
  Itaewon: '이태원',
  Seongsu: '성수',
  Jamsil: '잠실',
  Yeouido: '여의도',
};

/** Kakao's category tree for each label the world gives (broadest first). */
const PATHS: Record<string, string[]> = {
  Cafe: ['음식점', '카페'],
  'Coffee shop': ['음식점', '카페', '커피전문점'],
  'Dessert shop': ['음식점', '카페', '디저트카페'],
  'Korean restaurant': ['음식점', '한식'],
  Restaurant: ['음식점'],
  'Chinese restaurant': ['음식점', '중식', '중국요리'],
  'Japanese restaurant': ['음식점', '일식'],
  'Barbecue restaurant': ['음식점', '한식', '육류,고기'],
  'Noodle shop': ['음식점', '한식', '국수'],
  'Medical clinic': ['의료,건강', '병원', '의원'],
  'Internal medicine clinic': ['의료,건강', '병원', '내과'],
  'Pediatric clinic': ['의료,건강', '병원', '소아청소년과'],
  'Dermatology clinic': ['의료,건강', '병원', '피부과'],
  Pharmacy: ['의료,건강', '약국'],
  'Drug store': ['의료,건강', '약국'],
  'Hair salon': ['가정,생활', '미용', '미용실'],
  'Beauty salon': ['가정,생활', '미용'],
  'Barber shop': ['가정,생활', '미용', '이발소'],
  'Convenience store': ['가정,생활', '편의점'],
  Bakery: ['음식점', '간식', '제과,베이커리'],
  Dentist: ['의료,건강', '병원', '치과'],
  'Dental clinic': ['의료,건강', '병원', '치과'],
  Bar: ['음식점', '술집'],
  Pub: ['음식점', '술집', '호프,요리주점'],
  'Cocktail bar': ['음식점', '술집', '칵테일바'],
  Gym: ['스포츠,레저', '스포츠시설', '헬스클럽'],
  'Fitness center': ['스포츠,레저', '스포츠시설', '헬스클럽'],
};

/** A chain's English name with its English branch → `스타벅스 강남점`; other names as they are. */
export function koreanName(name: string): string {
  for (const c of CATEGORIES)
    for (const chain of c.chains) {
      if (chain.en === chain.ko || !name.startsWith(`${chain.en} `)) continue;
      const branch = BRANCH_KO[name.slice(chain.en.length + 1)];
      if (branch) return `${chain.ko} ${branch}점`;
    }
  return name;
}

function toKakao(worldPlace: ReplicaPlace, city: string, used: Set<string>): KakaoReplicaPlace {
  const view = worldPlace.siteViews?.kakao;
  const p = view?.place ?? worldPlace;
  const w = wgs84ToWcongnamul(p)!;
  const cityKo = CITY_KO[city] ?? city;
  const d = DISTRICT_KO[p.address.district] ?? { gu: p.address.district, dong: '' };
  const [num, ...road] = p.address.street.split(' ');
  const roadName = ROAD_KO[road.join(' ')] ?? road.join(' ');
  const area = [cityKo, d.gu].filter(Boolean).join(' ');
  // Lot numbers derived from the CID so they are stable and varied.
  const lot = `${Number(p.lo % 900n) + 1}-${Number((p.lo >> 10n) % 60n) + 1}`;
  return {
    place: p,
    confirmId: confirmIdFor(p, used),
    name: koreanName(p.name),
    categoryPath: p.categoryPath ?? PATHS[p.categories[0] ?? ''] ?? ['기타'],
    roadAddress: `${area} ${roadName} ${num}`,
    jibunAddress: [area, d.dong, lot].filter(Boolean).join(' '),
    phone: p.phone?.display ?? null,
    homepage: p.website,
    rating: p.rating,
    ratingCount: p.reviewCount,
    x: Math.round(w.x),
    y: Math.round(w.y),
    lat: p.lat,
    lng: p.lng,
    ...(view?.closed ? { closed: true as const } : {}),
  };
}
