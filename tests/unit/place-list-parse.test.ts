/**
 * A whole place list (issue 40): lines and their numbers, blank lines and comments, duplicates
 * kept once, CSV with a named column (and the answer "choose a column" when none is named), the
 * limits (10,000 lines read, 50,000 at the edge, a million refused whole with the reason), and
 * the time estimate, held equal to the place-details pass's own. Real ids as in
 * place-list-links.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../utils/config/settings';
import { estimateDetails, SECONDS_PER_PLACE_WORK } from '../../utils/details/estimate';
import { estimateList, LIST_SECONDS_PER_LOAD_WORK, MAX_LIST_LINES, parsePlaceList, type PlaceListResult } from '../../utils/input';

const PANTRY = { featureId: '0x47c609e91734d71b:0xb13072d0007a87d1', placeId: 'ChIJG9c0F-kJxkcR0Yd6ANByMLE', cid: '12767831181282150353' };
const PANTRY_HREF = `https://www.google.com/maps/place/The+Pantry/data=!4m7!3m6!1s${PANTRY.featureId}!8m2!3d52.3634845!4d4.8849427!16s%2Fg%2F1tfxfwsp!19s${PANTRY.placeId}?authuser=0&hl=en&rclk=1`;

type Read = Extract<PlaceListResult, { status: 'read' }>;

function read(text: string, options?: Parameters<typeof parsePlaceList>[1]): Read {
  const r = parsePlaceList(text, options);
  if (r.status !== 'read') throw new Error(`expected a read list, got ${JSON.stringify(r)}`);
  return r;
}

describe('one place per line', () => {
  const text = [
    '# cafes to refresh, 2026-12', // 1
    PANTRY_HREF, // 2
    '', // 3
    'https://map.naver.com/p/entry/place/1178829266', // 4
    '   ', // 5
    'https://place.map.kakao.com/27388604', // 6
    'https://www.google.com/maps/search/coffee/@52.37,4.89,15z', // 7
    `https://www.google.com/maps?cid=${PANTRY.cid}`, // 8: the Pantry again
    'naver:abc', // 9
    'https://naver.me/5Hd3kQpX', // 10
    'https://google.com.evil.example/maps/place/x/data=!4m2!3m1!1s0x1:0x2', // 11
    'kakao:27388604', // 12: again
    'https://naver.me/5Hd3kQpX', // 13: the same share again
    '  # a comment, indented', // 14
    'http://place.map.kakao.com/8252248', // 15
  ].join('\r\n');

  it('reads places, shares and bad lines with their 1-based line numbers', () => {
    const r = read(text);
    expect(r.places.map((p) => [p.line, p.key])).toEqual([
      [2, `google:${PANTRY.cid}`],
      [4, 'naver:1178829266'],
      [6, 'kakao:27388604'],
      [15, 'kakao:8252248'],
    ]);
    expect(r.shares).toEqual([{ provider: 'naver', url: 'https://naver.me/5Hd3kQpX', line: 10 }]);
    expect(r.bad).toEqual([
      { line: 7, text: 'https://www.google.com/maps/search/coffee/@52.37,4.89,15z', reason: 'a Google search link, not a place' },
      { line: 9, text: 'naver:abc', reason: 'a Naver place id must be digits (5 to 12 of them, not starting with 0)' },
      {
        line: 11,
        text: 'https://google.com.evil.example/maps/place/x/data=!4m2!3m1!1s0x1:0x2',
        reason: 'not a Google, Naver or Kakao place link (the link goes to google.com.evil.example)',
      },
    ]);
    expect(r.duplicates).toBe(3);
    expect(r).toMatchObject({ lines: 15, entries: 11, column: null, siteColumn: null, header: null });
  });

  it('keeps the first line of a place named in several forms, and counts the others', () => {
    const r = read(
      [
        `https://www.google.com/maps?cid=${PANTRY.cid}`,
        PANTRY_HREF,
        `https://www.google.com/maps?q=The+Pantry&ftid=${PANTRY.featureId}`,
        `https://www.google.com/maps/place/?q=place_id:${PANTRY.placeId}`,
        `google:${PANTRY.featureId}`,
        `google:${PANTRY.cid}`,
        'https://map.naver.com/p/entry/place/1446535451',
        'https://pcmap.place.naver.com/restaurant/1446535451/home',
        'naver:1446535451',
      ].join('\n'),
    );
    expect(r.places.map((p) => [p.line, p.key, p.featureId])).toEqual([
      [1, `google:${PANTRY.cid}`, null],
      [7, 'naver:1446535451', null],
    ]);
    expect(r.duplicates).toBe(7);
  });

  it('shows a bad line bounded to 200 characters, with direction and control characters replaced', () => {
    const long = `스타벅스 ${'가'.repeat(400)}`;
    const r = read(`${long}\n\u202eknil.dab\u0007`);
    expect(Array.from(r.bad[0]!.text)).toHaveLength(200);
    expect(r.bad[0]!.text.endsWith('…')).toBe(true);
    expect(r.bad[1]).toEqual({ line: 2, text: '\ufffdknil.dab\ufffd', reason: 'not a Google, Naver or Kakao place link' });
  });

  it('a one-column file: its header word is skipped and said so, quoted links are unquoted', () => {
    const r = read(
      `\ufeffurl\n"https://www.google.com/maps/place/The+Pantry/@52.3634845,4.8849427,17z/data=!4m2!3m1!1s${PANTRY.featureId}"\nhttps://place.map.kakao.com/27388604\n`,
    );
    expect(r.header).toBe('url');
    expect(r.places.map((p) => [p.line, p.key])).toEqual([
      [2, `google:${PANTRY.cid}`],
      [3, 'kakao:27388604'],
    ]);
    expect(r.bad).toEqual([]);
    expect(r.lines).toBe(3);
  });

  it('a first line that is not a header word is a bad line like any other', () => {
    const r = read('My cafes\nhttps://place.map.kakao.com/27388604');
    expect(r.header).toBeNull();
    expect(r.bad).toEqual([{ line: 1, text: 'My cafes', reason: 'not a Google, Naver or Kakao place link' }]);
  });

  it('an empty list reads as nothing', () => {
    expect(read('')).toMatchObject({ places: [], shares: [], bad: [], duplicates: 0, lines: 0, entries: 0 });
    expect(read('\n\n# nothing yet\n')).toMatchObject({ places: [], lines: 3, entries: 0 });
  });
});

describe('CSV with a header', () => {
  // The columns MapSweep's own export has (a few of them), a quoted name with a line break inside.
  const csv = [
    'name,provider,provider_id,url', // 1
    '동암상회,naver,1446535451,https://map.naver.com/p/entry/place/1446535451', // 2
    '"The Pantry, Amsterdam",google,12767831181282150353,https://www.google.com/maps?cid=12767831181282150353', // 3
    '"카페', // 4: a name across two lines
    '본점",kakao,27388604,https://place.map.kakao.com/27388604', // 5
    'broken,kakao,2738x8604,https://place.map.kakao.com/2738x8604', // 6
    ',,,', // 7
    'again,naver,1446535451,https://pcmap.place.naver.com/restaurant/1446535451/home', // 8
    'share,naver,,https://naver.me/5Hd3kQpX', // 9
  ].join('\n');

  it('with no column named, asks for one: the header names and the column that holds links', () => {
    expect(parsePlaceList(csv)).toEqual({
      status: 'choose-column',
      reason: 'the list looks like a table with the columns "name", "provider", "provider_id", "url": choose the column that holds the links or ids',
      columns: ['name', 'provider', 'provider_id', 'url'],
      suggested: 'url',
    });
  });

  it('reads the named column, a row by the line it starts on', () => {
    const r = read(csv, { column: 'url' });
    expect(r.places.map((p) => [p.line, p.key])).toEqual([
      [2, 'naver:1446535451'],
      [3, `google:${PANTRY.cid}`],
      [4, 'kakao:27388604'],
    ]);
    expect(r.shares).toEqual([{ provider: 'naver', url: 'https://naver.me/5Hd3kQpX', line: 9 }]);
    expect(r.bad).toEqual([
      { line: 6, text: 'https://place.map.kakao.com/2738x8604', reason: 'a Kakao place id (confirmid) must be digits (4 to 12 of them, not starting with 0)' },
    ]);
    expect(r).toMatchObject({ duplicates: 1, lines: 9, entries: 6, column: 'url', siteColumn: 'provider' });
  });

  it("reads bare ids with the row's site (the `provider` column found by its name), the case of the name aside", () => {
    const r = read(csv, { column: 'Provider_ID' });
    expect(r.column).toBe('provider_id');
    expect(r.places.map((p) => [p.line, p.key])).toEqual([
      [2, 'naver:1446535451'],
      [3, `google:${PANTRY.cid}`],
      [4, 'kakao:27388604'],
    ]);
    expect(r.bad).toEqual([{ line: 6, text: '2738x8604', reason: 'a Kakao place id (confirmid) must be digits (4 to 12 of them, not starting with 0)' }]);
    expect(r.duplicates).toBe(1);
  });

  it('a site column named by the person, in Korean, with the sites written as people write them', () => {
    const r = read('상호;사이트;아이디\n스타벅스;카카오맵;27388604\n쌀국수;네이버 지도;1178829266\n?;Daum;8252248\n??;yahoo;123456\n', {
      column: '아이디',
      siteColumn: '사이트',
    });
    expect(r.places.map((p) => p.key)).toEqual(['kakao:27388604', 'naver:1178829266', 'kakao:8252248']);
    expect(r.bad).toEqual([{ line: 5, text: '123456', reason: 'the row\'s site "yahoo" is not google, naver or kakao' }]);
  });

  it("a link that is another site than the row's site is refused", () => {
    const r = read('site\tlink\nnaver\thttps://place.map.kakao.com/27388604\n', { column: 'link' });
    expect(r.bad).toEqual([{ line: 2, text: 'https://place.map.kakao.com/27388604', reason: "the row's site is naver, but this is a Kakao link" }]);
  });

  it('a column that is not there: the reason and the columns that are', () => {
    expect(parsePlaceList(csv, { column: 'link' })).toEqual({
      status: 'choose-column',
      reason: 'there is no column named "link"; the columns are "name", "provider", "provider_id", "url"',
      columns: ['name', 'provider', 'provider_id', 'url'],
      suggested: 'url',
    });
    expect(parsePlaceList(csv, { column: 'url', siteColumn: 'site' })).toMatchObject({
      status: 'choose-column',
      reason: expect.stringMatching(/^there is no column named "site"/),
    });
  });

  it('a quote never closed spoils its row and says so', () => {
    const r = read('name,url\nok,https://place.map.kakao.com/27388604\n"bad,https://place.map.kakao.com/8252248\nlost,https://place.map.kakao.com/8094954\n', {
      column: 'url',
    });
    expect(r.places.map((p) => p.key)).toEqual(['kakao:27388604']);
    expect(r.bad).toHaveLength(1);
    expect(r.bad[0]).toMatchObject({ line: 3, reason: 'a quote (") opened in this row is never closed' });
  });

  it('a pasted spreadsheet range (tabs) is a table too', () => {
    const r = parsePlaceList('이름\t링크\n스타벅스\thttps://place.map.kakao.com/27388604\n');
    expect(r).toMatchObject({ status: 'choose-column', columns: ['이름', '링크'], suggested: '링크' });
  });

  it('a first line that is a link with commas (Google’s @lat,lng,zoom) is no header', () => {
    const r = read(
      `https://www.google.com/maps/place/The+Pantry/@52.3634845,4.8849427,17z/data=!4m2!3m1!1s${PANTRY.featureId}\nhttps://place.map.kakao.com/27388604`,
    );
    expect(r.places).toHaveLength(2);
  });
});

describe('limits: read easily, refused whole', () => {
  /** n distinct lines, a third of each site's forms. */
  function bigList(n: number): string {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = 10_000_000 + i;
      out.push(
        i % 3 === 0 ? `https://place.map.kakao.com/${id}` : i % 3 === 1 ? `https://map.naver.com/p/entry/place/${id}` : `https://www.google.com/maps?cid=${id}`,
      );
    }
    return out.join('\n');
  }

  it('10,000 lines: every place read, with its estimate', () => {
    const started = performance.now();
    const r = read(bigList(10_000));
    const ms = performance.now() - started;
    expect(r.places).toHaveLength(10_000);
    expect(r.bad).toEqual([]);
    expect(new Set(r.places.map((p) => p.key)).size).toBe(10_000);
    expect(r.places[9_999]!.line).toBe(10_000);
    expect(ms).toBeLessThan(5_000); // ≈ 60 ms measured on the 2-core machine
    expect(estimateList({ places: r.places.length })).toEqual({ loads: 10_000, seconds: 67_500, minutes: 1_125 });
  });

  it(`${MAX_LIST_LINES.toLocaleString('en-US')} lines is the edge: read; one more is refused`, () => {
    expect(read(bigList(MAX_LIST_LINES)).places).toHaveLength(MAX_LIST_LINES);
    expect(parsePlaceList(`${bigList(MAX_LIST_LINES)}\nkakao:27388604`)).toEqual({
      status: 'refused',
      reason: 'the list has 50,001 lines; at most 50,000 are read at once: split it into lists of 50,000 lines or fewer',
    });
  });

  it('a list of a million lines is refused with the reason, and nothing of it is read', () => {
    const million = 'kakao:27388604\n'.repeat(1_000_000);
    expect(parsePlaceList(million)).toEqual({
      status: 'refused',
      reason: 'the list has 1,000,000 lines; at most 50,000 are read at once: split it into lists of 50,000 lines or fewer',
    });
    expect(parsePlaceList('\n'.repeat(1_000_000))).toMatchObject({ status: 'refused' }); // blank lines count too
  });

  it('more than 20 MB is refused before its lines are counted, CSV or not', () => {
    const huge = `https://place.map.kakao.com/27388604?${'a'.repeat(21 * 1024 * 1024)}`;
    expect(parsePlaceList(huge)).toEqual({ status: 'refused', reason: 'the list is 21.0 MB; at most 20 MB is read at once: split it into smaller lists' });
    expect(parsePlaceList(huge, { column: 'url' })).toMatchObject({ status: 'refused' });
  });

  it('the limits can be set by the caller', () => {
    expect(parsePlaceList('kakao:27388604\nkakao:8252248', { limits: { maxLines: 1, maxBytes: 1_000 } })).toMatchObject({ status: 'refused' });
  });
});

