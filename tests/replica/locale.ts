/**
 * The replica's interface languages, chosen by the page's `hl` parameter like the real site:
 * English (the default) and Korean. A language changes what the page *says* (labels, end text,
 * can't-find text, the sponsored mark, category names, addresses in the local form), never
 * which places it lists, their ids, ratings or counts — so a sweep in either language finds the
 * same places, and only the text fields differ.
 *
 * Korean UI strings are Google's Korean interface as it reads (rating label "별표 4.5개 리뷰
 * 1,234개", "목록의 끝에 도달했습니다.", "Google 지도에서 '…'을(를) 찾을 수 없습니다.", "광고");
 * Korean addresses follow Google's Korean form, country first: "대한민국 서울특별시 중구 세종대로 12".
 */
import { ROAD_KO } from './korean-roads';
import type { ReplicaAddress, ReplicaPlace } from './world';

export type ReplicaLang = 'en' | 'ko';

/** The replica's language for an `hl` value: Korean for `ko…`, English otherwise. */
export function replicaLang(hl: string | null | undefined): ReplicaLang {
  return /^ko\b/i.test(hl ?? '') ? 'ko' : 'en';
}

/** Page texts, by language. `{q}` and `{n}`-style parts are functions. */
export interface UiText {
  htmlLang: string;
  ratingLabel(rating: string, count: string | null): string;
  noReviews: string;
  sponsored: string;
  endOfList: string;
  notFound(query: string): string;
  notFoundHint: string;
  resultsFor(query: string): string;
  results: string;
  updateWhenMapMoves: string;
  website: string;
  visitWebsite(name: string): string;
  directions: string;
  directionsTo(name: string): string;
  wheelchair: string;
  searchLabel: string;
  loading: string;
  /** The place page. */
  placeStars(rating: string): string;
  placeReviews(count: string): string;
  address: string;
  websiteRow: string;
  phone: string;
  hours: string;
  copyAddress: string;
  openWebsite: string;
  copyPhone: string;
  tabs: { overview(name: string): string; reviews(name: string): string; about(name: string): string; names: [string, string, string] };
  informationFor(name: string): string;
  open24h: string;
  openCloses(hour: number): string;
  closedOpens(hour: number): string;
  closedWord: string;
}

function hour12(h: number): string {
  const hh = h % 24;
  if (hh === 0) return '12 AM';
  if (hh === 12) return '12 PM';
  return hh < 12 ? `${hh} AM` : `${hh - 12} PM`;
}

function hourKo(h: number): string {
  const hh = h % 24;
  return hh < 12 ? `오전 ${hh === 0 ? 12 : hh}시` : `오후 ${hh === 12 ? 12 : hh - 12}시`;
}

export const UI_TEXT: Record<ReplicaLang, UiText> = {
  en: {
    htmlLang: 'en',
    ratingLabel: (r, c) => (c === null ? `${r} stars` : `${r} stars ${c} Reviews`),
    noReviews: 'No reviews',
    sponsored: 'Sponsored',
    endOfList: "You've reached the end of the list.",
    notFound: (q) => `Google Maps can't find ${q}`,
    notFoundHint: 'Make sure your search is spelled correctly. Try adding a city, state, or zip code.',
    resultsFor: (q) => `Results for ${q}`,
    results: 'Results',
    updateWhenMapMoves: 'Update results when map moves',
    website: 'Website',
    visitWebsite: (n) => `Visit ${n}'s website`,
    directions: 'Directions',
    directionsTo: (n) => `Get directions to ${n}`,
    wheelchair: 'Wheelchair accessible entrance',
    searchLabel: 'Search Google Maps',
    loading: 'Loading…',
    placeStars: (r) => `${r} stars `,
    placeReviews: (c) => `${c} reviews`,
    address: 'Address',
    websiteRow: 'Website',
    phone: 'Phone',
    hours: 'Hours',
    copyAddress: 'Copy address',
    openWebsite: 'Open website',
    copyPhone: 'Copy phone number',
    tabs: { overview: (n) => `Overview of ${n}`, reviews: (n) => `Reviews for ${n}`, about: (n) => `About ${n}`, names: ['Overview', 'Reviews', 'About'] },
    informationFor: (n) => `Information for ${n}`,
    open24h: 'Open 24 hours',
    openCloses: (h) => `Open ⋅ Closes ${hour12(h)}`,
    closedOpens: (h) => `Closed ⋅ Opens ${hour12(h)}`,
    closedWord: 'Closed',
  },
  ko: {
    htmlLang: 'ko',
    ratingLabel: (r, c) => (c === null ? `별표 ${r}개` : `별표 ${r}개 리뷰 ${c}개`),
    noReviews: '리뷰 없음',
    sponsored: '광고',
    endOfList: '목록의 끝에 도달했습니다.',
    notFound: (q) => `Google 지도에서 '${q}'을(를) 찾을 수 없습니다.`,
    notFoundHint: '검색어의 철자가 올바른지 확인하세요. 시/도 또는 우편번호를 추가해 보세요.',
    resultsFor: (q) => `${q}에 대한 검색결과`,
    results: '검색결과',
    updateWhenMapMoves: '지도를 움직이면 결과 업데이트',
    website: '웹사이트',
    visitWebsite: (n) => `${n} 웹사이트 방문하기`,
    directions: '경로',
    directionsTo: (n) => `${n}까지의 경로 찾기`,
    wheelchair: '휠체어 이용 가능 입구',
    searchLabel: 'Google 지도 검색',
    loading: '로드 중…',
    placeStars: (r) => `별표 ${r}개 `,
    placeReviews: (c) => `리뷰 ${c}개`,
    address: '주소',
    websiteRow: '웹사이트',
    phone: '전화',
    hours: '영업시간',
    copyAddress: '주소 복사',
    openWebsite: '웹사이트 열기',
    copyPhone: '전화번호 복사',
    tabs: { overview: (n) => `${n} 개요`, reviews: (n) => `${n} 리뷰`, about: (n) => `${n} 정보`, names: ['개요', '리뷰', '정보'] },
    informationFor: (n) => `${n} 정보`,
    open24h: '24시간 영업',
    openCloses: (h) => `영업 중 ⋅ ${hourKo(h)}에 영업 종료`,
    closedOpens: (h) => `영업 종료 ⋅ ${hourKo(h)}에 영업 시작`,
    closedWord: '영업 종료',
  },
};

