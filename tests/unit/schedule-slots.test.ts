import { describe, expect, it } from 'vitest';
import { dueRun, localToInstant, nextSlotAfter, slotsBetween, type TzOffset } from '../../utils/schedule/slots';
import type { SavedSearch } from '../../utils/domain/saved-search';
import { seeded } from './store-fixtures';
import { DAY, HOUR, MINUTE, SEOUL, seoul } from './schedule-fixtures';

function search(overrides: Partial<SavedSearch> = {}): SavedSearch {
  return {
    id: 'ss1',
    name: 'x',
    areaText: '',
    keywordsText: '',
    repeat: 'daily',
    hour: 9,
    weekday: 1,
    thresholdDays: 10,
    createdAt: seoul(0, 8),
    lastRunAt: null,
    lastSuccessfulRunAt: null,
    lastNewPlaceAt: null,
    ...overrides,
  };
}

describe('scheduled times (local hour, time zone as a function)', () => {
  it('puts a daily run at the local hour, every local day', () => {
    expect(slotsBetween(search(), seoul(0, 0), seoul(3, 0), SEOUL)).toEqual([seoul(0, 9), seoul(1, 9), seoul(2, 9)]);
    // 09:00 in Seoul is 00:00 UTC.
    expect(new Date(seoul(1, 9)).toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('puts a weekly run on its local weekday only', () => {
    // Day 0 is Sunday 1 March 2026; weekday 3 is Wednesday → days 3 and 10.
    const weekly = search({ repeat: 'weekly', weekday: 3 });
    expect(slotsBetween(weekly, seoul(0), seoul(14), SEOUL)).toEqual([seoul(3, 9), seoul(10, 9)]);
    expect(nextSlotAfter(weekly, seoul(3, 9), SEOUL)).toBe(seoul(10, 9));
  });

  it('follows the local clock across a daylight-saving change', () => {
    // UTC+1 until day 5 02:00 local (01:00 UTC), UTC+2 afterwards (as central Europe in spring).
    const switchAt = Date.UTC(2026, 2, 6, 1, 0);
    const europe: TzOffset = (at) => (at < switchAt ? 60 : 120);
    const slots = slotsBetween(search(), Date.UTC(2026, 2, 4, 0), Date.UTC(2026, 2, 8, 0), europe);
    // 09:00 local is 08:00 UTC before the switch and 07:00 UTC after it.
    expect(slots.map((s) => new Date(s).toISOString())).toEqual([
      '2026-03-04T08:00:00.000Z',
      '2026-03-05T08:00:00.000Z',
      '2026-03-06T07:00:00.000Z',
      '2026-03-07T07:00:00.000Z',
    ]);
    expect(localToInstant(Date.UTC(2026, 2, 6, 9), europe)).toBe(Date.UTC(2026, 2, 6, 7));
  });

  it('asks for nothing when the search does not repeat', () => {
    const off = search({ repeat: 'off' });
    expect(slotsBetween(off, 0, seoul(30), SEOUL)).toEqual([]);
    expect(nextSlotAfter(off, seoul(1), SEOUL)).toBeNull();
    expect(dueRun(off, seoul(30), SEOUL).due).toBe(false);
  });
});

describe('dueRun', () => {
  const ranDay0 = search({ lastRunAt: seoul(0, 9) });

  it('is not due before the hour, due at it, on time within minutes', () => {
    expect(dueRun(ranDay0, seoul(1, 8, 59), SEOUL)).toEqual({ due: false, slot: null, missed: 0, catchUp: false });
    expect(dueRun(ranDay0, seoul(1, 9), SEOUL)).toEqual({ due: true, slot: seoul(1, 9), missed: 0, catchUp: false });
  });

  it('closed over the hour: one catch-up at the next start-up, nothing missed', () => {
    expect(dueRun(ranDay0, seoul(1, 11), SEOUL)).toEqual({ due: true, slot: seoul(1, 9), missed: 0, catchUp: true });
  });

  it('closed for three days: one run standing for the latest time, two missed', () => {
    expect(dueRun(ranDay0, seoul(3, 10), SEOUL)).toEqual({ due: true, slot: seoul(3, 9), missed: 2, catchUp: true });
  });

  it('counts from the creation before the first run', () => {
    expect(dueRun(search(), seoul(0, 8, 30), SEOUL).due).toBe(false);
    expect(dueRun(search(), seoul(0, 9, 5), SEOUL)).toMatchObject({ due: true, slot: seoul(0, 9), missed: 0, catchUp: false });
    // Saved after the hour: the first run is the next day's.
    expect(dueRun(search({ createdAt: seoul(0, 10) }), seoul(0, 23), SEOUL).due).toBe(false);
  });

  it('property: over random start-ups, every scheduled time is run or reported missed exactly once, never run twice', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seeded(seed);
      const s = search(seed % 2 === 0 ? { repeat: 'weekly', weekday: seed % 7, hour: seed % 24 } : { hour: seed % 24 });
      // The worker wakes at random moments over 60 days: sometimes hourly, sometimes not for days.
      let now = s.createdAt;
      const end = s.createdAt + 60 * DAY;
      const covered: number[] = [];
      let missedTotal = 0;
      while (now < end) {
        now += random() < 0.7 ? Math.floor(random() * 3 * HOUR) : Math.floor(random() * 5 * DAY);
        const due = dueRun(s, now, SEOUL);
        if (!due.due) continue;
        expect(due.slot!).toBeLessThanOrEqual(now);
        expect(due.slot!).toBeGreaterThan(s.lastRunAt ?? s.createdAt);
        covered.push(due.slot!);
        missedTotal += due.missed;
        s.lastRunAt = now;
        // Asked again at once (a second start-up the same minute): nothing more to do.
        expect(dueRun(s, now, SEOUL).due).toBe(false);
      }
      const all = slotsBetween(s, s.createdAt, s.lastRunAt ?? s.createdAt, SEOUL);
      expect(new Set(covered).size).toBe(covered.length);
      expect(covered.length + missedTotal).toBe(all.length);
      for (const slot of covered) expect(all).toContain(slot);
    }
  });

  it('a 10-year absence stays cheap and is reported as missed runs', () => {
    const due = dueRun(search({ lastRunAt: seoul(0, 9) }), seoul(0, 9) + 3650 * DAY + 5 * MINUTE, SEOUL);
    expect(due.due).toBe(true);
    expect(due.missed).toBe(3649);
  });
});
