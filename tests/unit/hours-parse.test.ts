/**
 * The hours parser (utils/hours/, issue 40) on a table of texts as the three sites write them →
 * the OSM `opening_hours` it gives and what it could not read. Texts marked [real] are copied
 * from the captures in ../shared/real-pages/ (file named on the row's group); the read-in-place
 * check of every such text in the captures is hours-real-pages.test.ts. The rest are written in
 * the sites' formats from ../shared/naver-kakao-notes.md and ../shared/map-pages-spec.md.
 */
import { describe, expect, it } from 'vitest';
import { osmOpeningHours, parseHoursText } from '../../utils/hours';

const SADANG = 'naver/naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html';
const YONGSAN = 'naver/naver_allsearch_place_ssalguksu-near-yongsan_ko_2026-02-15.json';
const DONGAM = 'naver/naver_pcmap_place_apollo-state_1446535451_ko_2026-05.json';
const ATHENS = 'google/gmaps_tbm-map_search_coffee-athens_en_2024-12.json';
const NICOSIA = 'google/gmaps_place_page_tipsy-sticks-nicosia_en_2023-04.html';
const AMSTERDAM = 'google/gmaps_search_feed_restaurants-amsterdam_en_2025-11.html';

/** [text, opening_hours (null: no day known), unparsed pieces, where it comes from]. */
const TABLE: Array<[string, string | null, string[], string]> = [
  // Naver's weekly text (`businessHours` of each RestaurantListSummary) [real]
  ['매일 11:00~23:00 연중무휴', 'Mo-Su 11:00-23:00', [], SADANG],
  ['매일 10:30~23:30 연중무휴', 'Mo-Su 10:30-23:30', [], SADANG],
  ['매일 11:30~22:00', 'Mo-Su 11:30-22:00', [], SADANG],
  ['매일 16:00~22:00', 'Mo-Su 16:00-22:00', [], SADANG],
  ['평일 11:30~21:30 | 주말 12:00~21:30', 'Mo-Fr 11:30-21:30; Sa,Su 12:00-21:30', [], SADANG],
  ['평일 14:00~01:00 | 토요일 01:30~01:00 | 일요일 01:30~01:00', 'Mo-Fr 14:00-01:00; Sa,Su 01:30-01:00', [], SADANG],
  // Read as written: 23.5 hours past midnight, not "corrected" to 10:00.
  ['매일 10:30~10:00', 'Mo-Su 10:30-10:00', [], SADANG],
  ['매일 17:00~03:00', 'Mo-Su 17:00-03:00', [], SADANG],
  [
    '월요일 휴무 | 평일 11:30~22:00 21:00(마지막주문) | 평일 14:30~17:00 브레이크 타임 | 주말 12:00~22:00 21:00(마지막주문) | 공휴일 12:00~22:00 21:00(마지막주문)',
    'Mo off; Tu-Fr 11:30-14:30,17:00-22:00; Sa,Su 12:00-22:00; PH 12:00-22:00',
    [],
    SADANG,
  ],
  ['매일 11:30~14:30 라스트오더 2시 | 매일 17:30~20:30 라스트오더 8시', 'Mo-Su 11:30-14:30,17:30-20:30', [], SADANG],
  // Naver's status of the moment (`bizhourInfo`, `status.detailInfo`, `newBusinessHours.description`) [real]
  ['브레이크타임', null, [], YONGSAN],
  ['영업 중', null, [], YONGSAN],
  ['영업 종료', null, [], YONGSAN],
  ['오늘 휴무', null, [], YONGSAN],
  ['17:00에 영업시작', null, [], YONGSAN],
  ['21:00에 라스트오더', null, [], YONGSAN],
  ['15:00에 브레이크타임', null, [], SADANG],
  ['매주 일요일 휴무', 'Mo-Sa unknown; Su off', [], YONGSAN],
  // Today's span in allSearch's own form: not an hours text (read it from businessStatus, not here).
  ['202602151100~202602152140', null, ['202602151100~202602152140'], YONGSAN],
  // A visitor review's copy of the hours [real]: the monthly rule in brackets is not simplified.
  [
    '월 ~ 토 16:00 ~ 24:00 일요일 휴무 (※ 매달 5번째 일요일 정기 휴무)',
    'Mo-Sa 16:00-24:00; Su unknown',
    ['일요일 휴무 (※ 매달 5번째 일요일 정기 휴무)'],
    DONGAM,
  ],
  ['정기휴무 (매달 5번째 일요일)', null, ['정기휴무 (매달 5번째 일요일)'], DONGAM],
  // Google, a week as the place data words it (U+202F before AM/PM, as Google writes it) [real]
  [
    'Monday: 7\u202fAM–8:30\u202fPM; Tuesday: 7\u202fAM–8:30\u202fPM; Wednesday: 7\u202fAM–8:30\u202fPM; Thursday: 7\u202fAM–8:30\u202fPM; Friday: 7\u202fAM–8:30\u202fPM; Saturday: 7\u202fAM–8:30\u202fPM; Sunday: Closed',
    'Mo-Sa 07:00-20:30; Su off',
    [],
    ATHENS,
  ],
  ['Saturday: 9\u202fAM–12\u202fAM; Sunday: 9\u202fAM–12\u202fAM', 'Mo-Fr unknown; Sa,Su 09:00-24:00', [], ATHENS],
  ['Monday: 5:30\u202fAM–9\u202fPM', 'Mo 05:30-21:00; Tu-Su unknown', [], ATHENS],
  [
    'Saturday, 10\u202fam to 1\u202fam; Sunday, 10\u202fam to 5\u202fpm; Monday, Closed; Tuesday, 5\u202fpm to 1\u202fam; Wednesday, 5\u202fpm to 1\u202fam; Thursday, 5\u202fpm to 1\u202fam; Friday, 5\u202fpm to 1\u202fam. Hide open hours for the week',
    'Mo off; Tu-Fr 17:00-01:00; Sa 10:00-01:00; Su 10:00-17:00',
    ['Hide open hours for the week'],
    NICOSIA,
  ],
  ['Open ⋅ Closes 8:30\u202fPM', null, [], ATHENS],
  ['Closed · Opens 5\u202fPM', null, [], AMSTERDAM],
  ['Opens soon · 11:30\u202fAM', null, [], AMSTERDAM],
  ['Closed', null, [], AMSTERDAM],
  // Written in the sites' formats
  ['매일 10:00 - 22:00', 'Mo-Su 10:00-22:00', [], 'issue 40'],
  ['월~금 09:00~18:00', 'Mo-Fr 09:00-18:00; Sa,Su unknown', [], 'issue 40'],
  ['화 11:30 - 21:00', 'Mo,We-Su unknown; Tu 11:30-21:00', [], 'Naver place page, one day a line'],
  ['토,일 10:00~20:00', 'Mo-Fr unknown; Sa,Su 10:00-20:00', [], 'Kakao periodTxt'],
  ['토·일 10:00~20:00', 'Mo-Fr unknown; Sa,Su 10:00-20:00', [], 'Kakao periodTxt'],
  ['월,수,금 10:00-19:00', 'Mo,We,Fr 10:00-19:00; Tu,Th,Sa,Su unknown', [], 'a day list'],
  ['매일 10:30 ~ 21:00', 'Mo-Su 10:30-21:00', [], 'Kakao list a[data-id=periodTxt] (naver-kakao-notes B2)'],
  ['정기휴무 (매주 월요일)', 'Mo off; Tu-Su unknown', [], 'issue 40'],
  ['24시간 연중무휴', '24/7', [], 'Naver'],
  ['매일 00:00~24:00', '24/7', [], 'Naver'],
  ['Monday: Open 24 hours; Tuesday: Open 24 hours', 'Mo,Tu 00:00-24:00; We-Su unknown', [], 'Google'],
  ['매일 18:00-02:00', 'Mo-Su 18:00-02:00', [], 'overnight'],
  ['매일 18:00 - 익일 02:00', 'Mo-Su 18:00-02:00', [], 'overnight, Kakao wording'],
  ['매일 11:00~22:00 (일요일 휴무)', 'Mo-Sa 11:00-22:00; Su off', [], 'a closed day in brackets'],
  ['매일 10:00 - 22:00\n브레이크타임 15:00 - 17:00\n라스트오더 21:30', 'Mo-Su 10:00-15:00,17:00-22:00', [], 'Naver place page lines'],
  [
    '월~금 09:00~18:00 | 점심시간 13:00~14:00 | 토 09:00~13:00 | 일요일/공휴일 휴진',
    'Mo-Fr 09:00-13:00,14:00-18:00; Sa 09:00-13:00; Su off; PH off',
    [],
    'a clinic',
  ],
  ['Mon-Fri 9am-6pm, Sat 10am-2pm', 'Mo-Fr 09:00-18:00; Sa 10:00-14:00; Su unknown', [], 'English, short'],
  ['Monday: 11 AM–2 PM, 5–10 PM', 'Mo 11:00-14:00,17:00-22:00; Tu-Su unknown', [], 'Google, two spans'],
  ['Mon–Fri 8 AM–6 PM; Sat–Sun Closed', 'Mo-Fr 08:00-18:00; Sa,Su off', [], 'English, short'],
  ['Tues–Sat: 11:30 a.m.–9 p.m.', 'Mo,Su unknown; Tu-Sa 11:30-21:00', [], 'English, dotted halves'],
  ['Open daily 10 AM–10 PM', 'Mo-Su 10:00-22:00', [], 'English'],
  ['Closed on Mondays', 'Mo off; Tu-Su unknown', [], 'English'],
  ['금~월 18:00~02:00', 'Mo,Fr-Su 18:00-02:00; Tu-Th unknown', [], 'a day range through the weekend'],
  ['화~일 11:00 - 21:00 (월요일 정기휴무)', 'Mo off; Tu-Su 11:00-21:00', [], 'a closed day in brackets'],
  ['평일 09:30 ~ 18:30 / 토요일 09:30 ~ 13:00 / 일요일·공휴일 휴진', 'Mo-Fr 09:30-18:30; Sa 09:30-13:00; Su off; PH off', [], 'a clinic'],
  ['브레이크타임 15:00 - 17:00 | 매일 10:00 - 22:00', 'Mo-Su 10:00-15:00,17:00-22:00', [], 'a break first, for every day given'],
  ['오전 11시 ~ 오후 9시', null, ['오전 11시 ~ 오후 9시'], 'hours with no day: never spread over the week'],
  ['매일 오전 11시 ~ 오후 9시 30분', 'Mo-Su 11:00-21:30', [], 'Korean twelve-hour clock'],
  ['평일 10시부터 19시까지', 'Mo-Fr 10:00-19:00; Sa,Su unknown', [], '부터…까지'],
  ['임시휴업', null, [], 'issue 40'],
  ['Temporarily closed', null, [], 'Google'],
  ['폐업', null, [], 'issue 40'],
  ['Hours might differ', null, [], 'Google'],
  ['=cmd', null, ['=cmd'], 'hostile'],
];

