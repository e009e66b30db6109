/**
 * The replica over real HTTPS (node's client, self-signed certificate accepted), as a browser would meet it
 * through `--host-resolver-rules`: the Host header says www.google.com or consent.google.com.
 */
import { request } from 'node:https';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePlaceUrl } from '../../utils/providers/google/urls';
import { type ReplicaReply, replicaRequest } from '../helpers/replica-request';
import { clientRenderer } from '../replica/client-renderer';
import { cardHref } from '../replica/hrefs';
import { chromiumArgs, type Replica, startReplica } from '../replica/server';
import { createWorld } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 4, places: 5000, centre: SEOUL, radiusKm: 5 });
const SEARCH = '/maps/search/cafe/@37.5665,126.978,15z?hl=en';
let replica: Replica;
let clock = 1_700_000_000_000;

function fetchRaw(path: string, opts: { host?: string; method?: string; body?: string; cookie?: string } = {}): Promise<ReplicaReply> {
  return replicaRequest(replica.port, opts.host ?? 'www.google.com', path, {
    method: opts.method,
    headers: { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...(opts.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: opts.body,
  });
}

/** Parse a `)]}'`-framed answer (both framings), as this test reads it. */
function unframe(text: string): unknown[] {
  const body = text.endsWith('/*""*/') ? (JSON.parse(text.slice(0, -6)) as { d: string }).d : text;
  expect(body.startsWith(")]}'\n")).toBe(true);
  return JSON.parse(body.slice(5)) as unknown[];
}

const places = (data: unknown[]): unknown[][] => ((data[0] as unknown[])[1] as unknown[][]).slice(1).map((item) => item[14] as unknown[]);

beforeAll(async () => {
  replica = await startReplica({ world, now: () => clock });
});
afterAll(async () => {
  await replica.close();
});
beforeEach(() => {
  replica.setSwitches({ captchaAfter: null, consent: false, error500Rate: 0, hangPaths: [], signedIn: true });
});

describe('replica server', () => {
  it('serves the search shell with the page script and counts it as a page load', async () => {
    const before = replica.pageLoads();
    const res = await fetchRaw(SEARCH);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('role="main"');
    expect(res.body).toContain('replicaSearchPage(');
    expect(res.body).toContain('<title>cafe - Google Maps</title>');
    expect(replica.pageLoads()).toBe(before + 1);
    expect(replica.requests.at(-1)).toMatchObject({ method: 'GET', path: SEARCH, status: 200, kind: 'page' });
  });

  it('answers the page script request in both framings, 20 per batch, none past 120', async () => {
    const url = clientRenderer().searchRequestUrl('cafe', { ...SEOUL, zoom: 15 }, 1280, 800, 1);
    const xhrsBefore = replica.xhrs();
    const inPage = await fetchRaw(url);
    expect(inPage.status).toBe(200);
    expect(inPage.body.startsWith('{"c":0,"d":")]}\'\\n')).toBe(true);
    const direct = await fetchRaw(url.replace('&tch=1', ''));
    expect(direct.body.startsWith(")]}'\n")).toBe(true);
    expect(unframe(direct.body)).toEqual(unframe(inPage.body));
    const first = places(unframe(inPage.body));
    expect(first).toHaveLength(20);
    expect(first.map((P) => P[11])).toEqual(expect.arrayContaining([expect.any(String)]));
    const sixth = places(unframe((await fetchRaw(clientRenderer().searchRequestUrl('cafe', { ...SEOUL, zoom: 15 }, 1280, 800, 6))).body));
    const seventh = places(unframe((await fetchRaw(clientRenderer().searchRequestUrl('cafe', { ...SEOUL, zoom: 15 }, 1280, 800, 7))).body));
    expect(sixth).toHaveLength(20);
    expect(seventh).toHaveLength(0);
    expect(replica.xhrs()).toBe(xhrsBefore + 4);
    expect((await fetchRaw('/search?tbm=map&q=cafe&pb=!7i20')).status).toBe(400);
  });

  it('serves the place page by CID and by card href, with its state', async () => {
    const place = world.places.find((p) => p.phone && p.website && p.rating !== null)!;
    const res = await fetchRaw(`/maps?cid=${place.cid}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain(`aria-label="${place.name}" role="main"`);
    expect(res.body).toMatch(new RegExp(`<h1 class="DUwDvf lfPIob">.*${place.name}.*</h1>`));
    expect(res.body).toContain(`aria-label="Address: ${place.fullAddress} " data-item-id="address"`);
    expect(res.body).toContain(`data-item-id="phone:tel:${place.phone!.digits}"`);
    expect(res.body).toContain(`data-item-id="authority" data-tooltip="Open website" href="${place.website}"`);
    const stateText = /window\.APP_INITIALIZATION_STATE=(.*?);window\.APP_FLAGS/.exec(res.body)![1]!;
    const state = JSON.parse(stateText) as unknown[];
    const slots = state[3] as Record<string, unknown[]>;
    const jd = JSON.parse((slots[Object.keys(slots)[0]!]![6] as string).slice(5)) as unknown[][];
    expect(jd[6]![10]).toBe(place.featureId);
    // A /maps?cid= visit rewrites its URL to the canonical place URL, as the real page does.
    const rewritten = /history\.replaceState\(null, '', "(.*?)"\)/.exec(res.body)![1]!;
    expect(parsePlaceUrl(rewritten).cid).toBe(place.cid);

    const viaHref = await fetchRaw(new URL(cardHref(place)).pathname + new URL(cardHref(place)).search);
    expect(viaHref.status).toBe(200);
    expect(viaHref.body).toContain(`data-item-id="phone:tel:${place.phone!.digits}"`);
    expect((await fetchRaw('/maps?cid=1')).status).toBe(404);
  });

  it('sends request N+1 of a minute to the sorry page (429) until the block is lifted', async () => {
    replica.setSwitches({ captchaAfter: 3 });
    for (let i = 0; i < 3; i++) expect((await fetchRaw(SEARCH)).status).toBe(200);
    const blocked = await fetchRaw(SEARCH);
    expect(blocked.status).toBe(302);
    const location = new URL(String(blocked.headers.location));
    expect(location.origin + location.pathname).toBe('https://www.google.com/sorry/index');
    expect(location.searchParams.get('continue')).toBe(`https://www.google.com${SEARCH}`);
    expect(location.searchParams.get('q')).toMatch(/^[0-9a-f]{32}$/);
    const sorry = await fetchRaw(location.pathname + location.search);
    expect(sorry.status).toBe(429);
    expect(sorry.body).toContain('<form id="captcha-form"');
    expect(sorry.body).toContain('class="g-recaptcha"');
    expect(sorry.body).toContain('/sorry/image?id=');
    expect(sorry.body).toContain('Our systems have detected unusual traffic from your computer network.');
    // The list request is blocked too, and the block outlasts the minute.
    clock += 120_000;
    expect((await fetchRaw(clientRenderer().searchRequestUrl('cafe', { ...SEOUL, zoom: 15 }, 1280, 800, 1))).status).toBe(302);
    expect(replica.blocked()).toBe(true);
    // Solving the form lifts it and returns to where the user was.
    const solved = await fetchRaw('/sorry/index', { method: 'POST', body: `q=x&continue=${encodeURIComponent(`https://www.google.com${SEARCH}`)}` });
    expect(solved.status).toBe(302);
    expect(solved.headers.location).toBe(`https://www.google.com${SEARCH}`);
    expect((await fetchRaw(SEARCH)).status).toBe(200);
  });

  it('counts requests in a rolling minute', async () => {
    replica.setSwitches({ captchaAfter: 2 });
    expect((await fetchRaw(SEARCH)).status).toBe(200);
    expect((await fetchRaw(SEARCH)).status).toBe(200);
    clock += 61_000;
    expect((await fetchRaw(SEARCH)).status).toBe(200);
    expect((await fetchRaw(SEARCH)).status).toBe(200);
    expect((await fetchRaw(SEARCH)).status).toBe(302);
    replica.setSwitches({ captchaAfter: null });
    expect((await fetchRaw(SEARCH)).status).toBe(200);
  });

  it('walls page loads without SOCS behind consent.google.com until a form is posted', async () => {
    replica.setSwitches({ consent: true });
    const walled = await fetchRaw(SEARCH);
    expect(walled.status).toBe(302);
    const location = new URL(String(walled.headers.location));
    expect(location.origin + location.pathname).toBe('https://consent.google.com/m');
    const cont = location.searchParams.get('continue')!;
    expect(cont).toBe(`https://www.google.com${SEARCH}`);
    const page = await fetchRaw(location.pathname + location.search, { host: 'consent.google.com' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Before you continue to Google Maps</title>');
    const forms = page.body.match(/<form action="https:\/\/consent\.google\.com\/save" method="POST"[\s\S]*?<\/form>/g)!;
    expect(forms).toHaveLength(2);
    expect(forms[0]).toContain('Reject all');
    expect(forms[0]).toContain('name="set_eom" value="false"');
    expect(forms[1]).toContain('Accept all');
    const saved = await fetchRaw('/save', { host: 'consent.google.com', method: 'POST', body: `set_eom=true&continue=${encodeURIComponent(cont)}` });
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe(cont);
    const cookie = (saved.headers['set-cookie'] as string[])[0]!;
    expect(cookie).toMatch(/^SOCS=[\w-]+; Domain=\.google\.com; Path=\/;/);
    expect((await fetchRaw(SEARCH, { cookie: cookie.split(';')[0] })).status).toBe(200);
    // The list's XHR is never walled.
    expect((await fetchRaw(clientRenderer().searchRequestUrl('cafe', { ...SEOUL, zoom: 15 }, 1280, 800, 1))).status).toBe(200);
  });

  it('answers a seeded share of search page loads with HTTP 500', async () => {
    replica.setSwitches({ error500Rate: 1 });
    const failed = await fetchRaw(SEARCH);
    expect(failed.status).toBe(500);
    expect(failed.body).toContain('That’s an error.');
    replica.setSwitches({ error500Rate: 0.5 });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await fetchRaw(SEARCH)).status);
    expect(statuses.filter((s) => s === 500).length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    // Place pages are not affected.
    expect((await fetchRaw(`/maps?cid=${world.places[0]!.cid}`)).status).toBe(200);
  });

  it('hangs a page: headers and a first chunk, never the end of the document', async () => {
    replica.setSwitches({ hangPaths: ['/maps/search/'] });
    const first = await new Promise<{ status: number; chunk: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: replica.port, path: SEARCH, rejectUnauthorized: false, headers: { host: 'www.google.com' } }, (res) => {
        res.setEncoding('utf8');
        res.once('data', (chunk: string) => {
          resolve({ status: res.statusCode ?? 0, chunk });
          req.destroy();
        });
      });
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    expect(first.status).toBe(200);
    expect(first.chunk).not.toContain('</html>');
  });

  it('refuses bad switches and keeps the old ones', () => {
    expect(() => replica.setSwitches({ error500Rate: 2, domVariant: 'c' as 'a' })).toThrow(/error500Rate.*domVariant/);
    expect(() => replica.setSwitches({ nonsense: true } as never)).toThrow(/unknown switch "nonsense"/);
    expect(replica.switches.error500Rate).toBe(0);
    expect(replica.switches.domVariant).toBe('a');
  });

  it('gives Chromium the resolver rules for its hosts: the site, its consent page and its share links', () => {
    expect(chromiumArgs(8443)).toEqual([
      '--host-resolver-rules=MAP www.google.com 127.0.0.1:8443, MAP consent.google.com 127.0.0.1:8443, MAP maps.app.goo.gl 127.0.0.1:8443',
      '--ignore-certificate-errors',
    ]);
  });
});
