/**
 * The hours parser (utils/hours/) on text a hostile or broken page could hand it: too long,
 * built to make a regex backtrack, spreadsheet formulas. The bound refuses a long text whole; the
 * tokenizer's regexes have no nested repetition, so the 2,000-character texts below are plain
 * calls (a backtracking regex would not return from them in any test's lifetime, which is the
 * failure these would show). Nothing read from them may reach a day's text.
 */
import { describe, expect, it } from 'vitest';
import { MAX_HOURS_TEXT, osmOpeningHours, parseHoursText } from '../../utils/hours';

const fill = (unit: string) => unit.repeat(Math.ceil(MAX_HOURS_TEXT / unit.length)).slice(0, MAX_HOURS_TEXT);

describe('parseHoursText on hostile text', () => {
  it(`refuses a text longer than ${MAX_HOURS_TEXT} characters whole: nothing read, the text kept`, () => {
    const text = `매일 10:00 - 22:00 ${'x'.repeat(MAX_HOURS_TEXT)}`;
    expect(parseHoursText(text)).toEqual({
      days: [],
      unknownDays: [1, 2, 3, 4, 5, 6, 7],
      publicHolidays: null,
      breaks: [],
      lastOrders: [],
      closed: null,
      notes: [],
      unparsed: [text],
    });
  });

  it('reads a text of exactly the bound', () => {
    const text = `매일 10:00 - 22:00${' '.repeat(MAX_HOURS_TEXT - 16)}|`;
    expect(text.length).toBe(MAX_HOURS_TEXT + 1);
    expect(osmOpeningHours(parseHoursText(text.slice(0, MAX_HOURS_TEXT)))).toBe('Mo-Su 10:00-22:00');
  });

  it.each([
    ['digits', fill('1')],
    ['colons', fill('1:')],
    ['open brackets', fill('(')],
    ['day ranges', fill('월~')],
    ['halves of the day', fill('오후 ')],
    ['break words', fill('브레이크타임 ')],
    ['ranges with nothing between', fill('10:00~')],
    ['spaces then a letter', `${' '.repeat(MAX_HOURS_TEXT - 1)}x`],
    ['a.m. marks', fill('1 a.m.')],
    ['near-words', fill('영업영업시')],
    ['statements', fill('월 10:00~22:00 | ')],
    ['dots between days', fill('월·')],
  ])('%s: 2,000 characters come back read, and bounded in what they produce', (_, text) => {
    const parsed = parseHoursText(text);
    expect(parsed.days.length).toBeLessThanOrEqual(7);
    expect(parsed.unparsed.join('').length).toBeLessThanOrEqual(text.length);
  });

  it.each(['=cmd', '=HYPERLINK("http://x","y")', '+cmd /C calc', '@SUM(1,2)', '-1+2', '\t=1+1', '<img src=x onerror=alert(1)>'])(
    '%j stays unparsed, and never becomes a day’s text',
    (text) => {
      const parsed = parseHoursText(text);
      expect(parsed.days).toEqual([]);
      expect(parsed.unparsed).toEqual([text.trim()]);
    },
  );

  it('a formula after good hours costs only its own statement', () => {
    const parsed = parseHoursText('매일 10:00 - 22:00 | =cmd|/C calc');
    expect(osmOpeningHours(parsed)).toBe('Mo-Su 10:00-22:00');
    expect(parsed.days.every((d) => !d.text.includes('='))).toBe(true);
    expect(parsed.unparsed).toEqual(['=cmd', '/C calc']);
  });

  it('a formula glued to a day’s hours takes the statement with it', () => {
    const parsed = parseHoursText('월 10:00~22:00=cmd');
    expect(parsed.days).toEqual([]);
    expect(parsed.unparsed).toEqual(['월 10:00~22:00=cmd']);
  });
});