/** Korean names of the replica world's English labels (categories, districts, cities, roads). */
const KO: Readonly<Record<string, string>> = {
  // Categories (categories.ts labels).
  Cafe: '카페',
  'Coffee shop': '커피숍',
  'Dessert shop': '디저트 전문점',
  'Korean restaurant': '한식당',
  Restaurant: '음식점',
  'Chinese restaurant': '중식당',
  'Japanese restaurant': '일식당',
  'Barbecue restaurant': '고기 요리 전문점',
  'Noodle shop': '국수 전문점',
  'Medical clinic': '의원',
  'Internal medicine clinic': '내과',
  'Pediatric clinic': '소아과',
  'Dermatology clinic': '피부과',
  Pharmacy: '약국',
  'Drug store': '드럭스토어',
  'Hair salon': '미용실',
  'Beauty salon': '뷰티살롱',
  'Barber shop': '이발소',
  'Convenience store': '편의점',
  Bakery: '제과점',
  Dentist: '치과',
  'Dental clinic': '치과의원',
  Bar: '바',
  Pub: '펍',
  'Cocktail bar': '칵테일 바',
  Gym: '헬스장',
  'Fitness center': '피트니스 센터',
  // Districts and cities (world.ts).
  'Jung District': '중구',
  'Jongno District': '종로구',
  'Gangnam District': '강남구',
  'Mapo District': '마포구',
  'Yongsan District': '용산구',
  'Seocho District': '서초구',
  'Songpa District': '송파구',
  'Seongdong District': '성동구',
  'Gwangjin District': '광진구',
  'Yeongdeungpo District': '영등포구',
  'Dongdaemun District': '동대문구',
  'Seodaemun District': '서대문구',
  'Gangseo District': '강서구',
  'Nowon District': '노원구',
  'Gyo-dong': '교동',
  'Jumunjin-eup': '주문진읍',
  'Okgye-myeon': '옥계면',
  'Gangdong-myeon': '강동면',
  Seoul: '서울특별시',
  'Gangneung-si': '강원특별자치도 강릉시',
  'South Korea': '대한민국',
  // Roads (world.ts ROADS).
  ...ROAD_KO,
};

/** A label in Korean when the replica knows it; the given text otherwise (as Google keeps unknown names). */
export function koLabel(text: string): string {
  return KO[text] ?? text;
}

/** "12 Sejong-daero" → "세종대로 12" (Korean road addresses put the number last). */
function koStreet(street: string): string {
  const m = /^(\d+(?:-\d+)?)\s+(.+)$/.exec(street);
  return m ? `${koLabel(m[2]!)} ${m[1]}` : koLabel(street);
}

/**
 * The place as the page describes it in `lang`: the same place (ids, position, rating, counts,
 * name, phone, website), its categories and address in that language. English is the world itself.
 */
export function localisePlace(place: ReplicaPlace, lang: ReplicaLang): ReplicaPlace {
  if (lang === 'en') return place;
  const a = place.address;
  const address: ReplicaAddress = {
    ...a,
    street: koStreet(a.street),
    district: koLabel(a.district),
    city: koLabel(a.city),
    country: koLabel(a.country),
  };
  return {
    ...place,
    categories: place.categories.map(koLabel),
    address,
    fullAddress: `${address.country} ${address.city} ${address.district} ${address.street}`,
  };
}

/** The open-status line in `lang` (the replica's clock is always midday). */
export function openStatusText(hours: ReplicaPlace['hours'], lang: ReplicaLang): string | null {
  const t = UI_TEXT[lang];
  if (hours === null) return null;
  if (hours === 'open24h') return t.open24h;
  if (hours.opens > 12) return t.closedOpens(hours.opens);
  return t.openCloses(hours.closes);
}
