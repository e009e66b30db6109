import { describe, expect, it } from 'vitest';
import { createPacer } from '../../utils/sweep/pacing';

/** A fake clock: sleep advances time only when every pending sleeper is due. */
function fakeClock() {
  let t = 0;
  return {
    now: () => t,
    async sleep(ms: number) {
      t += ms;
      await Promise.resolve();
    },
  };
}

describe('pacer', () => {
  it('never overlaps two page loads and spaces them by at least the delay', async () => {
    const clock = fakeClock();
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const pacer = createPacer({ ...clock, random, timing: () => ({ delayMs: 2000, jitterMs: 500 }) });
    const loads: { start: number; end: number }[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    async function worker(n: number) {
      for (let i = 0; i < n; i++) {
        const release = await pacer.acquire();
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const start = clock.now();
        await clock.sleep(300 + random() * 700);
        loads.push({ start, end: clock.now() });
        inFlight--;
        release();
        await clock.sleep(random() * 3000); // scrolling, outside the lock
      }
    }
    await Promise.all([worker(10), worker(10), worker(10)]);
    expect(loads).toHaveLength(30);
    expect(maxInFlight).toBe(1);
    const sorted = [...loads].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      expect(sorted[i]!.start - sorted[i - 1]!.end).toBeGreaterThanOrEqual(2000);
    }
  });

  it('backs off exponentially while loads fail, up to the cap, and resets on success', () => {
    const pacer = createPacer({ now: () => 0, sleep: async () => {}, random: () => 0, timing: () => ({ delayMs: 2000, jitterMs: 0 }) }, 20_000);
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      pacer.penalise();
      seen.push(pacer.penaltyMs);
    }
    expect(seen).toEqual([2000, 4000, 8000, 16000, 20000, 20000]);
    pacer.reward();
    expect(pacer.penaltyMs).toBe(0);
  });

  it('applies the penalty to the next wait', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ ...clock, random: () => 0, timing: () => ({ delayMs: 1000, jitterMs: 0 }) });
    (await pacer.acquire())();
    pacer.penalise(); // 1000 ms extra
    const before = clock.now();
    (await pacer.acquire())();
    expect(clock.now() - before).toBe(2000);
  });
});
