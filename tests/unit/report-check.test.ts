/**
 * Check this page's verdict and the page report (issue 41): the verdict is the readers' result in
 * people's words, never kinder (cards shown and none read is "the map page changed"; a block page
 * pauses); the background refuses a tab that is no map site's and a look of the wrong shape; a
 * report's address and notes carry no page content.
 */
import { describe, expect, it } from 'vitest';
import type { Observation } from '../../utils/domain/sweep';
import { pageCheckOf } from '../../utils/report/check';
import { createPageCheck, isPageLook } from '../../utils/report/command';
import { noteWithoutContent, strippedUrl } from '../../utils/report/report';
import { makeListing } from '../helpers/store-records';

function obs(over: Partial<Observation> = {}): Observation {
  return {
    url: 'https://www.google.com/maps/search/cafe/@37.5,127,15z',
    pageKind: 'results',
    cardsVisible: 3,
    listings: [makeListing('1', { phone: '02-1' }), makeListing('2'), makeListing('3')],
    networkItems: 20,
    networkKeys: [],
    endOfList: false,
    capHit: false,
    finalView: null,
    elapsedMs: 5,
    stopReason: 'stalled',
    warnings: [],
    ...over,
  };
}
const look = (o: Observation) => ({ observation: o, lang: 'en', frame: 'top' as const });

describe('the verdict', () => {
  it('a list read whole: a sweep will work, with each field counted', () => {
    const c = pageCheckOf(look(obs()), 'Google Maps');
    expect(c).toMatchObject({ kind: 'results', ok: true, cardsSeen: 3, cardsRead: 3, unread: 0, pageData: true });
    expect(c.fields).toMatchObject({ name: 3, phone: 1, rating: 3, coordinates: 3, website: 0 });
    expect(c.verdict).toMatch(/^A sweep will work here: 3 places read, .*phone on 1 of 3/);
  });

  it('cards shown and none read, or some unread: never "will work"', () => {
    const broken = pageCheckOf(look(obs({ listings: [], pageKind: 'unknown' })), 'Google Maps');
    expect(broken).toMatchObject({ ok: false, kind: 'unknown' });
    expect(broken.verdict).toMatch(/The map page changed: 3 cards are shown and none could be read/);
    const some = pageCheckOf(look(obs({ cardsVisible: 5, organicShown: 5 })), 'Google Maps');
    expect(some).toMatchObject({ ok: false, unread: 2 });
    const nameless = pageCheckOf(look(obs({ listings: [makeListing('1', { name: ' ' })], cardsVisible: 1 })), 'Google Maps');
    expect(nameless.ok).toBe(false);
  });

  it('consent, captcha and the limited view stop a sweep, and say what to do', () => {
    expect(pageCheckOf(look(obs({ pageKind: 'consent', listings: [], cardsVisible: 0 })), 'Google Maps')).toMatchObject({ ok: false, kind: 'consent' });
    expect(pageCheckOf(look(obs({ pageKind: 'captcha', listings: [], cardsVisible: 0 })), 'Google Maps').verdict).toMatch(/robot/);
    const limited = pageCheckOf(look(obs({ limitedView: 'counts-missing' })), 'Google Maps');
    expect(limited).toMatchObject({ ok: false, kind: 'limited' });
    expect(limited.verdict).toMatch(/sign in/);
  });

  it('a list read but not proven whole as it shows is a list whose proof needs the scroll; an unproven page with nothing read is not', () => {
    const lazy = pageCheckOf(look(obs({ pageKind: 'unknown', unproven: 'naver-state-unshown: 40 items' })), 'Naver Map');
    expect(lazy).toMatchObject({ kind: 'results', ok: true });
    expect(lazy.verdict).toMatch(/as far as a look can tell.*naver-state-unshown/);
    const nothing = pageCheckOf(look(obs({ pageKind: 'unknown', unproven: 'kakao-wrong-page', listings: [] })), 'Kakao Map');
    expect(nothing).toMatchObject({ kind: 'unknown', ok: false });
  });
});

