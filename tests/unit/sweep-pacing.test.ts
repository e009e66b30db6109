import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createPacer, mapHostOf } from '../../utils/queue/pacing';
import { readPaces, storagePacerMemory } from '../../utils/sweep/pacer-memory';

/** The lane these tests load on (a host name, as a provider's laneUrl names it). */
const HOST = 'www.google.com';

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
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const pacer = createPacer({ ...clock, random, timing: () => ({ delayMs: 2000, jitterMs: 500 }) });
    const loads: { start: number; end: number }[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    async function worker(n: number) {
      for (let i = 0; i < n; i++) {
        const release = await pacer.acquire(HOST);
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
    const pacer = createPacer(
      { now: () => 0, sleep: async () => {}, random: () => 0, timing: () => ({ delayMs: 2000, jitterMs: 0 }) },
      { maxPenaltyMs: 20_000 },
    );
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      pacer.penalise(HOST);
      seen.push(pacer.penaltyOf(HOST));
    }
    expect(seen).toEqual([2000, 4000, 8000, 16000, 20000, 20000]);
    pacer.reward(HOST);
    expect(pacer.penaltyOf(HOST)).toBe(0);
  });

  it('applies the penalty to the next wait', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ ...clock, random: () => 0, timing: () => ({ delayMs: 1000, jitterMs: 0 }) });
    (await pacer.acquire(HOST))();
    pacer.penalise(HOST); // 1000 ms extra
    const before = clock.now();
    (await pacer.acquire(HOST))();
    expect(clock.now() - before).toBe(2000);
  });
});

describe('pacer across restarts and hosts', () => {
  const timing = () => ({ delayMs: 2000, jitterMs: 0 });

  it('a pacer recreated from persisted state waits out the remaining delay', async () => {
    const memory = storagePacerMemory(fakeBrowser.storage.local);
    const clock = fakeClock();
    await clock.sleep(10_000);
    const before = createPacer({ ...clock, random: () => 0, timing, memory });
    const release = await before.acquire('https://www.google.com/maps/search/cafe/@37.5,127,17z');
    await clock.sleep(500); // the page loads
    release(); // last load ended at 10,500
    await Promise.resolve();

    // The browser is killed; a new background (fresh memory object, same storage) starts 700 ms later.
    await clock.sleep(700);
    const after = createPacer({ ...clock, random: () => 0, timing, memory: storagePacerMemory(fakeBrowser.storage.local) });
    await after.acquire(HOST);
    expect(clock.now()).toBe(12_500);
  });

  it('counts a load killed half-way, and keeps the penalty', async () => {
    const clock = fakeClock();
    await clock.sleep(10_000);
    const before = createPacer({ ...clock, random: () => 0, timing, memory: storagePacerMemory(fakeBrowser.storage.local) });
    await before.acquire(HOST); // the load starts at 10,000 and the browser dies before release
    before.penalise(HOST); // 2000 ms extra
    await new Promise((r) => setTimeout(r, 0));

    await clock.sleep(300);
    const after = createPacer({ ...clock, random: () => 0, timing, memory: storagePacerMemory(fakeBrowser.storage.local) });
    await after.acquire(HOST);
    expect(clock.now()).toBe(14_000);
    expect(after.penaltyOf(HOST)).toBe(2000);
  });

  it('keeps one lane per map host: loads on two hosts do not wait for each other', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ ...clock, random: () => 0, timing });
    (await pacer.acquire('https://www.google.com/maps/search/cafe'))();
    (await pacer.acquire('https://map.naver.com/p/search/cafe'))();
    expect(clock.now()).toBe(0);
    pacer.penalise('map.naver.com');
    expect(pacer.penaltyOf('https://map.naver.com/')).toBe(2000);
    expect(pacer.penaltyOf('www.google.com')).toBe(0);
    (await pacer.acquire('www.google.com'))();
    expect(clock.now()).toBe(2000);
  });

  it('reads a damaged stored value as nothing saved', () => {
    expect(readPaces({ 'www.google.com': { lastLoadAt: 'x' }, 'map.naver.com': { lastLoadAt: 5, penaltyMs: -1 } })).toEqual({
      'map.naver.com': { lastLoadAt: 5, penaltyMs: 0 },
    });
    expect(readPaces(undefined)).toEqual({});
    expect(mapHostOf('https://WWW.google.com/maps')).toBe('www.google.com');
    expect(mapHostOf(' Map.Naver.com ')).toBe('map.naver.com');
  });
});

describe('a turn that made no request', () => {
  it('leaves the lane as it was: the next load still waits its delay after the last real one, and no more', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ ...clock, random: () => 0, timing: () => ({ delayMs: 2000, jitterMs: 0 }) });
    (await pacer.acquire(HOST))();
    const loadedAt = clock.now();
    // A team sweep's cell another browser had searched: the turn is given back unused.
    const unused = await pacer.acquire(HOST);
    expect(clock.now()).toBe(loadedAt + 2000);
    unused('unused');
    // The next turn does not wait a second delay: the lane's last load is still the real one.
    await pacer.acquire(HOST);
    expect(clock.now()).toBe(loadedAt + 2000);
  });

  it('counts as a load when used (the default)', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ ...clock, random: () => 0, timing: () => ({ delayMs: 2000, jitterMs: 0 }) });
    (await pacer.acquire(HOST))();
    const second = await pacer.acquire(HOST);
    second();
    await pacer.acquire(HOST);
    expect(clock.now()).toBe(4000);
  });
});

describe('lanes by name', () => {
  it("a host and port is a lane of its own, never read as a URL's scheme (the websites' lanes use the one pacer)", () => {
    expect(mapHostOf('shop.example:8443')).toBe('shop.example:8443');
    expect(mapHostOf('localhost:3000')).not.toBe(mapHostOf('localhost:3001'));
    expect(mapHostOf('https://www.google.com/maps/search/cafe')).toBe('www.google.com');
    expect(mapHostOf('Example.COM')).toBe('example.com');
  });
});
