/**
 * osmOpeningHours (utils/hours/osm.ts): the week in OSM `opening_hours` syntax, and the parsed
 * DayHours read by the export's own `openingHoursText` (export/columns.ts) to the same hours day
 * by day, so a provider can store the parser's week in Listing.openingHours as it is.
 */
import { describe, expect, it } from 'vitest';
import { openingHoursText } from '../../utils/export/columns';
import { osmOpeningHours, parseHoursText, type ParsedHours } from '../../utils/hours';

const day = (d: number, intervals: Array<[string, string]>, text = 'x') => ({
  day: d,
  dayName: `day ${d}`,
  text,
  intervals: intervals.map(([open, close]) => ({ open, close })),
});
const week = (days: ParsedHours['days'], publicHolidays: ParsedHours['publicHolidays'] = null) => ({ days, publicHolidays });

describe('osmOpeningHours', () => {
  it('null when no day and no holiday rule is known', () => {
    expect(osmOpeningHours(week([]))).toBeNull();
  });

  it('days with the same hours written once, runs of three or more as a range', () => {
    const w = week([1, 2, 3, 5].map((d) => day(d, [['09:00', '18:00']])).concat([day(4, [['09:00', '13:00']]), day(6, []), day(7, [])]));
    expect(osmOpeningHours(w)).toBe('Mo-We,Fr 09:00-18:00; Th 09:00-13:00; Sa,Su off');
  });

  it('days not given are `unknown`, since OSM reads a day left out as closed', () => {
    expect(osmOpeningHours(week([day(1, [['10:00', '20:00']])]))).toBe('Mo 10:00-20:00; Tu-Su unknown');
  });

  it('a week open round the clock is 24/7; one day short of it is not', () => {
    const all = [1, 2, 3, 4, 5, 6, 7].map((d) => day(d, [['00:00', '24:00']]));
    expect(osmOpeningHours(week(all))).toBe('24/7');
    expect(osmOpeningHours(week(all.slice(0, 6)))).toBe('Mo-Sa 00:00-24:00; Su unknown');
  });

  it('spans past midnight and several spans a day as written; public holidays last', () => {
    const w = week(
      [
        day(5, [
          ['11:30', '14:30'],
          ['18:00', '02:00'],
        ]),
      ],
      { text: '휴무', intervals: [] },
    );
    expect(osmOpeningHours(w)).toBe('Mo-Th,Sa,Su unknown; Fr 11:30-14:30,18:00-02:00; PH off');
  });
});

/** `Mo 10:00-22:00; Tu off` → day code → its times, with OSM's `Mo-Fr` and `Sa,Su` spread out. */
function byDay(osm: string): Record<string, string> {
  const codes = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
  const out: Record<string, string> = {};
  for (const rule of osm.split('; ')) {
    const [days, times] = rule.split(' ') as [string, string];
    for (const part of days.split(',')) {
      const [from, to = from] = part.split('-');
      for (let i = codes.indexOf(from!); i <= codes.indexOf(to!); i++) out[codes[i]!] = times;
    }
  }
  return out;
}

describe('the parsed week in the export’s own opening_hours column', () => {
  it.each([
    '월요일 휴무 | 평일 11:30~22:00 21:00(마지막주문) | 평일 14:30~17:00 브레이크 타임 | 주말 12:00~22:00 21:00(마지막주문)',
    'Monday: 7\u202fAM–8:30\u202fPM; Tuesday: Closed; Sunday: 9\u202fAM–12\u202fAM',
    '매일 18:00 - 익일 02:00 | 매주 일요일 휴무',
    '정기휴무 (매주 월요일)',
  ])('%j: the same hours day by day', (text) => {
    const parsed = parseHoursText(text);
    const mine = byDay(osmOpeningHours(parsed)!);
    // The exporter writes the days the week does not give as unknown too (a day left out would read as closed).
    expect(byDay(openingHoursText(parsed.days)!)).toEqual(mine);
  });
});
