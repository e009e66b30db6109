import { describe, expect, it } from 'vitest';
import { singleFlight } from '../../utils/match/wire';
import type { LinkRunRecord } from '../../utils/match/records';
import { differencesOf } from '../../utils/match/differences';
import { storedListing } from '../helpers/listings';

const record = (n: number) => ({ id: 'latest', places: n }) as unknown as LinkRunRecord;

describe('one linking run at a time', () => {
  it('serves everyone who asks during a run with one more run after it, which sees the latest state', async () => {
    let state = 0;
    let runs = 0;
    const gates: Array<() => void> = [];
    const link = singleFlight(async () => {
      runs++;
      const seen = state;
      await new Promise<void>((r) => gates.push(r));
      return record(seen);
    });
    const first = link();
    state = 1; // a sweep's new places, a decision…
    const second = link();
    const third = link();
    expect(runs).toBe(1);
    gates.shift()!();
    expect((await first).places).toBe(0);
    await Promise.resolve();
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toBe(2);
    gates.shift()!();
    expect([(await second).places, (await third).places]).toEqual([1, 1]);
    // Idle again: the next ask starts a run at once.
    const fourth = link();
    expect(runs).toBe(3);
    gates.shift()!();
    await fourth;
  });

  it('a failed run does not stop the next one', async () => {
    let fail = true;
    const link = singleFlight(async () => {
      if (fail) throw new Error('disk full');
      return record(7);
    });
    await expect(link()).rejects.toThrow('disk full');
    fail = false;
    expect((await link()).places).toBe(7);
  });
});

describe('where the sites disagree', () => {
  // Naver's listings: their displayed numbers are read in Korea's plan (the provider's phoneRegion).
  const onNaver = (n: number, over: Parameters<typeof storedListing>[1]) =>
    storedListing(n, { provider: 'naver', key: `naver:${n}`, providerId: String(n), ...over });
  const base = onNaver(1, { name: '스타벅스 강남점', phoneE164: '+8225551234', roadAddress: '서울 강남구 테헤란로 12' });

  it('says nothing for one business written two ways (spacing, Latin brand, a 0507 number, a floor)', () => {
    const other = onNaver(2, {
      name: 'Starbucks Gangnam',
      phoneE164: '+825071234567',
      otherPhones: ['02-555-1234'],
      roadAddress: '서울특별시 강남구 테헤란로 12 2층',
    });
    expect(differencesOf([base, other])).toEqual([]);
  });

  it('reads one road written in Latin and in Hangul as one address', () => {
    const latin = storedListing(4, { name: 'Seoul Table', roadAddress: null, address: '88 Olympic-ro, Songpa District, Seoul' });
    const hangul = storedListing(5, { name: 'Seoul Table', roadAddress: '서울 송파구 올림픽로 88' });
    expect(differencesOf([latin, hangul])).toEqual([]);
  });

  it('names each kind of disagreement', () => {
    const week = (close: string) => [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, dayName: '', text: '', intervals: [{ open: '09:00', close }] }));
    const a = { ...base, openingHours: week('22:00') };
    const b = onNaver(3, {
      name: '커피빈 역삼점',
      phoneE164: '+8225559999',
      roadAddress: '서울 강남구 테헤란로 14',
      closed: 'permanently',
      openingHours: week('21:00'),
    });
    expect(differencesOf([a, b])).toEqual(['phone', 'address', 'name', 'hours', 'closed']);
  });
});
