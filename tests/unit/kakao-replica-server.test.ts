/**
 * startKakaoReplica over real HTTPS, hosts chosen by the Host header: the search page, map.daum
 * in both framings, the place page, the block in both forms, switch validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMapDaumResponse } from '../../utils/providers/kakao/mapdaum';
import { mapDaumUrl } from '../../utils/providers/kakao/urls';
import { type ReplicaReply, replicaRequest } from '../helpers/replica-request';
import { GATE_TOKEN_HEADER, GATE_TOKEN_PATH } from '../replica/kakao/gate';
import { type KakaoReplica, startKakaoReplica } from '../replica/kakao/server';
import { createWorld } from '../replica/world';

const world = createWorld({ seed: 5, places: 3000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 3 });
let replica: KakaoReplica;

function get(port: number, href: string): Promise<ReplicaReply> {
  const u = new URL(href);
  return replicaRequest(port, u.host, u.pathname + u.search, { headers: { referer: 'https://map.kakao.com/' } });
}

beforeAll(async () => {
  replica = await startKakaoReplica({ world });
});
afterAll(() => replica.close());

describe('the Kakao replica server', () => {
  it('serves the search page with its list hooks on map.kakao.com', async () => {
    const r = await get(replica.port, 'https://map.kakao.com/?q=%EC%B9%B4%ED%8E%98');
    expect(r.status).toBe(200);
    for (const hook of ['id="info.search.place.list"', 'id="info.search.place.more"', 'id="info.search.page.no5"', 'id="info.noPlace"', '현 지도 내 장소검색'])
      expect(r.body).toContain(hook);
  });

  it('answers map.daum as JSON or JSONP, readable by the provider, 15 a page', async () => {
    const json = await get(replica.port, mapDaumUrl({ query: '카페', page: 1 }));
    const jsonp = await get(replica.port, mapDaumUrl({ query: '카페', page: 1, callback: 'jQuery1_1' }));
    const a = readMapDaumResponse({ status: json.status, body: json.body, contentType: String(json.headers['content-type']) });
    const b = readMapDaumResponse({ status: jsonp.status, body: jsonp.body, contentType: String(jsonp.headers['content-type']) });
    if (a.kind !== 'ok' || b.kind !== 'ok') throw new Error(`${a.kind} ${b.kind}`);
    expect([a.framing, b.framing]).toEqual(['json', 'jsonp']);
    expect(a.organic).toBe(15);
    expect(b.places).toEqual(a.places);
    expect(json.headers['access-control-allow-origin']).toBe('https://map.kakao.com');
  });

  it('answers the 2026 search only with the gate token the page minted for that exact URL', async () => {
    const url = new URL(mapDaumUrl({ query: '카페', page: 1, endpoint: 'mapsearch' }));
    const path = url.pathname + url.search;
    expect((await get(replica.port, url.href)).status).toBe(403);
    const gate = await replicaRequest(replica.port, 'map.kakao.com', GATE_TOKEN_PATH, {
      method: 'POST',
      body: JSON.stringify({ method: 'GET', url: path, body: '' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(gate.status).toBe(200);
    const { token } = JSON.parse(gate.body) as { token: string };
    const other = await replicaRequest(replica.port, 'map.kakao.com', path.replace('page=1', 'page=2'), { headers: { [GATE_TOKEN_HEADER]: token } });
    expect(other.status).toBe(403);
    const ok = await replicaRequest(replica.port, 'map.kakao.com', path, { headers: { [GATE_TOKEN_HEADER]: token } });
    const answer = readMapDaumResponse({ status: ok.status, body: ok.body, contentType: String(ok.headers['content-type']) });
    if (answer.kind !== 'ok') throw new Error(answer.kind);
    expect(answer.organic).toBe(15);
    // page_count there: the results one can page to, at most 500 [~].
    expect(answer.pageCount).toBe(Math.min(500, answer.totalCount!));
    expect(replica.requests.filter((r) => r.kind === 'gate')).toHaveLength(1);
  });

  it('serves place pages by confirmid, 404 for unknown ids and the retired /main/v/ path', async () => {
    const k = replica.kakao.places[0]!;
    const ok = await get(replica.port, `https://place.map.kakao.com/${k.confirmId}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain(k.confirmId);
    expect((await get(replica.port, 'https://place.map.kakao.com/999')).status).toBe(404);
    expect((await get(replica.port, `https://place.map.kakao.com/main/v/${k.confirmId}`)).status).toBe(404);
  });

  it('blocks after N map.daum requests a minute: 302 to 500.ko.html, or HTML where JSON was expected', async () => {
    replica.setSwitches({ blockAfter: 2 });
    const url = mapDaumUrl({ query: '카페', page: 1 });
    expect((await get(replica.port, url)).status).toBe(200);
    expect((await get(replica.port, url)).status).toBe(200);
    const third = await get(replica.port, url);
    expect(third.status).toBe(302);
    expect(readMapDaumResponse({ status: third.status, location: String(third.headers.location) })).toEqual({ kind: 'blocked', reason: 'redirect-500' });
    expect((await get(replica.port, String(third.headers.location))).status).toBe(200);
    replica.setSwitches({ blockMode: 'html' });
    const html = await get(replica.port, url);
    expect(readMapDaumResponse({ status: html.status, body: html.body })).toEqual({ kind: 'blocked', reason: 'html-instead-of-json' });
    expect(replica.blocked()).toBe(true);
    replica.setSwitches({ blockAfter: null, blockMode: 'redirect-500' });
    expect((await get(replica.port, url)).status).toBe(200);
  });

  it('refuses unknown or bad switches and changes nothing', () => {
    expect(() => replica.setSwitches({ capPages: 0 })).toThrow(/capPages/);
    expect(() => replica.setSwitches({ rectMode: 'sideways' as never })).toThrow(/rectMode/);
    expect(() => replica.setSwitches({ nope: true } as never)).toThrow(/unknown switch/);
    expect(replica.switches.capPages).toBe(34);
  });

  it('ground truth of a box is every matching place in it', () => {
    const box = { south: 37.56, west: 126.97, north: 37.57, east: 126.985 };
    const truth = replica.groundTruth('cafe', box);
    expect(truth.length).toBeGreaterThan(0);
    expect(truth.every((k) => k.place.category === 'cafe' || k.name.toLowerCase().includes('cafe'))).toBe(true);
  });
});
