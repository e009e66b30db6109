/**
 * The hours parser (utils/hours/) on every hours text in the real captures of
 * ../shared/real-pages/, read in place. Where the site also gives the hours as numbers (Google's
 * place data: `["Monday",["7 AM–8:30 PM"],…,[[7,0,20,30]]]`) the parse of the words must give the
 * same intervals as the site's own numbers: an oracle the parser never sees.
 */
import { describe, expect } from 'vitest';
import { osmOpeningHours, parseHoursText } from '../../utils/hours';
import { readRealPage, realPagesIt } from '../helpers/real-pages';

const realIt = realPagesIt('hours-real-pages.test.ts');

const DAY = '(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const pad = (n: number) => String(n).padStart(2, '0');

/** Google's own numbers for a day: `[[7,0,20,30]]` → 07:00–20:30 (a close at 0:00 is midnight, 24:00); null → closed. */
function googleIntervals(numbers: string): Array<{ open: string; close: string }> {
  if (numbers === 'null') return [];
  return (JSON.parse(numbers) as number[][]).map(([oh, om, ch, cm]) => ({
    open: `${pad(oh!)}:${pad(om!)}`,
    close: ch === 0 && cm === 0 ? '24:00' : `${pad(ch!)}:${pad(cm!)}`,
  }));
}

/** Each `[day, [texts], null, null, date, n, numbers]` row of Google's week, in `text` with quotes written as `quote`. */
function googleRows(text: string, quote: string): Array<{ day: string; words: string; numbers: string }> {
  const q = quote.replace(/\\/g, '\\\\');
  const re = new RegExp(`\\[${q}${DAY}${q},\\[${q}([^"\\\\]*)${q}\\],null,null,${q}\\d{4}-\\d{2}-\\d{2}${q},\\d+,(\\[\\[[\\d,\\[\\]]*?\\]\\]|null)`, 'g');
  return [...text.matchAll(re)].map((m) => ({ day: m[1]!, words: m[2]!, numbers: m[3]! }));
}

describe('Google: the words of each day against the site’s own numbers', () => {
  realIt('gmaps_tbm-map_search_coffee-athens_en_2024-12.json: every day of every place', () => {
    const rows = googleRows(readRealPage('google', 'gmaps_tbm-map_search_coffee-athens_en_2024-12.json'), '"');
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      const parsed = parseHoursText(`${row.day}: ${row.words}`);
      expect({ row, unparsed: parsed.unparsed, intervals: parsed.days[0]?.intervals }).toEqual({ row, unparsed: [], intervals: googleIntervals(row.numbers) });
    }
  });

  realIt('gmaps_place_page_tipsy-sticks-nicosia_en_2023-04.html: the week in the page state, and the panel’s aria-label sentence', () => {
    const html = readRealPage('google', 'gmaps_place_page_tipsy-sticks-nicosia_en_2023-04.html');
    const rows = googleRows(html, '\\"');
    expect(rows.length).toBeGreaterThanOrEqual(7);
    for (const row of rows) expect(parseHoursText(`${row.day}: ${row.words}`).days[0]?.intervals).toEqual(googleIntervals(row.numbers));

    const sentence = /aria-label="(Saturday, [^"]*Hide open hours for the week)"/.exec(html)![1]!;
    const week = parseHoursText(sentence);
    expect(osmOpeningHours(week)).toBe('Mo off; Tu-Fr 17:00-01:00; Sa 10:00-01:00; Su 10:00-17:00');
    expect(week.unparsed).toEqual(['Hide open hours for the week']);
  });

  realIt('gmaps_search_feed_restaurants-amsterdam_en_2025-11.html: the cards’ status lines are notes, never a week', () => {
    const html = readRealPage('google', 'gmaps_search_feed_restaurants-amsterdam_en_2025-11.html');
    const lines = [...html.matchAll(/>(Open|Closed|Opens soon)<\/span><span style="font-weight: 400;">([^<]*)</g)].map((m) => `${m[1]}${m[2]}`);
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(parseHoursText(line)).toMatchObject({ days: [], unparsed: [], notes: [line] });
  });
});

describe('Naver', () => {
  realIt('naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html: every weekly text gives the whole week, nothing unread', () => {
    const html = readRealPage('naver', 'naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html');
    const texts = [...html.matchAll(/"businessHours":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).filter((t) => t !== '');
    expect(texts.length).toBeGreaterThanOrEqual(10);
    for (const text of texts) expect({ text, ...parseHoursText(text) }).toMatchObject({ text, unknownDays: [], unparsed: [] });
  });

  realIt('naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html: newBusinessHours (today’s status) are notes', () => {
    const html = readRealPage('naver', 'naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html');
    const found = [...html.matchAll(/"NewBusinessHours","status":"([^"]*)","description":"([^"]*)"/g)].flatMap((m) => [m[1]!, m[2]!]);
    expect(found.length).toBeGreaterThan(10);
    for (const text of found) expect(parseHoursText(text)).toMatchObject({ days: [], unparsed: [], notes: [text] });
  });

  realIt('naver_allsearch_place_ssalguksu-near-yongsan_ko_2026-02-15.json: bizhourInfo is a status; a weekly closure in detailInfo is read', () => {
    const answer = JSON.parse(readRealPage('naver', 'naver_allsearch_place_ssalguksu-near-yongsan_ko_2026-02-15.json')) as {
      result: { place: { list: Array<{ bizhourInfo: string; businessStatus: { status: { text: string; detailInfo: string } } }> } };
    };
    const list = answer.result.place.list;
    expect(list).toHaveLength(20);
    for (const item of list) {
      for (const text of [item.bizhourInfo, item.businessStatus.status.text])
        expect(parseHoursText(text)).toMatchObject({ days: [], closed: null, unparsed: [] });
      const detail = parseHoursText(item.businessStatus.status.detailInfo);
      if (item.businessStatus.status.detailInfo === '매주 일요일 휴무') expect(osmOpeningHours(detail)).toBe('Mo-Sa unknown; Su off');
      else expect(detail).toMatchObject({ days: [], notes: [item.businessStatus.status.detailInfo], unparsed: [] });
    }
  });

  realIt('naver_pcmap_place_apollo-state_1446535451_ko_2026-05.json: the place page’s structured week, one line a day, as a provider would hand it in', () => {
    const state = JSON.parse(readRealPage('naver', 'naver_pcmap_place_apollo-state_1446535451_ko_2026-05.json')) as unknown;
    const days: Array<{ day: string; businessHours: { start: string; end: string } | null; description: string | null }> = [];
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') {
        if ((x as { __typename?: string }).__typename === 'WorkingHoursInfo') days.push(x as (typeof days)[number]);
        else Object.values(x).forEach(walk);
      }
    };
    walk(state);
    expect(days).toHaveLength(7);
    const lines = days.map((d) => [d.day, d.businessHours && `${d.businessHours.start}~${d.businessHours.end}`, d.description].filter(Boolean).join(' '));
    const week = parseHoursText(lines.join('\n'));
    // Sunday (5/31) is the fifth Sunday, closed by a monthly rule: the other Sundays are not known.
    expect(osmOpeningHours(week)).toBe('Mo-Sa 16:00-24:00; Su unknown');
    expect(week.unparsed).toEqual(['일(5/31) 정기휴무 (매달 5번째 일요일)']);
  });
});