describe('the estimate before the person confirms', () => {
  it("is the place-details pass's own: one paced page load per place", () => {
    expect(LIST_SECONDS_PER_LOAD_WORK).toBe(SECONDS_PER_PLACE_WORK);
    for (const places of [0, 1, 30, 10_000, 50_000]) {
      expect(estimateList({ places }).seconds).toBe(estimateDetails(places, DEFAULT_SETTINGS).seconds);
      expect(estimateList({ places }, { delayMs: 5_000, jitterMs: 0 }).seconds).toBe(estimateDetails(places, { delayMs: 5_000, jitterMs: 0 }).seconds);
    }
  });

  it('counts a share link twice (opening it, then its place), rounds minutes up, and reads nonsense as none', () => {
    expect(estimateList({ places: 10, shares: 5 }, { delayMs: 2_000, jitterMs: 0 })).toEqual({ loads: 20, seconds: 120, minutes: 2 });
    expect(estimateList({ places: 1 }, { delayMs: 2_000, jitterMs: 0 })).toEqual({ loads: 1, seconds: 6, minutes: 1 });
    expect(estimateList({ places: Number.NaN, shares: -3 }, { delayMs: Number.NaN, jitterMs: -1 })).toEqual({ loads: 0, seconds: 0, minutes: 0 });
  });
});
