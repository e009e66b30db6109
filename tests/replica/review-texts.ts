/**
 * What the replica's reviewers write (reviews.ts draws from here): author names, review texts by
 * rating, foreign texts with the English translation Google shows, owners' replies — and the hostile
 * texts a reviews pass must carry through untouched (CSV formulas, HTML, RTL overrides, a 10,000
 * character text, emoji, line breaks, Korean), since anyone can write anything in a review.
 */
import type { Rng } from './prng';

export interface DrawnText {
  text: string;
  translation: string | null;
}

const FIRST_NAMES = ['James', 'Olivia', 'Minji', 'Daniel', 'Sophie', 'Hyun-woo', 'Emma', 'Lucas', 'Yuna', 'Noah', 'Chloe', 'Jae-won', 'Grace', 'Mia', 'Ryan'];
const LAST_NAMES = ['Kim', 'Lee', 'Park', 'Choi', 'Smith', 'Jung', 'Kang', 'Brown', 'Cho', 'Yoon', 'Garcia', 'Han', 'Müller', 'Nguyen', 'Tanaka'];
const KOREAN_NAMES = ['김민준', '이서연', '박지호', '최수아', '정도윤', '강하은', '윤지우', '임채원'];
/** Names that break naive markup or quoting where a page or a file prints them (the Naver replica's reviewers use them too). */
export const HOSTILE_NAMES = [`Tom "The Critic" O'Neil`, '<b>Jane</b> & Co', '\u202eRevo Nomis', '=cmd|"/c calc"!A1'];

/** Sentences by rating (index 0 = 1 star). */
const SENTENCES: readonly (readonly string[])[] = [
  [
    'Worst service I have had in years.',
    'We waited forty minutes and nobody came to take our order.',
    'The place was dirty and the staff did not care.',
    'Overpriced and the portions were tiny.',
    'I will not be coming back.',
  ],
  [
    'Not great, not terrible, mostly disappointing.',
    'The food was cold when it arrived.',
    'Staff seemed overwhelmed on a Friday night.',
    'Too loud to hold a conversation.',
    'Parking nearby is a nightmare.',
  ],
  [
    'An average experience overall.',
    'Some dishes were good, others forgettable.',
    'Prices are fair for the area.',
    'Service was slow but friendly.',
    'Fine if you are nearby, not worth a detour.',
  ],
  [
    'Good food and a pleasant atmosphere.',
    'The staff were friendly and quick.',
    'A little crowded at lunch but worth the wait.',
    'Nice view from the window seats.',
    'I would come back to try the rest of the menu.',
  ],
  [
    'Absolutely loved it, one of the best in Seoul.',
    'Everything we ordered was delicious.',
    'The owner remembered us from last time, such a warm welcome.',
    'Clean, cosy and reasonably priced.',
    'Highly recommend the seasonal special.',
    'Already planning my next visit.',
  ],
];

/** Foreign texts with the translation Google shows for them. */
const TRANSLATED: readonly DrawnText[] = [
  { text: '정말 맛있어요. 직원분들도 친절하고 분위기도 좋아요.', translation: 'It was really delicious. The staff were kind and the atmosphere was nice too.' },
  { text: '가격 대비 양이 적어요. 재방문 의사는 없습니다.', translation: 'The portions are small for the price. I have no intention of returning.' },
  { text: 'コーヒーがとても美味しかったです。また来ます。', translation: 'The coffee was very tasty. I will come again.' },
  { text: 'Muy buen servicio, la comida llegó rápido y caliente.', translation: 'Very good service, the food arrived quickly and hot.' },
  { text: 'Endroit charmant, un peu bruyant le soir.', translation: 'Charming place, a bit noisy in the evening.' },
  {
    text: '주말 점심에 가족들과 방문했습니다. 대기가 30분 정도 있었지만 회전이 빨라서 금방 들어갔어요. 메뉴는 전부 훌륭했고 특히 계절 메뉴가 인상적이었습니다. 주차는 근처 공영주차장을 이용하시면 됩니다. 다음에는 평일 저녁에 와보려고 해요. 사장님께서 직접 테이블마다 다니시면서 음식이 괜찮은지 물어봐 주셔서 감동이었습니다.',
    translation:
      'I visited with my family for a weekend lunch. There was about a 30-minute wait, but the turnover was quick so we got in soon. Every dish was excellent, and the seasonal menu was especially impressive. For parking, use the public lot nearby. Next time I want to come on a weekday evening. The owner went around to every table asking whether the food was all right, which really touched me.',
  },
];

