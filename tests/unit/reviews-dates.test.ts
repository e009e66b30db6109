import { describe, expect, it } from 'vitest';
import { parseReviewDate } from '../../utils/domain/review-date';

/** 2026-03-31 10:00 UTC: a month's end, to catch month arithmetic. */
const READ = Date.UTC(2026, 2, 31, 10, 0, 0);
const iso = (said: string, at = READ) => parseReviewDate(said, at);

describe('a review date as the page says it', () => {
  it('relative English dates, counted back from the reading, with their precision', () => {
    expect(iso('3 weeks ago')).toEqual({ said: '3 weeks ago', iso: '2026-03-10', precision: 'week' });
    expect(iso('a week ago')).toMatchObject({ iso: '2026-03-24', precision: 'week' });
    expect(iso('2 days ago')).toMatchObject({ iso: '2026-03-29', precision: 'day' });
    expect(iso('a day ago')).toMatchObject({ iso: '2026-03-30', precision: 'day' });
    // A calendar month back, clamped to February's last day.
    expect(iso('a month ago')).toMatchObject({ iso: '2026-02-28', precision: 'month' });
    expect(iso('13 months ago')).toMatchObject({ iso: '2025-02-28', precision: 'month' });
    expect(iso('2 years ago')).toMatchObject({ iso: '2024-03-31', precision: 'year' });
    expect(iso('an hour ago', Date.UTC(2026, 0, 1, 0, 30))).toMatchObject({ iso: '2025-12-31', precision: 'day' });
    expect(iso('Edited 5 days ago')).toMatchObject({ said: 'Edited 5 days ago', iso: '2026-03-26' });
  });

  it('relative Korean dates', () => {
    expect(iso('3주 전')).toMatchObject({ iso: '2026-03-10', precision: 'week' });
    expect(iso('2일 전')).toMatchObject({ iso: '2026-03-29', precision: 'day' });
    expect(iso('1개월 전')).toMatchObject({ iso: '2026-02-28', precision: 'month' });
    expect(iso('1년 전')).toMatchObject({ iso: '2025-03-31', precision: 'year' });
    expect(iso('어제')).toMatchObject({ iso: '2026-03-30', precision: 'day' });
  });

  it('printed days, in the forms the three sites use', () => {
    expect(iso('2025.3.5.')).toEqual({ said: '2025.3.5.', iso: '2025-03-05', precision: 'day' });
    expect(iso('2025.03.05.')).toMatchObject({ iso: '2025-03-05' });
    expect(iso('25.3.5.화')).toMatchObject({ iso: '2025-03-05' });
    // This year's day, or last year's when it is still to come.
    expect(iso('3.5.목')).toMatchObject({ iso: '2026-03-05' });
    expect(iso('12.24.수')).toMatchObject({ iso: '2025-12-24' });
    expect(iso('2025년 3월 5일')).toMatchObject({ iso: '2025-03-05' });
    expect(iso('March 5, 2025')).toMatchObject({ iso: '2025-03-05' });
    expect(iso('5 Mar 2025')).toMatchObject({ iso: '2025-03-05' });
  });

  it('a stamp with its time (Kakao\u2019s answers): the day as written, whatever the time or zone', () => {
    expect(iso('2025-03-05 23:59:59')).toEqual({ said: '2025-03-05 23:59:59', iso: '2025-03-05', precision: 'day' });
    expect(iso('2025-03-05T00:10:00+09:00')).toMatchObject({ iso: '2025-03-05' });
    expect(iso('2025-03-05T13:45:12.123Z')).toMatchObject({ iso: '2025-03-05' });
    for (const said of ['2025-02-30 10:00:00', '2025-03-05 25:00', '2025-03-05T13:45:12+09:00:00', '2025-03-05 13']) expect(iso(said), said).toBeNull();
  });

  it('anything else is unknown, never guessed', () => {
    for (const said of ['', 'recently', 'a while ago', '2025.2.30.', '1200.1.1.', '=1+1', '3 fortnights ago', 'x'.repeat(200), '13.45.월'])
      expect(iso(said)).toBeNull();
    expect(parseReviewDate('2 days ago', Number.NaN)).toBeNull();
  });
});
