/**
 * The replicas' share-link services (tests/replica/share-links.ts) over real HTTPS, as Chromium meets
 * them through the resolver rules: maps.app.goo.gl, naver.me and kko.to. Under every `shareRedirect`
 * and `shareLanding`, a place's link sends the browser to that place's page in the chosen form, on the
 * site's own hosts, and the page there is the place; a token no place has is a 404; links are the same
 * after a restart, differ between places, and are counted in the request log as `share`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeFromLandingUrl } from '../../utils/input/line';
import { parsePlaceUrl } from '../../utils/providers/google/urls';
import { type ReplicaReply, replicaRequest } from '../helpers/replica-request';
import { kakaoChromiumArgs, type KakaoReplica, startKakaoReplica } from '../replica/kakao/server';
import { kakaoWorld } from '../replica/kakao/places';
import { KAKAO_SHARE_LANDINGS } from '../replica/kakao/switches';
import { naverIdOf, naverPlaceById } from '../replica/naver/data';
import { type NaverReplica, naverChromiumArgs, startNaverReplica } from '../replica/naver/server';
import { NAVER_SHARE_LANDINGS } from '../replica/naver/switches';
import { NAVER_OFFSITE_HOST } from '../replica/naver/server';
import { escapeHtml } from '../replica/pages';
import { chromiumArgs, type Replica, startReplica } from '../replica/server';
import { SHARE_REDIRECTS, type ShareRedirect } from '../replica/share-links';
import { GOOGLE_SHARE_LANDINGS } from '../replica/switches';
import { createWorld, type World } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const makeWorld = (): World => createWorld({ seed: 11, places: 300, centre: SEOUL, radiusKm: 1 });
const world = makeWorld();

type Provider = 'google' | 'naver' | 'kakao';

/** One site's share service as this test drives it. */
interface Site {
  provider: Provider;
  host: string;
  tokenLength: number;
  landings: readonly string[];
  defaultLanding: string;
  /** Two places the site lists, by the id its replica keys them with. */
  ids: [string, string];
  /** Every place the site lists. */
  allIds: readonly string[];
  port(): number;
  linkOf(id: string): string;
  setShare(redirect: ShareRedirect, landing: string): void;
  shareLoads(): number;
  lastRequest(): { kind: string; host: string; status: number } | undefined;
  resolverArgs(): string[];
  /** The landing URL the switch asks for, or null where it is checked by its parts (Google's place form). */
  expectedLanding(landing: string, id: string): string | null;
  /** The page at the landing is the place (or the map opened on it). */
  landsOn(reply: ReplicaReply, id: string): void;
  /** A fresh replica of a fresh world of the same seed: its link of `id`. */
  restartedLinkOf(id: string): Promise<{ link: string; reply: ReplicaReply }>;
}

let google: Replica;
let naver: NaverReplica;
let kakao: KakaoReplica;

beforeAll(async () => {
  [google, naver, kakao] = await Promise.all([startReplica({ world }), startNaverReplica({ world }), startKakaoReplica({ world })]);
});
afterAll(async () => {
  await Promise.all([google?.close(), naver?.close(), kakao?.close()]);
});

const googlePlaces = [...world.byCid.values()];
const naverIds = world.places.map((_p, i) => naverIdOf(i)).filter((id) => naverPlaceById(world, id) !== null);
const kakaoIds = [...kakaoWorld(world).byConfirmId.keys()];

async function fetchLink(port: number, link: string, method = 'GET'): Promise<ReplicaReply> {
  const u = new URL(link);
  return replicaRequest(port, u.host, u.pathname + u.search, { method });
}

