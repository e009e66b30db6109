/**
 * startNaverReplica over real HTTPS: the hosts are told apart by the Host header, as Chromium sends
 * them through the resolver rules. Bodies are read back by the Naver extractors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllSearch, parseGraphqlList } from '../../utils/providers/naver/allsearch';
import { apolloStateFromText, placeFromDetailState, placesFromListState } from '../../utils/providers/naver/apollo';
import { detectNaverBlock } from '../../utils/providers/naver/block';
import { parseListUrl } from '../../utils/providers/naver/urls';
import { replicaRequest } from '../helpers/replica-request';
import { naverIdOf } from '../replica/naver/data';
import { type NaverReplica, startNaverReplica } from '../replica/naver/server';
import { createWorld } from '../replica/world';

const world = createWorld({ seed: 21, places: 4000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 4 });
let replica: NaverReplica;
beforeAll(async () => {
  replica = await startNaverReplica({ world, switches: { lazyDelayMs: 0 } });
});
afterAll(async () => {
  await replica.close();
});

async function get(host: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const r = await replicaRequest(replica.port, host, path, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    body,
  });
  return { status: r.status, text: r.body };
}

describe('Naver replica server', () => {
  it('outer page → searchIframe list URL with bounds → list page with ranked Apollo state', async () => {
    const outer = await get('map.naver.com', `/p/search/${encodeURIComponent('카페')}?c=15.00,0,0,0,dh`);
    expect(outer.status).toBe(200);
    const src = /<iframe id="searchIframe"[^>]* src="([^"]+)"/.exec(outer.text)![1]!.replace(/&amp;/g, '&');
    const list = parseListUrl(src)!;
    expect(list.query).toBe('카페');
    expect(list.bounds).not.toBeNull();
    const page = await get('pcmap.place.naver.com', src.replace('https://pcmap.place.naver.com', ''));
    expect(page.status).toBe(200);
    const read = placesFromListState(apolloStateFromText(page.text)!);
    expect(read.places).toHaveLength(50);
    expect(read.ads.length).toBeGreaterThan(0);
    const inside = read.places.every(
      (p) => p.lat! >= list.bounds!.south && p.lat! <= list.bounds!.north && p.lng! >= list.bounds!.west && p.lng! <= list.bounds!.east,
    );
    expect(inside).toBe(true);
  });

  it('entry page, place home, allSearch and GraphQL', async () => {
    const id = naverIdOf(3);
    const entry = await get('map.naver.com', `/p/entry/place/${id}`);
    expect(entry.text).toContain(`id="entryIframe"`);
    expect(entry.text).toContain(`https://pcmap.place.naver.com/place/${id}/home`);
    const home = await get('pcmap.place.naver.com', `/place/${id}/home`);
    expect(placeFromDetailState(apolloStateFromText(home.text)!, id)?.providerId).toBe(id);
    expect((await get('pcmap.place.naver.com', '/place/99/home')).status).toBe(404);
    const all = await get(
      'map.naver.com',
      `/p/api/search/allSearch?query=${encodeURIComponent('카페')}&type=all&searchCoord=126.978;37.5665&boundary=126.96;37.55;126.99;37.58&page=2`,
    );
    const a = parseAllSearch(all.text, all.status);
    expect(a.kind).toBe('ok');
    expect(a.places).toHaveLength(20);
    expect(a.page).toBe(2);
    const gql = await get(
      'pcmap-api.place.naver.com',
      '/graphql',
      JSON.stringify([
        {
          operationName: 'getPlacesList',
          variables: { input: { query: '카페', start: 51, display: 50, x: '126.978', y: '37.5665', bounds: '126.96;37.55;126.99;37.58' } },
        },
      ]),
    );
    expect(parseGraphqlList(gql.text, gql.status).places).toHaveLength(50);
  });

  it("GraphQL answers a pcmap page's credentialed fetch: CORS for its origin only, the preflight, the root its operation names", async () => {
    const op = (operationName: string) =>
      JSON.stringify([{ operationName, variables: { input: { query: '카페', start: 1, display: 10, bounds: '126.96;37.55;126.99;37.58' } } }]);
    const origin = 'https://pcmap.place.naver.com';
    const pre = await replicaRequest(replica.port, 'pcmap-api.place.naver.com', '/graphql', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-wtm-graphql' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(origin);
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    expect(String(pre.headers['access-control-allow-methods'])).toMatch(/\bPOST\b/);
    expect(String(pre.headers['access-control-allow-headers']).split(/,\s*/)).toEqual(expect.arrayContaining(['content-type', 'x-wtm-graphql']));
    const foreign = await replicaRequest(replica.port, 'pcmap-api.place.naver.com', '/graphql', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();

    const post = (operationName: string, from = origin) =>
      replicaRequest(replica.port, 'pcmap-api.place.naver.com', '/graphql', {
        method: 'POST',
        headers: { origin: from, 'content-type': 'application/json' },
        body: op(operationName),
      });
    const places = await post('getPlacesList');
    expect(places.headers['access-control-allow-origin']).toBe(origin);
    expect(places.headers['access-control-allow-credentials']).toBe('true');
    expect(Object.keys((JSON.parse(places.body) as [{ data: object }])[0].data)).toEqual(['businesses']);
    const restaurants = await post('getRestaurants');
    expect(Object.keys((JSON.parse(restaurants.body) as [{ data: object }])[0].data)).toEqual(['restaurants']);
    expect(parseGraphqlList(restaurants.body, restaurants.status).places.map((p) => p.key)).toEqual(
      parseGraphqlList(places.body, places.status).places.map((p) => p.key),
    );
    expect((await post('getPlacesList', 'https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it("a list page's own GraphQL calls are not page loads: they never bring the block on, but answer 429 once it is up", async () => {
    replica.setSwitches({ blockAfter: 2 });
    const body = JSON.stringify([{ operationName: 'getPlacesList', variables: { input: { query: '카페', start: 1, display: 10 } } }]);
    for (let i = 0; i < 5; i++) expect((await get('pcmap-api.place.naver.com', '/graphql', body)).status).toBe(200);
    expect((await get('pcmap.place.naver.com', `/place/${naverIdOf(1)}/home`)).status).toBe(200);
    expect((await get('pcmap.place.naver.com', `/place/${naverIdOf(1)}/home`)).status).toBe(200);
    expect((await get('pcmap.place.naver.com', `/place/${naverIdOf(1)}/home`)).status).toBe(429);
    expect((await get('pcmap-api.place.naver.com', '/graphql', body)).status).toBe(429);
    replica.setSwitches({ blockAfter: null });
  });

  it('over the rate: the block page with 429, APIs 429, until unblocked; HTTP 500 and paths that fail', async () => {
    replica.setSwitches({ blockAfter: 1 });
    await get('pcmap.place.naver.com', `/place/${naverIdOf(1)}/home`);
    const blocked = await get('pcmap.place.naver.com', `/place/${naverIdOf(1)}/home`);
    expect(blocked.status).toBe(429);
    expect(detectNaverBlock({ status: blocked.status, text: blocked.text })?.kind).toBe('restricted');
    const api = await get('map.naver.com', '/p/api/search/allSearch?query=x');
    expect(parseAllSearch(api.text, api.status).kind).toBe('blocked');
    replica.setSwitches({ blockAfter: null });
    expect((await get('pcmap.place.naver.com', `/place/${naverIdOf(1)}/home`)).status).toBe(200);
    replica.setSwitches({ error500Paths: ['/place/list'] });
    expect((await get('pcmap.place.naver.com', '/place/list?query=x')).status).toBe(500);
    replica.setSwitches({ error500Paths: [] });
    expect(() => replica.setSwitches({ boundsMode: 'nope' as never })).toThrow(/boundsMode/);
  });
});
