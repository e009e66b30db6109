/**
 * What the Naver replica's visitors write (reviews.ts draws from here): nicknames, Korean review
 * texts by sentiment and by kind of place, the "이런 점이 좋았어요" keywords each kind of place
 * offers, and owners' replies. The hostile texts and names are the Google replica's
 * (../review-texts.ts): anyone can write anything in a review, on either site.
 */
import type { CategoryId } from '../categories';
import type { Rng } from '../prng';
import { drawHostileText, HOSTILE_NAMES } from '../review-texts';

/** A keyword as the 2026 place capture's `votedKeyword.details[]` carries it. */
export interface NaverKeyword {
  code: string;
  displayName: string;
}

type PlaceKind = 'food' | 'care' | 'other';

const KIND_OF: Record<CategoryId, PlaceKind> = {
  cafe: 'food',
  restaurant: 'food',
  bakery: 'food',
  bar: 'food',
  clinic: 'care',
  dentist: 'care',
  pharmacy: 'care',
  hairSalon: 'other',
  convenienceStore: 'other',
  gym: 'other',
};

const kw = (code: string, displayName: string): NaverKeyword => ({ code, displayName });

/** The food list is the 2026 capture's most voted keywords (codes and names as there); the others follow its wording [?]. */
const KEYWORDS: Record<PlaceKind, readonly NaverKeyword[]> = {
  food: [
    kw('food_good', '음식이 맛있어요'),
    kw('kind', '친절해요'),
    kw('store_clean', '매장이 청결해요'),
    kw('price_cheap', '가성비가 좋아요'),
    kw('interior_cool', '인테리어가 멋져요'),
    kw('fresh', '재료가 신선해요'),
    kw('large', '양이 많아요'),
    kw('special_menu', '특별한 메뉴가 있어요'),
    kw('music_good', '음악이 좋아요'),
    kw('together', '단체모임 하기 좋아요'),
    kw('spacious', '매장이 넓어요'),
    kw('talk_good', '대화하기 좋아요'),
    kw('view_good', '뷰가 좋아요'),
    kw('parking_easy', '주차하기 편해요'),
  ],
  care: [
    kw('kind', '친절해요'),
    kw('explain_good', '설명을 잘 해줘요'),
    kw('treatment_good', '진료가 꼼꼼해요'),
    kw('clean', '시설이 깔끔해요'),
    kw('wait_short', '대기시간이 짧아요'),
    kw('reserve_easy', '예약이 편해요'),
    kw('parking_easy', '주차하기 편해요'),
    kw('no_overtreat', '과잉진료가 없어요'),
  ],
  other: [
    kw('kind', '친절해요'),
    kw('store_clean', '매장이 청결해요'),
    kw('price_cheap', '가성비가 좋아요'),
    kw('skill_good', '실력이 좋아요'),
    kw('mood_good', '분위기가 좋아요'),
    kw('location_good', '찾아가기 편해요'),
    kw('parking_easy', '주차하기 편해요'),
  ],
};

const GOOD: Record<PlaceKind, readonly string[]> = {
  food: [
    '음식이 정말 맛있어요.',
    '직원분들이 친절하셔서 기분 좋게 먹고 왔어요.',
    '재료가 신선하고 양도 넉넉해요.',
    '가격 대비 구성이 알차서 만족스러웠습니다.',
    '점심시간에는 웨이팅이 조금 있지만 회전이 빨라요.',
    '매장이 깔끔하고 분위기가 좋아요.',
    '부모님 모시고 가기 좋은 곳이에요.',
    '사장님이 서비스도 챙겨주셨어요 ㅎㅎ',
    '국물이 진하고 깊은 맛이 나요.',
    '디저트까지 완벽했어요.',
    '주차는 근처 공영주차장을 이용하시면 편해요.',
    '다음에 또 방문하려고요!',
  ],
  care: [
    '원장님이 설명을 자세히 해주세요.',
    '대기 시간이 짧아서 좋았어요.',
    '간호사분들이 친절하세요.',
    '진료가 꼼꼼하고 과잉진료가 없어요.',
    '시설이 깨끗하고 예약이 편했어요.',
    '약사님이 복용법을 친절하게 알려주셨어요.',
    '아이 데리고 가기에도 편해요.',
    '다음에도 여기로 올 것 같아요.',
  ],
  other: [
    '원하는 스타일로 잘 해주셨어요.',
    '시설이 깔끔하고 관리가 잘 되어 있어요.',
    '친절하게 응대해 주셨어요.',
    '가격이 합리적이에요.',
    '위치가 좋아서 자주 들러요.',
    '늦은 시간에도 열려 있어서 편해요.',
    '재방문 의사 있습니다.',
  ],
};

