/**
 * The Naver view of the replica world: every world place (tests/replica/world.ts, read-only)
 * gets a stable Naver place id and the Korean fields Naver shows — name, category path, road and
 * lot-number addresses, phone and 0507 virtual number, homepage, booking link, visitor reviews
 * and score, x/y as strings. All derived from the place's own data and index, so the same world
 * gives the same Naver data on every run, and the Google and Naver replicas list the same places.
 * With site views (WorldOptions.siteViews) the record is Naver's view of the place instead: its
 * pin, name, phone and 0507 number, and only the places Naver lists are found (site-views.ts).
 */
import { categoryById, type CategoryId } from '../categories';
import type { ReplicaPlace, World } from '../world';

export interface NaverReplicaPlace {
  /** The world place, as Naver has it when the world has site views (site-views.ts: pin, name, phone). */
  place: ReplicaPlace;
  id: string;
  name: string;
  /** Broadest first (allSearch `category`). */
  categoryPath: string[];
  /** 시/도 시/군/구 (the list items' region prefix, like `commonAddress` without the 동). */
  region: string;
  dong: string;
  /** Road part only (`세종대로 123`), as list items give it. */
  roadPart: string;
  /** Lot part only (`명동 12-3`). */
  jibunPart: string;
  roadAddress: string;
  jibunAddress: string;
  phone: string | null;
  virtualPhone: string | null;
  homepage: string | null;
  bookingUrl: string | null;
  visitorReviewCount: number | null;
  /** Null when the place hides its score (`showVisitorReviewScore: false`). */
  visitorReviewScore: number | null;
  x: string;
  y: string;
}

/**
 * Ids: a quarter get 8 digits, the rest 10, like the live data (A2: 7–10 digits). The two ranges
 * cannot meet (index < 100,000), so ids are unique within a world and stable across runs.
 */
export function naverIdOf(index: number): string {
  return index % 4 === 0 ? String(20_000_000 + index) : String(1_000_000_000 + index * 7);
}

/** The world index an id belongs to, or null. */
export function indexOfNaverId(id: string): number | null {
  if (!/^\d+$/.test(id)) return null;
  const n = Number(id);
  if (id.length === 8 && n >= 20_000_000 && n < 20_100_000 && (n - 20_000_000) % 4 === 0) return n - 20_000_000;
  if (id.length === 10 && n >= 1_000_000_000 && (n - 1_000_000_000) % 7 === 0) {
    const i = (n - 1_000_000_000) / 7;
    return i % 4 !== 0 ? i : null;
  }
  return null;
}