describe('the background side', () => {
  const deps = (url: string | null, answer: unknown) =>
    createPageCheck({
      tabUrl: async () => url,
      lastMapTab: async () => 7,
      look: async () => answer,
      snapshot: async () => ({ html: '<html></html>', look: answer }),
      timeout: (p) => p,
    });

  it('refuses a tab that is no map site, and a look of the wrong shape (page content decides nothing unchecked)', async () => {
    expect(await deps('https://example.com/', look(obs())).checkPage({ tabId: 1 })).toMatchObject({ ok: false, error: { code: 'not-a-map-tab' } });
    expect(await deps('https://www.google.com/maps/search/x', { observation: { pageKind: 'results' } }).checkPage({ tabId: 1 })).toMatchObject({
      ok: false,
      error: { code: 'page-unreadable' },
    });
    expect(isPageLook({ ...look(obs()), frame: 'elsewhere' })).toBe(false);
    expect(isPageLook(look(obs({ listings: [42 as never] })))).toBe(false);
    expect(isPageLook(look(obs()))).toBe(true);
  });

  it('says a consent page from its address, asks the map tab used last when the popup names none, and never reports a block page', async () => {
    const consent = deps('https://consent.google.com/m?continue=x', null);
    expect(await consent.checkPage({})).toMatchObject({ ok: true, check: { kind: 'consent', site: 'Google Maps', ok: false } });
    expect(await consent.pageReportSource({})).toMatchObject({ ok: false, error: { code: 'blocked-page' } });
    const fine = await deps('https://www.google.com/maps/search/x', look(obs())).pageReportSource({});
    expect(fine).toMatchObject({ ok: true, site: 'google', html: '<html></html>', check: { kind: 'results' } });
  });
});

describe('what a report says of the page', () => {
  it("its address keeps the site's words and query keys, never names, coordinates or values", () => {
    const u = strippedUrl('https://www.google.com/maps/place/%EC%B9%B4%ED%8E%98+Blue/@37.5665,126.978,17z/data=!4m2?hl=ko&q=secret#frag');
    expect(u.startsWith('https://www.google.com/maps/place/')).toBe(true);
    expect(u).not.toMatch(/Blue|37\.5665|126\.978|secret|frag|카페|%EC%B9%B4/);
    expect(u.endsWith('?hl=&q=')).toBe(true);
    expect(strippedUrl('not a url')).toBe('');
  });

  it("its readers' notes keep MapSweep's words, not the page's text or long ids", () => {
    const n = noteWithoutContent('page data dropped for 1 place(s): 스타벅스 강남점 (naver:1234567890)');
    expect(n).toMatch(/^page data dropped for 1 place\(s\): /);
    expect(n).not.toMatch(/스타벅스|1234567890/);
  });
});

describe('the verdict in the interface language', () => {
  it('every verdict the check can give has its message in English and Korean, with as many parameters', async () => {
    const { readFileSync } = await import('node:fs');
    const messages = (lang: string) => JSON.parse(readFileSync(`public/_locales/${lang}/messages.json`, 'utf8')) as Record<string, { message: string }>;
    const [en, ko] = [messages('en'), messages('ko')];
    const checks = [
      obs(),
      obs({ listings: [], pageKind: 'unknown' }),
      obs({ pageKind: 'unknown', listings: [], cardsVisible: 0 }),
      obs({ cardsVisible: 5, organicShown: 5 }),
      obs({ listings: [makeListing('1', { name: ' ' })], cardsVisible: 1 }),
      obs({ pageKind: 'consent', listings: [], cardsVisible: 0 }),
      obs({ pageKind: 'captcha', listings: [], cardsVisible: 0 }),
      obs({ limitedView: 'banner' }),
      obs({ pageKind: 'no-results', listings: [], cardsVisible: 0 }),
      obs({ pageKind: 'unknown', unproven: 'x-tag: why' }),
      obs({ pageKind: 'unknown', unproven: 'x-tag: why', listings: [] }),
      obs({ pageKind: 'place', cardsVisible: 1, listings: [makeListing('1')] }),
      obs({ pageKind: 'place', cardsVisible: 1, listings: [] }),
    ].map((o) => pageCheckOf(look(o), 'Google Maps'));
    expect(new Set(checks.map((c) => c.verdictKey)).size).toBe(13);
    for (const c of checks) {
      for (const [lang, table] of [
        ['en', en],
        ['ko', ko],
      ] as const) {
        const message = table[c.verdictKey]?.message;
        expect(message, `${lang} ${c.verdictKey}`).toBeTruthy();
        const uses = new Set([...message!.matchAll(/\$(\d)/g)].map((m) => Number(m[1])));
        expect(Math.max(0, ...uses), `${lang} ${c.verdictKey}`).toBe(c.verdictParams.length);
      }
    }
  });
});
