/**
 * A list's tab is kept on the map sites (utils/browser/tab-guard.ts): a share link may point
 * anywhere (naver.me and kko.to shorten any address), so while a list works in its tab a session
 * rule blocks that tab's top-level navigations to any domain but the sites' own. Without the rule
 * a list with share links waits (paused with the reason), and loads nothing.
 */
import { describe, expect, it } from 'vitest';
import { guardRule, type GuardApi, type GuardRule } from '../../utils/browser/tab-guard';
import type { PlacePageDriver } from '../../utils/details/runner';
import { parsePlaceList, readLine } from '../../utils/input';
import { createList, createListDriver, getList, type ReadList } from '../../utils/lists';
import { PROVIDERS } from '../../utils/providers/registry';
import { createPacer } from '../../utils/queue/pacing';
import { openStore } from '../../utils/store';
import { fakeClock } from '../helpers/details-sim';
import { makeListing } from '../helpers/store-records';

describe("the list tab's guard", () => {
  it("blocks the tab's top-level navigations to anything but the three sites' domains and their share services", () => {
    const rule = guardRule(
      42,
      PROVIDERS.flatMap((p) => p.siteDomains),
    );
    expect(rule).toMatchObject({ id: 42, action: { type: 'block' }, condition: { tabIds: [42], resourceTypes: ['main_frame'] } });
    const allowed = rule.condition.excludedRequestDomains;
    for (const d of ['google.com', 'google.co.kr', 'goo.gl', 'naver.com', 'naver.me', 'kakao.com', 'kko.to']) expect(allowed, d).toContain(d);
    // A request domain matches its subdomains: the sites' pages are all under these.
    for (const host of ['www.google.com', 'consent.google.com', 'maps.app.goo.gl', 'pcmap.place.naver.com', 'place.map.kakao.com'])
      expect(
        allowed.some((d) => host === d || host.endsWith(`.${d}`)),
        host,
      ).toBe(true);
    for (const host of ['192.168.0.1', 'router.local', 'example.com', 'naver.me.evil.example', 'notgoogle.com'])
      expect(
        allowed.some((d) => host === d || host.endsWith(`.${d}`)),
        host,
      ).toBe(false);
  });

  async function driven(text: string, guardApi: GuardApi | undefined, onLoad: () => void = () => {}, hostAccess?: () => Promise<boolean>) {
    const store = await openStore({ name: `lists-guard-${Math.random()}` });
    const clock = fakeClock();
    await createList(store, {
      id: 'list-guard1',
      name: 'G',
      list: parsePlaceList(text) as ReadList,
      settings: { maxAttempts: 2, loadTimeoutMs: 30_000 },
      now: clock.now(),
    });
    const loads: string[] = [];
    let url = '';
    const page: PlacePageDriver = {
      async load(_t, to) {
        onLoad();
        loads.push(to);
        url = to.includes('naver.me') ? 'https://map.naver.com/p/entry/place/7777777' : to;
        return { url };
      },
      exists: async () => true,
      async collectPlace() {
        const v = readLine(url);
        if (v.kind !== 'place') return null;
        const [provider, id] = v.place.key.split(':') as ['naver', string];
        return { ...makeListing(id), key: v.place.key, provider, providerId: id, cid: null };
      },
    };
    const driver = createListDriver({
      store,
      page,
      pacer: createPacer({ now: clock.now, sleep: clock.sleep, random: () => 0, timing: () => ({ delayMs: 0, jitterMs: 0 }) }),
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
      workerTab: async () => 9,
      guardApi,
      hostAccess,
    });
    await driver.ensure();
    for (let i = 0; i < 200 && (await getList(store, 'list-guard1'))!.status === 'running'; i++) await new Promise((r) => setTimeout(r, 5));
    return { list: (await getList(store, 'list-guard1'))!, loads };
  }

  it('is on while the list works in its tab, and taken off when it is done', async () => {
    const rules = new Map<number, GuardRule>();
    const api: GuardApi = {
      async updateSessionRules({ removeRuleIds = [], addRules = [] }) {
        for (const id of removeRuleIds) rules.delete(id);
        for (const r of addRules) rules.set(r.id, r);
      },
    };
    const onDuringLoads: boolean[] = [];
    const { list, loads } = await driven('https://naver.me/abcDEF1\nnaver:1234567', api, () => onDuringLoads.push(rules.has(9)));
    expect(list.status).toBe('finished');
    expect(loads).toContain('https://naver.me/abcDEF1');
    expect(onDuringLoads.length).toBeGreaterThan(0);
    expect(onDuringLoads.every(Boolean)).toBe(true);
    expect(rules.size).toBe(0);
  });

  it('without it, a list with share links waits with the reason and loads nothing', async () => {
    const { list, loads } = await driven('https://naver.me/abcDEF1\nnaver:1234567', undefined);
    expect(list).toMatchObject({ status: 'paused', problem: { kind: 'no-guard' } });
    expect(loads).toEqual([]);
    // A list of place links only goes on without it: it loads only the sites' own place pages.
    const plain = await driven('naver:1234567', undefined);
    expect(plain.list.status).toBe('finished');
  });

  it('the map hosts withdrawn (Firefox): the list pauses with the reason and loads nothing', async () => {
    const { list, loads } = await driven(
      'naver:1234567\nnaver:7654321',
      undefined,
      () => {},
      async () => false,
    );
    expect(list).toMatchObject({ status: 'paused', problem: { kind: 'host-access', message: expect.stringContaining('Allow access to the map sites') } });
    expect(loads).toEqual([]);
  });
});