const CITY_KO: Record<string, string> = { Seoul: '서울', 'Gangneung-si': '강원 강릉시' };
const DISTRICT_KO: Record<string, { gu: string; dongs: string[] }> = {
  'Jung District': { gu: '중구', dongs: ['명동', '을지로동', '회현동', '필동'] },
  'Jongno District': { gu: '종로구', dongs: ['종로1가', '관철동', '인사동', '혜화동'] },
  'Gangnam District': { gu: '강남구', dongs: ['역삼동', '논현동', '삼성동', '신사동'] },
  'Mapo District': { gu: '마포구', dongs: ['서교동', '합정동', '망원동', '연남동'] },
  'Yongsan District': { gu: '용산구', dongs: ['한강로2가', '이태원동', '후암동', '청파동'] },
  'Seocho District': { gu: '서초구', dongs: ['방배동', '서초동', '반포동', '양재동'] },
  'Songpa District': { gu: '송파구', dongs: ['잠실동', '방이동', '석촌동', '가락동'] },
  'Seongdong District': { gu: '성동구', dongs: ['성수동1가', '성수동2가', '행당동', '옥수동'] },
  'Gwangjin District': { gu: '광진구', dongs: ['화양동', '자양동', '구의동'] },
  'Yeongdeungpo District': { gu: '영등포구', dongs: ['여의도동', '당산동', '문래동'] },
  'Dongdaemun District': { gu: '동대문구', dongs: ['회기동', '청량리동', '장안동'] },
  'Seodaemun District': { gu: '서대문구', dongs: ['신촌동', '연희동', '충정로2가'] },
  'Gangseo District': { gu: '강서구', dongs: ['화곡동', '등촌동', '마곡동'] },
  'Nowon District': { gu: '노원구', dongs: ['상계동', '중계동', '공릉동'] },
  'Gyo-dong': { gu: '', dongs: ['교동'] },
  'Jumunjin-eup': { gu: '', dongs: ['주문진읍 교항리'] },
  'Okgye-myeon': { gu: '', dongs: ['옥계면 현내리'] },
  'Gangdong-myeon': { gu: '', dongs: ['강동면 모전리'] },
};
const ROAD_KO: Record<string, string> = {
  'Sejong-daero': '세종대로',
  'Jong-ro': '종로',
  'Teheran-ro': '테헤란로',
  'Dosan-daero': '도산대로',
  'Eulji-ro': '을지로',
  'Toegye-ro': '퇴계로',
  'Hangang-daero': '한강대로',
  'Yanghwa-ro': '양화로',
  'Itaewon-ro': '이태원로',
  'Seongsu-ileo-ro': '성수일로',
  'Olympic-ro': '올림픽로',
  'Gangnam-daero': '강남대로',
  'Yulgok-ro': '율곡로',
  'Cheonggyecheon-ro': '청계천로',
  'Wausan-ro': '와우산로',
  'Nonhyeon-ro': '논현로',
};
/** Naver's category labels for the world's categories; index picks one deterministically. */
const CATEGORY_KO: Record<CategoryId, string[][]> = {
  cafe: [['카페,디저트'], ['카페'], ['음식점', '카페']],
  restaurant: [
    ['음식점', '한식'],
    ['음식점', '중식'],
    ['음식점', '일식'],
    ['음식점', '육류,고기요리'],
    ['음식점', '국수'],
  ],
  clinic: [
    ['병원,의원', '의원'],
    ['병원,의원', '내과'],
    ['병원,의원', '소아청소년과'],
    ['병원,의원', '피부과'],
  ],
  pharmacy: [['약국']],
  hairSalon: [['미용실']],
  convenienceStore: [['편의점']],
  bakery: [['베이커리']],
  dentist: [['병원,의원', '치과']],
  bar: [
    ['술집', '요리주점'],
    ['술집', '맥주,호프'],
  ],
  gym: [['스포츠,오락', '헬스장']],
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

/** A small integer hash of the index, so field choices look scattered but never change. */
function mix(index: number, salt: number): number {
  let h = (index + 1) * 2654435761 + salt * 40503;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The Korean name Naver lists: the world's Korean name as is; an English one through the category's own name lists. */
export function koreanName(place: ReplicaPlace): string {
  if (/[가-힣]/.test(place.name)) return place.name;
  const cat = categoryById(place.category);
  for (const chain of cat.chains) {
    if (place.name.startsWith(`${chain.en} `)) {
      const branch = place.name.slice(chain.en.length + 1);
      return `${chain.ko} ${BRANCH_KO[branch] ?? branch}점`;
    }
  }
  const two = place.name.endsWith(' 2');
  const base = two ? place.name.slice(0, -2) : place.name;
  const i = cat.enNames.indexOf(base);
  if (i < 0) return place.name;
  return `${cat.koNames[i % cat.koNames.length]}${two ? ' 2호점' : ''}`;
}

/**
 * Naver's record of a world place. With site views it is Naver's view (listed or not: naverPlaceById
 * and the searches leave out what Naver does not list), and the view says which number it shows.
 */
export function naverPlaceOf(worldPlace: ReplicaPlace): NaverReplicaPlace {
  // A world is never changed once made, so a place's record is made once (every search of a box
  // asked for it again: a tenth of an in-process Naver sweep's time).
  let record = NAVER_RECORDS.get(worldPlace);
  if (!record) {
    record = Object.freeze(naverRecordOf(worldPlace));
    NAVER_RECORDS.set(worldPlace, record);
  }
  return record;
}

const NAVER_RECORDS = new WeakMap<ReplicaPlace, NaverReplicaPlace>();

function naverRecordOf(worldPlace: ReplicaPlace): NaverReplicaPlace {
  const view = worldPlace.siteViews?.naver;
  const place = view?.place ?? worldPlace;
  const i = place.index;
  const city = CITY_KO[place.address.city] ?? '서울';
  const district = DISTRICT_KO[place.address.district] ?? { gu: '중구', dongs: ['명동'] };
  const region = district.gu ? `${city} ${district.gu}` : city;
  const dong = district.dongs[mix(i, 1) % district.dongs.length]!;
  const [num, ...roadWords] = place.address.street.split(' ');
  const road = ROAD_KO[roadWords.join(' ')] ?? '중앙로';
  const roadPart = `${road} ${num}`;
  const jibunPart = `${dong} ${(mix(i, 2) % 900) + 1}-${(mix(i, 3) % 40) + 1}`;
  const paths = CATEGORY_KO[place.category];
  const phoneRoll = mix(i, 4) % 10;
  // Without views about 4 in 10 places with a phone show a 0507 안심번호; of those half list it as
  // their only number. With views the view says (site-views.ts shares).
  const shown = view ? view.virtualPhone : !place.phone ? 'none' : phoneRoll < 2 ? 'only' : phoneRoll < 4 ? 'alongside' : 'none';
  const virtual = place.phone && shown !== 'none' ? `0507-1${String(mix(i, 5) % 1000).padStart(3, '0')}-${String(mix(i, 6) % 10000).padStart(4, '0')}` : null;
  const phone = place.phone ? (virtual && shown === 'only' ? virtual : place.phone.display) : null;
  const bookable = ['restaurant', 'cafe', 'hairSalon', 'bar'].includes(place.category) && mix(i, 7) % 5 === 0;
  return {
    place,
    id: naverIdOf(i),
    // With views the view's name is Naver's own (site-views.ts: chains in Hangul, an English
    // name as the business writes it); the old translation through the category's name lists
    // gave a name unrelated to the business, which no site does for one business.
    name: view ? view.place.name : koreanName(place),
    categoryPath: [...(place.categoryPath ?? paths[mix(i, 8) % paths.length]!)],
    region,
    dong,
    roadPart,
    jibunPart,
    // A road address names the 읍/면 but not the 동/리 (that is the lot-number form).
    roadAddress: `${region}${/(읍|면)$/.test(dong.split(' ')[0]!) ? ` ${dong.split(' ')[0]}` : ''} ${roadPart}`,
    jibunAddress: `${region} ${jibunPart}`,
    phone,
    virtualPhone: virtual,
    homepage: place.website,
    bookingUrl: bookable ? `https://booking.naver.com/booking/6/bizes/${100000 + i}` : null,
    visitorReviewCount: place.reviewCount,
    // A few places hide their score (the 2026 place capture does), which the extractor must read as "not shown".
    visitorReviewScore: place.rating !== null && mix(i, 9) % 6 !== 0 ? place.rating : null,
    x: place.lng.toFixed(7),
    y: place.lat.toFixed(7),
  };
}

/** The Naver record of an id in this world, or null (also for a place Naver does not list). */
export function naverPlaceById(world: World, id: string): NaverReplicaPlace | null {
  const i = indexOfNaverId(id);
  const place = i === null ? undefined : world.places[i];
  return place && place.siteViews?.naver.present !== false ? naverPlaceOf(place) : null;
}