export const HOSTILE_KINDS = ['formula', 'html', 'rtl', 'long', 'emoji', 'newlines', 'korean'] as const;
/** The 10,000-character text is the heavy one: drawn half as often as each other kind. */
const HOSTILE_WEIGHTS = [1, 1, 1, 0.5, 1, 1, 1];
const FORMULAS = ['=HYPERLINK("http://x","y")', '+1 would come again', '-2 stars for the parking', '@SUM(A1)'];
const LONG_LENGTH = 10_000;

const REPLIES_GOOD = [
  'Thank you for your kind review! We hope to see you again soon.',
  'Thanks for visiting us, we are glad you enjoyed it 😊',
  '소중한 리뷰 감사합니다! 또 방문해 주세요.',
];
const REPLIES_BAD = [
  'We are sorry to hear about your experience. Please contact us so we can make it right.',
  'Thank you for the feedback. We have shared it with our team and are working on it.',
];

/** Share of reviews with a rating and no text. */
const RATING_ONLY_SHARE = 0.22;
const HOSTILE_SHARE = 0.1;
const TRANSLATED_SHARE = 0.12;
const LONG_SHARE = 0.25;

export function drawAuthor(rng: Rng): string {
  if (rng.chance(0.01)) return rng.pick(HOSTILE_NAMES);
  if (rng.chance(0.25)) return rng.pick(KOREAN_NAMES);
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

/** A review's text for its rating: empty for a rating-only review; a translation only for foreign texts. */
export function drawText(rng: Rng, rating: number): DrawnText {
  if (rng.chance(RATING_ONLY_SHARE)) return { text: '', translation: null };
  if (rng.chance(HOSTILE_SHARE)) return { text: drawHostileText(rng), translation: null };
  if (rng.chance(TRANSLATED_SHARE)) return rng.pick(TRANSLATED);
  const pool = SENTENCES[rating - 1]!;
  const count = rng.chance(LONG_SHARE) ? rng.int(6, 14) : rng.int(1, 3);
  return { text: Array.from({ length: count }, () => rng.pick(pool)).join(' '), translation: null };
}

/** One hostile text, its kind drawn by weight (also what the Naver replica's reviewers write now and then). */
export function drawHostileText(rng: Rng): string {
  return hostileText(rng, HOSTILE_KINDS[rng.weighted(HOSTILE_WEIGHTS)]!);
}

function hostileText(rng: Rng, kind: (typeof HOSTILE_KINDS)[number]): string {
  switch (kind) {
    case 'formula':
      return rng.pick(FORMULAS);
    case 'html':
      return '<img src=x onerror=alert(1)> Great noodles </span></div><script>alert(2)</script>';
    case 'rtl':
      return 'Good \u202eecivres\u202c and fair prices';
    case 'long':
      return 'This review goes on and on. '.repeat(Math.ceil(LONG_LENGTH / 28)).slice(0, LONG_LENGTH);
    case 'emoji':
      return 'Best bingsu 🍧🍧 ever! 👍🏽 Family of four 👨‍👩‍👧‍👦 loved it ❤️';
    case 'newlines':
      return 'Pros:\n- fast\n- cheap\r\n\nCons:\n- loud';
    case 'korean':
      return '사장님이 친절하시고 음식이 정말 맛있어요! 재방문 의사 100%입니다 👍';
  }
}

export function drawReplyText(rng: Rng, rating: number): string {
  return rng.pick(rating >= 4 ? REPLIES_GOOD : REPLIES_BAD);
}
