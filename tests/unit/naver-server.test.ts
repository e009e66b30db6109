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
  const r = await replicaRequest(replica.port, host, path, { method: body ? 'POST' : 'GET', headers: body ? { 'content-type': 'application/json' } : {}, body });
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
    const inside = read.places.every((p) => p.lat! >= list.bounds!.south && p.lat! <= list.bounds!.north && p.lng! >= list.bounds!.west && p.lng! <= list.bounds!.east);
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
    const all = await get('map.naver.com', `/p/api/search/allSearch?query=${encodeURIComponent('카페')}&type=all&searchCoord=126.978;37.5665&boundary=126.96;37.55;126.99;37.58&page=2`);
    const a = parseAllSearch(all.text, all.status);
    expect(a.kind).toBe('ok');
    expect(a.places).toHaveLength(20);
    expect(a.page).toBe(2);
    const gql = await get('pcmap-api.place.naver.com', '/graphql', JSON.stringify([{ operationName: 'getPlacesList', variables: { input: { query: '카페', start: 51, display: 50, x: '126.978', y: '37.5665', bounds: '126.96;37.55;126.99;37.58' } } }]));
    expect(parseGraphqlList(gql.text, gql.status).places).toHaveLength(50);
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