/** Where a share answer sends the browser, read as a browser would: Location, the script's target, or the refresh's. */
function targetOf(reply: ReplicaReply, how: ShareRedirect): string {
  if (how === '301' || how === '302') {
    expect(reply.status).toBe(Number(how));
    return String(reply.headers.location);
  }
  expect(reply.status).toBe(200);
  expect(reply.headers.location).toBeUndefined();
  if (how === 'script') {
    const m = /setTimeout\(function\(\)\{location\.replace\(("[^"]*")\);\},\d+\)/.exec(reply.body);
    expect(m, reply.body).not.toBeNull();
    return JSON.parse(m![1]!) as string;
  }
  const m = /<meta http-equiv="refresh" content="0;url=([^"]*)">/.exec(reply.body);
  expect(m, reply.body).not.toBeNull();
  return m![1]!
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
}

const sites: Site[] = [
  {
    provider: 'google',
    host: 'maps.app.goo.gl',
    tokenLength: 12,
    landings: GOOGLE_SHARE_LANDINGS,
    defaultLanding: 'place',
    ids: [googlePlaces[0]!.cid, googlePlaces[1]!.featureId],
    allIds: googlePlaces.map((p) => p.cid),
    port: () => google.port,
    linkOf: (id) => google.shareLinkOf(id),
    setShare: (shareRedirect, shareLanding) => google.setSwitches({ shareRedirect, shareLanding: shareLanding as 'place' | 'cid' }),
    shareLoads: () => google.shareLoads(),
    lastRequest: () => google.requests.at(-1),
    resolverArgs: () => chromiumArgs(google.port),
    expectedLanding: (landing, id) => (landing === 'cid' ? `https://www.google.com/maps?cid=${world.byFeatureId.get(id)?.cid ?? id}` : null),
    landsOn: (reply, id) => {
      const place = world.byCid.get(id) ?? world.byFeatureId.get(id)!;
      expect(reply.status).toBe(200);
      expect(reply.body).toContain(`aria-label="${escapeHtml(place.name)}" role="main"`);
    },
    restartedLinkOf: async (id) => {
      const again = await startReplica({ world: makeWorld() });
      try {
        const link = again.shareLinkOf(id);
        return { link, reply: await fetchLink(again.port, link) };
      } finally {
        await again.close();
      }
    },
  },
  {
    provider: 'naver',
    host: 'naver.me',
    tokenLength: 8,
    // 'offsite' is a hostile link that lands off the map on purpose (its own test below).
    landings: NAVER_SHARE_LANDINGS.filter((l) => l !== 'offsite'),
    defaultLanding: 'entry',
    ids: [naverIds[0]!, naverIds[1]!],
    allIds: naverIds,
    port: () => naver.port,
    linkOf: (id) => naver.shareLinkOf(id),
    setShare: (shareRedirect, shareLanding) => naver.setSwitches({ shareRedirect, shareLanding: shareLanding as 'entry' | 'pcmap' }),
    shareLoads: () => naver.shareLoads(),
    lastRequest: () => naver.requests.at(-1),
    resolverArgs: () => naverChromiumArgs(naver.port),
    expectedLanding: (landing, id) =>
      landing === 'pcmap' ? `https://pcmap.place.naver.com/place/${id}/home` : `https://map.naver.com/p/entry/place/${id}?c=15.00,0,0,0,dh`,
    landsOn: (reply, id) => {
      expect(reply.status).toBe(200);
      expect(reply.body).toContain(escapeHtml(naverPlaceById(world, id)!.name));
    },
    restartedLinkOf: async (id) => {
      const again = await startNaverReplica({ world: makeWorld() });
      try {
        const link = again.shareLinkOf(id);
        return { link, reply: await fetchLink(again.port, link) };
      } finally {
        await again.close();
      }
    },
  },
  {
    provider: 'kakao',
    host: 'kko.to',
    tokenLength: 10,
    landings: KAKAO_SHARE_LANDINGS,
    defaultLanding: 'place',
    ids: [kakaoIds[0]!, kakaoIds[1]!],
    allIds: kakaoIds,
    port: () => kakao.port,
    linkOf: (id) => kakao.shareLinkOf(id),
    setShare: (shareRedirect, shareLanding) => kakao.setSwitches({ shareRedirect, shareLanding: shareLanding as 'place' | 'itemId' }),
    shareLoads: () => kakao.shareLoads(),
    lastRequest: () => kakao.requests.at(-1),
    resolverArgs: () => kakaoChromiumArgs(kakao.port),
    expectedLanding: (landing, id) => (landing === 'itemId' ? `https://map.kakao.com/?itemId=${id}` : `https://place.map.kakao.com/${id}`),
    landsOn: (reply, id) => {
      const k = kakao.kakao.byConfirmId.get(id)!;
      expect(reply.status).toBe(200);
      if (reply.body.includes('id="mArticle"')) {
        expect(reply.body).toContain(`data-confirmid="${id}"`);
        expect(reply.body).toContain(escapeHtml(k.name));
      } else {
        // The map opened on the place: centred on its pin, with no search of its own.
        const m = /<div id="map" data-x="(-?\d+)" data-y="(-?\d+)" data-level="(\d+)">/.exec(reply.body)!;
        expect(Math.abs(Number(m[1]) - k.x)).toBeLessThanOrEqual(2);
        expect(Math.abs(Number(m[2]) - k.y)).toBeLessThanOrEqual(2);
        expect(reply.body).toContain('id="search.keyword.query" name="q" value=""');
      }
    },
    restartedLinkOf: async (id) => {
      const again = await startKakaoReplica({ world: makeWorld() });
      try {
        const link = again.shareLinkOf(id);
        return { link, reply: await fetchLink(again.port, link) };
      } finally {
        await again.close();
      }
    },
  },
];

describe.each(sites.map((s) => [s.provider, s] as const))('%s share links', (_name, site) => {
  it('are https://{host}/{token}: a short base62 token that never holds the id, one per place', () => {
    const [a, b] = site.ids.map((id) => site.linkOf(id));
    for (const [link, id] of [
      [a!, site.ids[0]],
      [b!, site.ids[1]],
    ] as const) {
      const u = new URL(link);
      expect(u.protocol + u.host).toBe(`https:${site.host}`);
      const token = u.pathname.slice(1);
      expect(token).toMatch(new RegExp(`^[0-9A-Za-z]{${site.tokenLength}}$`));
      expect(token).not.toContain(id);
      expect(u.search + u.hash).toBe('');
    }
    expect(() => site.linkOf('999')).toThrow();
    expect(site.allIds.length).toBeGreaterThan(200);
    expect(new Set(site.allIds.map((id) => site.linkOf(id))).size).toBe(site.allIds.length);
  });

  it('are sent to the replica by its resolver flags', () => {
    expect(site.resolverArgs()[0]).toContain(`MAP ${site.host} 127.0.0.1:${site.port()}`);
  });

  it(`redirect with a 302 to the ${site.defaultLanding} form by default`, async () => {
    const reply = await fetchLink(site.port(), site.linkOf(site.ids[0]));
    expect(reply.status).toBe(302);
    const expected = site.expectedLanding(site.defaultLanding, site.ids[0]);
    if (expected !== null) expect(reply.headers.location).toBe(expected);
    else expect(String(reply.headers.location)).toMatch(/^https:\/\/www\.google\.com\/maps\/place\//);
  });

  for (const how of SHARE_REDIRECTS)
    for (const landing of site.landings)
      it(`land on the place: shareRedirect ${how}, shareLanding ${landing}`, async () => {
        site.setShare(how, landing);
        try {
          for (const id of site.ids) {
            const before = site.shareLoads();
            const target = targetOf(await fetchLink(site.port(), site.linkOf(id)), how);
            expect(site.shareLoads()).toBe(before + 1);
            expect(site.lastRequest()).toMatchObject({ kind: 'share', host: site.host });
            const expected = site.expectedLanding(landing, id);
            if (expected !== null) expect(target).toBe(expected);
            else {
              // Google's place form: the place page URL with the share's query.
              const place = world.byCid.get(id) ?? world.byFeatureId.get(id)!;
              const u = new URL(target);
              expect(u.origin).toBe('https://www.google.com');
              expect(u.pathname).toMatch(/^\/maps\/place\/[^/]+\/@-?[\d.]+,-?[\d.]+,17z\/data=!4m6!3m5!1s0x[0-9a-f]+:0x[0-9a-f]+!8m2!3d[-\d.]+!4d[-\d.]+!16s/);
              expect(parsePlaceUrl(u.pathname + u.search)).toMatchObject({ cid: place.cid, featureId: place.featureId });
              expect(u.searchParams.get('entry')).toBe('tts');
              expect(u.searchParams.get('g_ep')).toMatch(/^[A-Za-z0-9+/]+=*$/);
              expect(u.searchParams.get('skid')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
            }
            // On the site's own hosts, and the page there is the place.
            const landingUrl = new URL(target);
            expect(landingUrl.protocol).toBe('https:');
            expect(site.resolverArgs()[0]).toContain(`MAP ${landingUrl.host} 127.0.0.1:`);
            site.landsOn(await replicaRequest(site.port(), landingUrl.host, landingUrl.pathname + landingUrl.search), id);
            // And the extension's own reader of a landing names the same place.
            const read = placeFromLandingUrl(site.provider, target);
            expect(read.kind).toBe('place');
            if (read.kind === 'place') expect(read.place.providerId).toBe(site.provider === 'google' ? (world.byFeatureId.get(id)?.cid ?? id) : id);
          }
        } finally {
          site.setShare('302', site.defaultLanding);
        }
      });

  it('answer 404 with a plain page for a token no place has, and count it', async () => {
    const link = new URL(site.linkOf(site.ids[0]));
    const token = link.pathname.slice(1);
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const path of [`/${wrong}`, `/${token}0`, `/${token.slice(1)}`, '/', '/zz/zz']) {
      const before = site.shareLoads();
      const reply = await replicaRequest(site.port(), site.host, path);
      expect(reply.status).toBe(404);
      expect(reply.headers.location).toBeUndefined();
      expect(reply.body).toContain('404 Not Found');
      expect(reply.body).not.toContain('<script');
      expect(site.shareLoads()).toBe(before + 1);
      expect(site.lastRequest()).toMatchObject({ kind: 'share', status: 404 });
    }
    expect((await replicaRequest(site.port(), site.host, link.pathname, { method: 'POST' })).status).toBe(405);
  });

  it('are the same after a restart, and still open there', async () => {
    const link = site.linkOf(site.ids[1]);
    const again = await site.restartedLinkOf(site.ids[1]);
    expect(again.link).toBe(link);
    expect(again.reply.status).toBe(302);
  });
});

describe('share switches', () => {
  it('refuse values no site has', () => {
    expect(() => google.setSwitches({ shareRedirect: '303' as ShareRedirect })).toThrow(/shareRedirect/);
    expect(() => google.setSwitches({ shareLanding: 'entry' as 'place' })).toThrow(/shareLanding/);
    expect(() => naver.setSwitches({ shareLanding: 'place' as 'entry' })).toThrow(/shareLanding/);
    expect(() => kakao.setSwitches({ shareLanding: 'cid' as 'place' })).toThrow(/shareLanding/);
    expect(google.switches).toMatchObject({ shareRedirect: '302', shareLanding: 'place' });
    expect(naver.switches).toMatchObject({ shareRedirect: '302', shareLanding: 'entry' });
    expect(kakao.switches).toMatchObject({ shareRedirect: '302', shareLanding: 'place' });
  });
});

describe('a hostile share link (Naver shareLanding offsite)', () => {
  it('lands off the map, on a host the replica serves only to log what reaches it', async () => {
    const id = naverIds[0]!;
    naver.setSwitches({ shareRedirect: '302', shareLanding: 'offsite' });
    try {
      const reply = await fetchLink(naver.port, naver.shareLinkOf(id));
      expect(reply.status).toBe(302);
      expect(reply.headers.location).toBe(`https://${NAVER_OFFSITE_HOST}/after-share?id=${id}`);
      expect(placeFromLandingUrl('naver', String(reply.headers.location)).kind).toBe('bad');
    } finally {
      naver.setSwitches({ shareLanding: 'entry' });
    }
  });
});