const MIXED: readonly string[] = [
  '맛은 무난했어요.',
  '사람이 많아서 조금 시끄러웠어요.',
  '대기가 길어서 한 시간 가까이 기다렸어요.',
  '가격이 조금 올라서 아쉬웠습니다.',
  '주차가 불편해요.',
  '응대가 조금 무뚝뚝했어요.',
];

/** Visitors from abroad write now and then in their own language. */
const FOREIGN: readonly string[] = ['Great food and friendly staff!', 'Came here twice during my trip to Seoul.', 'とても親切でした。また来ます。'];

const NICKNAMES = [
  '맛집헌터',
  '서울토박이',
  '먹보곰',
  '하루한끼',
  '단골손님',
  '산책하는고양이',
  '빵순이',
  '커피중독자',
  '동네주민',
  '행복한돼지',
  '구름이네',
  '여행가는길',
  'yummy_day',
  'jiyoung92',
  'minsu_k',
  'happy0303',
];

const EMPTY_SHARE = 0.02;
const HOSTILE_SHARE = 0.08;
const FOREIGN_SHARE = 0.03;
const LONG_SHARE = 0.2;
const HOSTILE_NAME_SHARE = 0.01;
const SUFFIXED_NAME_SHARE = 0.3;

export function keywordsFor(category: CategoryId): readonly NaverKeyword[] {
  return KEYWORDS[KIND_OF[category] ?? 'other'];
}

export function drawNickname(rng: Rng): string {
  if (rng.chance(HOSTILE_NAME_SHARE)) return rng.pick(HOSTILE_NAMES);
  const name = rng.pick(NICKNAMES);
  return rng.chance(SUFFIXED_NAME_SHARE) ? `${name}${rng.int(1, 999)}` : name;
}

/** A visitor's text: Korean mostly, by how the visit went (`happy`); '' now and then (rare on Naver), hostile in a seeded share. */
export function drawNaverText(rng: Rng, category: CategoryId, happy: boolean): string {
  if (rng.chance(EMPTY_SHARE)) return '';
  if (rng.chance(HOSTILE_SHARE)) return drawHostileText(rng);
  if (rng.chance(FOREIGN_SHARE)) return rng.pick(FOREIGN);
  const pool = happy ? GOOD[KIND_OF[category] ?? 'other'] : [...MIXED, ...GOOD[KIND_OF[category] ?? 'other'].slice(0, 2)];
  // Long texts run past the page's cut (150 characters), so the expander has work to do.
  const count = rng.chance(LONG_SHARE) ? rng.int(7, 14) : rng.int(1, 3);
  return Array.from({ length: count }, () => rng.pick(pool)).join(' ');
}

/** The owner's reply, addressed as the 2026 fixture's are ("{nickname}님, 안녕하세요. {place}입니다."). */
export function drawReplyText(rng: Rng, nickname: string, placeName: string, happy: boolean): string {
  const body = happy
    ? rng.pick(['방문해 주셔서 감사합니다. 또 뵙겠습니다!', '소중한 리뷰 감사드립니다. 앞으로도 정성을 다하겠습니다.', '좋은 말씀 감사합니다 😊'])
    : rng.pick(['불편을 드려 죄송합니다. 말씀 주신 부분 개선하겠습니다.', '소중한 의견 감사합니다. 더 노력하겠습니다.']);
  return rng.chance(0.7) ? `${nickname}님, 안녕하세요. ${placeName}입니다.\n${body}` : body;
}
