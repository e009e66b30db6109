/**
 * Business categories of the replica world: what a place is, the labels the page shows for it
 * (`P[13]`, hl=en) and the search terms (English and Korean) that find it.
 */

export type CategoryId = 'cafe' | 'restaurant' | 'clinic' | 'pharmacy' | 'hairSalon' | 'convenienceStore' | 'bakery' | 'dentist' | 'bar' | 'gym';

export interface Category {
  id: CategoryId;
  /** Relative frequency in a world. */
  weight: number;
  /** Main labels; a place gets one of them as `P[13][0]`. */
  labels: readonly string[];
  /** Lower-case search terms that match the whole category. */
  terms: readonly string[];
  /** Parts for generated names. */
  enNames: readonly string[];
  koNames: readonly string[];
  /** Chains: the same brand in many places, each with a branch suffix. */
  chains: readonly { en: string; ko: string }[];
  /** Whether cards show a price level. */
  priced: boolean;
}

export const CATEGORIES: readonly Category[] = [
  {
    id: 'cafe',
    weight: 22,
    labels: ['Cafe', 'Coffee shop', 'Dessert shop'],
    terms: ['cafe', 'cafes', 'café', 'coffee', 'coffee shop', 'coffee shops', '카페', '커피', '커피숍'],
    enNames: ['Moonlight Coffee', 'Cafe Onion', 'Slow Brew', 'Bean & Leaf', "Mina's Coffee", 'Cafe Haru', 'Daily Roast', 'Blue Door Cafe'],
    koNames: ['카페 온도', '커피 한잔', '달콤커피', '카페 봄날', '라떼하우스', '카페 숲', '느린커피'],
    chains: [
      { en: 'Starbucks', ko: '스타벅스' },
      { en: 'Ediya Coffee', ko: '이디야커피' },
      { en: 'Mega Coffee', ko: '메가커피' },
    ],
    priced: false,
  },
  {
    id: 'restaurant',
    weight: 30,
    labels: ['Korean restaurant', 'Restaurant', 'Chinese restaurant', 'Japanese restaurant', 'Barbecue restaurant', 'Noodle shop'],
    terms: ['restaurant', 'restaurants', 'food', '음식점', '식당', '맛집'],
    enNames: ['Seoul Table', "Kim's Kitchen", 'Golden Spoon', 'Han River Grill', 'Noodle House', 'Bibim Garden', 'Tom & Jerry Diner'],
    koNames: ['할매국밥', '고향식당', '명동칼국수', '한우마당', '진미식당', '맛있는집', '돼지갈비 본가'],
    chains: [
      { en: 'Bonjuk', ko: '본죽' },
      { en: 'Kimbap Heaven', ko: '김밥천국' },
    ],
    priced: true,
  },
  {
    id: 'clinic',
    weight: 8,
    labels: ['Medical clinic', 'Internal medicine clinic', 'Pediatric clinic', 'Dermatology clinic'],
    terms: ['clinic', 'clinics', 'doctor', 'medical clinic', '의원', '병원', '클리닉'],
    enNames: ['Seoul Family Clinic', 'Green Cross Clinic', 'Hana Medical Clinic', 'Sarang Clinic'],
    koNames: ['서울내과의원', '연세가정의원', '밝은피부과의원', '튼튼소아과의원', '하나이비인후과의원'],
    chains: [],
    priced: false,
  },
  {
    id: 'pharmacy',
    weight: 6,
    labels: ['Pharmacy', 'Drug store'],
    terms: ['pharmacy', 'pharmacies', 'drugstore', 'drug store', 'chemist', '약국'],
    enNames: ['Health Pharmacy', 'Onnuri Pharmacy', 'Central Pharmacy'],
    koNames: ['온누리약국', '건강약국', '중앙약국', '보람약국', '새봄약국'],
    chains: [{ en: 'Olive Young', ko: '올리브영' }],
    priced: false,
  },
  {
    id: 'hairSalon',
    weight: 9,
    labels: ['Hair salon', 'Beauty salon', 'Barber shop'],
    terms: ['hair salon', 'hair salons', 'salon', 'hairdresser', 'barber', '미용실', '헤어샵', '헤어'],
    enNames: ['Style Lab', 'Hair Story', 'Cut & Curl', 'Salon de Seoul'],
    koNames: ['헤어디자인 엘', '준오헤어', '미용실 꽃', '헤어살롱 봄'],
    chains: [{ en: 'Juno Hair', ko: '준오헤어' }],
    priced: false,
  },
  {
    id: 'convenienceStore',
    weight: 10,
    labels: ['Convenience store'],
    terms: ['convenience store', 'convenience stores', '편의점'],
    enNames: ['Corner Mart', 'Quick Stop'],
    koNames: ['동네마트', '24시편의점'],
    chains: [
      { en: 'GS25', ko: 'GS25' },
      { en: 'CU', ko: 'CU' },
      { en: '7-Eleven', ko: '세븐일레븐' },
    ],
    priced: false,
  },
  {
    id: 'bakery',
    weight: 5,
    labels: ['Bakery'],
    terms: ['bakery', 'bakeries', 'bread', '빵집', '베이커리', '제과점'],
    enNames: ['Butter Bakery', 'Morning Bread', 'Crumb & Co'],
    koNames: ['동네빵집', '밀도', '빵굽는마을'],
    chains: [
      { en: 'Paris Baguette', ko: '파리바게뜨' },
      { en: 'Tous les Jours', ko: '뚜레쥬르' },
    ],
    priced: false,
  },
  {
    id: 'dentist',
    weight: 4,
    labels: ['Dentist', 'Dental clinic'],
    terms: ['dentist', 'dentists', 'dental clinic', '치과'],
    enNames: ['Smile Dental Clinic', 'White Tooth Dental'],
    koNames: ['미소치과의원', '서울치과', '바른이치과'],
    chains: [],
    priced: false,
  },
  {
    id: 'bar',
    weight: 4,
    labels: ['Bar', 'Pub', 'Cocktail bar'],
    terms: ['bar', 'bars', 'pub', 'pubs', '술집', '호프'],
    enNames: ['The Night Owl', 'Hops & Barley', 'Blue Moon Bar'],
    koNames: ['호프집 한잔', '포차 골목', '맥주창고'],
    chains: [],
    priced: true,
  },
  {
    id: 'gym',
    weight: 2,
    labels: ['Gym', 'Fitness center'],
    terms: ['gym', 'gyms', 'fitness', 'fitness center', '헬스장', '헬스', '피트니스'],
    enNames: ['Iron Gym', 'Fit Zone', 'Power House Fitness'],
    koNames: ['바디팩토리', '헬스클럽 짐', '스포애니'],
    chains: [],
    priced: false,
  },
];

export function categoryById(id: CategoryId): Category {
  const c = CATEGORIES.find((x) => x.id === id);
  if (!c) throw new Error(`unknown category ${id}`);
  return c;
}

/** Collapse case and whitespace the way the replica compares queries, names and terms. */
export function normaliseQuery(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Categories whose terms match a query exactly (after normalising). */
export function categoriesForQuery(query: string): Set<CategoryId> {
  const q = normaliseQuery(query);
  const out = new Set<CategoryId>();
  for (const c of CATEGORIES) if (c.terms.includes(q)) out.add(c.id);
  return out;
}