describe('parseHoursText: the table', () => {
  it('has at least 40 texts, a quarter of them real', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
    expect(TABLE.filter(([, , , source]) => source.includes('/')).length).toBeGreaterThanOrEqual(TABLE.length / 4);
  });

  it.each(TABLE)('%j → %j', (text, osm, unparsed) => {
    const parsed = parseHoursText(text);
    expect(osmOpeningHours(parsed)).toBe(osm);
    expect(parsed.unparsed).toEqual(unparsed);
  });
});

describe('parseHoursText: what each piece says', () => {
  it('keeps the site’s own words as each day’s text, days Monday first', () => {
    const p = parseHoursText('Monday: 7 AM–8:30 PM; Sunday: Closed');
    expect(p.days).toEqual([
      { day: 1, dayName: 'Monday', text: '7 AM–8:30 PM', intervals: [{ open: '07:00', close: '20:30' }] },
      { day: 7, dayName: 'Sunday', text: 'Closed', intervals: [] },
    ]);
    expect(p.unknownDays).toEqual([2, 3, 4, 5, 6]);
  });

  it('names Korean days in Korean, and a closed day keeps its 휴무 (export’s opening_hours reads it as off)', () => {
    const p = parseHoursText('월요일 휴무 | 화~일 10:00~20:00');
    expect(p.days[0]).toEqual({ day: 1, dayName: '월요일', text: '휴무', intervals: [] });
    expect(p.days[1]).toEqual({ day: 2, dayName: '화요일', text: '10:00~20:00', intervals: [{ open: '10:00', close: '20:00' }] });
  });

  it('a day not mentioned is unknown, not closed', () => {
    const p = parseHoursText('화 11:30 - 21:00');
    expect(p.days.map((d) => d.day)).toEqual([2]);
    expect(p.unknownDays).toEqual([1, 3, 4, 5, 6, 7]);
  });

  it('takes a break out of the day and lists it with its days', () => {
    const p = parseHoursText('평일 11:30~22:00 | 평일 14:30~17:00 브레이크 타임');
    expect(p.days[0]!.intervals).toEqual([
      { open: '11:30', close: '14:30' },
      { open: '17:00', close: '22:00' },
    ]);
    expect(p.breaks).toEqual([{ days: [1, 2, 3, 4, 5], open: '14:30', close: '17:00' }]);
  });

  it('a break before its word, a last order after its word, on one line', () => {
    const p = parseHoursText('월 11:00 - 22:00 15:00 - 17:00 브레이크타임 21:30 라스트오더');
    expect(p.days).toEqual([
      {
        day: 1,
        dayName: '월요일',
        text: '11:00 - 22:00 15:00 - 17:00 브레이크타임 21:30 라스트오더',
        intervals: [
          { open: '11:00', close: '15:00' },
          { open: '17:00', close: '22:00' },
        ],
      },
    ]);
    expect(p.lastOrders).toEqual([{ days: [1], time: '21:30' }]);
  });

  it('a break inside a span past midnight is cut from the evening part', () => {
    const p = parseHoursText('매일 18:00~03:00 | 매일 23:00~23:30 브레이크타임');
    expect(p.days[0]!.intervals).toEqual([
      { open: '18:00', close: '23:00' },
      { open: '23:30', close: '03:00' },
    ]);
  });

  it('keeps the last order apart, and settles a Korean `2시` by the hours it falls in', () => {
    const p = parseHoursText('매일 11:30~14:30 라스트오더 2시 | 매일 17:30~20:30 라스트오더 8시');
    expect(p.lastOrders).toEqual([
      { days: [1, 2, 3, 4, 5, 6, 7], time: '14:00' },
      { days: [1, 2, 3, 4, 5, 6, 7], time: '20:00' },
    ]);
    expect(p.days[0]!.intervals).toEqual([
      { open: '11:30', close: '14:30' },
      { open: '17:30', close: '20:30' },
    ]);
  });

  it('does not guess a `N시` last order that fits the hours both ways, or none', () => {
    expect(parseHoursText('매일 09:00~23:00 라스트오더 10시').unparsed).toEqual(['매일 09:00~23:00 라스트오더 10시']);
    expect(parseHoursText('라스트오더 9시').unparsed).toEqual(['라스트오더 9시']);
  });

  it('a last order with no day and no hours is kept, tied to no day', () => {
    expect(parseHoursText('라스트오더 21:30')).toMatchObject({ days: [], lastOrders: [{ days: [], time: '21:30' }], unparsed: [] });
  });

  it('the most specific statement decides a day: a named day over 평일, over 매일', () => {
    expect(osmOpeningHours(parseHoursText('평일 09:00~18:00 | 수 09:00~13:00'))).toBe('Mo,Tu,Th,Fr 09:00-18:00; We 09:00-13:00; Sa,Su unknown');
    expect(osmOpeningHours(parseHoursText('매일 10:00 - 22:00 | 매주 월요일 휴무'))).toBe('Mo off; Tu-Su 10:00-22:00');
  });

  it('statements saying closed and open for one day at once leave it unknown and say so', () => {
    const p = parseHoursText('월 휴무 | 월 10:00~20:00');
    expect(p.days).toEqual([]);
    expect(p.unparsed).toEqual(['월 휴무', '월 10:00~20:00']);
  });

  it('a day on its line and its hours on the next (Naver’s place page, copied as text)', () => {
    const p = parseHoursText('월\n11:00 - 22:00\n15:00 - 17:00 브레이크타임\n21:30 라스트오더\n화\n정기휴무');
    expect(osmOpeningHours(p)).toBe('Mo 11:00-15:00,17:00-22:00; Tu off; We-Su unknown');
    expect(p.lastOrders).toEqual([{ days: [1], time: '21:30' }]);
  });

  it('a day with nothing after it is not read as closed', () => {
    expect(parseHoursText('월\n화 10:00~20:00')).toMatchObject({ unknownDays: [1, 3, 4, 5, 6, 7], unparsed: ['월'] });
  });

  it('closed for good or for now, as Listing.closed words it; 영업 종료 (closed for today) is neither', () => {
    expect(parseHoursText('폐업').closed).toBe('permanently');
    expect(parseHoursText('Permanently closed').closed).toBe('permanently');
    expect(parseHoursText('임시휴업').closed).toBe('temporarily');
    expect(parseHoursText('임시 휴업 | 매일 10:00~20:00')).toMatchObject({ closed: 'temporarily', unknownDays: [] });
    expect(parseHoursText('영업 종료')).toMatchObject({ closed: null, notes: ['영업 종료'] });
    expect(parseHoursText('월요일 임시휴업')).toMatchObject({ closed: null, unparsed: ['월요일 임시휴업'] });
  });

  it('public holidays: off, or their own hours', () => {
    expect(parseHoursText('공휴일 휴무').publicHolidays).toEqual({ text: '휴무', intervals: [] });
    expect(parseHoursText('토,일,공휴일 10:00~20:00').publicHolidays).toEqual({ text: '10:00~20:00', intervals: [{ open: '10:00', close: '20:00' }] });
  });

  it('English twelve-hour clock: noon, midnight, a.m./p.m., the half named once for a range', () => {
    const one = (text: string) => parseHoursText(`Monday: ${text}`).days[0]?.intervals;
    expect(one('12 PM–12 AM')).toEqual([{ open: '12:00', close: '24:00' }]);
    expect(one('9:30 a.m.–5 p.m.')).toEqual([{ open: '09:30', close: '17:00' }]);
    expect(one('11–2 PM')).toEqual([{ open: '11:00', close: '14:00' }]);
    expect(one('Noon–Midnight')).toEqual([{ open: '12:00', close: '24:00' }]);
  });

  it('full-width digits and marks read like ASCII ones', () => {
    expect(osmOpeningHours(parseHoursText('매일 １０：００～２２：００'))).toBe('Mo-Su 10:00-22:00');
  });

  it('a close marked next-day that would make the span longer than a day is not read', () => {
    expect(parseHoursText('매일 09:00 - 익일 10:00').unparsed).toEqual(['매일 09:00 - 익일 10:00']);
  });

  it('the site’s status of the moment goes to notes, not to the week', () => {
    expect(parseHoursText('24시간 영업')).toMatchObject({ days: [], notes: ['24시간 영업'], unparsed: [] });
    expect(parseHoursText('Open 24 hours')).toMatchObject({ days: [], notes: ['Open 24 hours'] });
    expect(parseHoursText('Closed')).toMatchObject({ days: [], notes: ['Closed'] });
  });

  it('an empty text says nothing', () => {
    expect(parseHoursText('  ')).toMatchObject({ days: [], unknownDays: [1, 2, 3, 4, 5, 6, 7], notes: [], unparsed: [] });
  });
});

describe('a statement not understood leaves the days it names undecided (a skeptical review found "매일" deciding them)', () => {
  it.each([
    ['매월 둘째, 넷째 월요일 휴무 | 매일 10:00~22:00', 'Mo unknown; Tu-Su 10:00-22:00'],
    ['첫째 화요일 휴무 | 매일 11:00~21:00', 'Mo,We-Su 11:00-21:00; Tu unknown'],
    ['매일 10:00~22:00 (마지막 주 월요일 휴무)', 'Mo unknown; Tu-Su 10:00-22:00'],
    ['격주 일요일 휴무 | 평일 09:00~18:00', 'Mo-Fr 09:00-18:00; Sa,Su unknown'],
    // A range names every day in it (a second review found 화 and 수 decided).
    ['매일 10:00~22:00 | 월~목 격주 휴무', 'Mo-Th unknown; Fr-Su 10:00-22:00'],
  ])('%s', (text, osm) => {
    expect(osmOpeningHours(parseHoursText(text))).toBe(osm);
  });
});
