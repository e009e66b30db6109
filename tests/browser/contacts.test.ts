/**
 * The contacts pass end to end in real Chromium with the production build (issue 23): a Google
 * sweep of a small area on the replica map, the businesses' websites on the replica web
 * (tests/replica/web/) reached by host-resolver rules. Without the user's grant, Find contacts
 * fetches nothing and opens the options page to ask; with the grant (given as chrome://extensions
 * gives it: its `developerPrivate.addHostPermission`, since a test cannot press the browser's own
 * prompt), every website is visited once, politely, without cookies, and the exported e-mails and
 * profiles equal the replica's truth; a grant withdrawn mid-pass pauses it with the reason.
 * The web is served from an address outside the user's network (tests/helpers/public-address.ts),
 * but for one site whose name leads to 127.0.0.1: its answer is dropped unread (issue 36).
 * The options' filters keep about half the places (a lowest rating, issue 40): only their
 * websites are read, the coverage line counts them alone, and the export holds them alone.
 *
 * Budget: 45 s (alone on 2 cores; measured 37 s).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import { chromiumArgs, startReplica, type Replica } from '../replica/server';
import { startWebReplica, type WebReplica } from '../replica/web/server';
import { NETWORKS } from '../replica/web/sites';
import { createWorld } from '../replica/world';
import { exportCsvFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from './extension';
import { EXTENSION_ID } from './extension-id';
import { launchBrowser, newProfileDir, removeProfileDir, waitFor, type RunningBrowser } from './harness';
import { publicAddressMissing, TEST_PUBLIC_ADDRESS } from '../helpers/public-address';
import { NO_FILTER } from '../../utils/filters';

const CENTRE = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 29, places: 20_000, centre: CENTRE, radiusKm: 5 });
const d = 0.003;
const AREA = `${CENTRE.lat - d},${CENTRE.lng - d * 1.26},${CENTRE.lat + d},${CENTRE.lng + d * 1.26}`;
const KEYWORD = 'cafe';
/** The hosts the replica web cannot be (the world's websites there are profiles, recorded without a fetch). */
const PLATFORM = /(^|\.)(instagram\.com|naver\.com)$/;

let replica: Replica;
let web: WebReplica;
let b: RunningBrowser;
let websites: string[];
/** The site whose name resolves into this computer (a rebinding name, a router's): never read. */
let insider: string;
/** The filter of the test: the places rated at least the median of those with a website (unrated ones pass: unknown is never a reason to drop). */
let minRating: number;
/** Websites of the places the filter leaves out, that no kept place shares. */
let leftOut: string[];

const missing = publicAddressMissing();
if (missing && process.env.MAPSWEEP_REQUIRE_PUBLIC_ADDRESS) throw new Error(`contacts browser test: ${missing}`);
if (missing) console.warn(`skipped: the contacts browser test: ${missing}`);

beforeAll(async () => {
  if (missing) return;
  const area = parseAreaText(AREA);
  if (!area.ok) throw new Error(area.error.message);
  replica = await startReplica({ world, switches: { batchDelayMs: 60, singleResultRedirectMs: 200 } });
  websites = [
    ...new Set(
      replica
        .groundTruth(KEYWORD, area.area)
        .map((p) => p.website)
        .filter((w): w is string => !!w),
    ),
  ];
  const truth = replica.groundTruth(KEYWORD, area.area);
  const rated = truth
    .filter((p) => p.website && p.rating !== null)
    .map((p) => p.rating!)
    .sort((a, b) => a - b);
  minRating = rated[Math.floor(rated.length / 2)]!;
  const passes = (p: { rating: number | null }) => p.rating === null || p.rating >= minRating;
  const kept = new Set(truth.filter(passes).map((p) => p.website));
  leftOut = [...new Set(truth.filter((p) => !passes(p) && p.website && !kept.has(p.website)).map((p) => p.website!))];
  const fetchable = websites.filter((w) => !PLATFORM.test(new URL(w).hostname));
  // More chains past 5 redirects than the default share, so the limit is met in a small area. No
  // site answers 5xx here: the product backs off a minute or more, with its own random jitter,
  // before asking again (a 0–215 s spread in this test's time); the unit tier's replica pass
  // (contacts-pass-replica.test.ts) settles every 5xx site through those retries.
  web = await startWebReplica({
    seed: 29,
    addresses: [TEST_PUBLIC_ADDRESS, '127.0.0.1'],
    hosts: fetchable,
    shares: {
      fates: {
        'robots-disallowed': 0.05,
        '404': 0.05,
        '500': 0,
        timeout: 0,
        'redirect-loop': 0.05,
        'too-many-redirects': 0.15,
        huge: 0.03,
        pdf: 0.03,
        instagram: 0,
      },
    },
  });
  // The last site the pass leases (its queue is in URL order), so public answers come first: a
  // private answer among them is refused for good, not held back as a proxy's might be.
  const leftOutHosts = new Set(leftOut.map((w) => new URL(w).hostname));
  insider = web.web.hosts
    .filter((h) => web.truth(h).fate === 'ok' && !leftOutHosts.has(h))
    .sort((x, y) => (web.truth(x).website < web.truth(y).website ? -1 : 1))
    .at(-1)!;
  const [mapRules, ignoreCerts] = chromiumArgs(replica.port);
  b = await launchBrowser({ profileDir: newProfileDir(), resolverArgs: [`${mapRules}, ${web.hostRules({ [insider]: '127.0.0.1' })}`, ignoreCerts!] });
});

afterAll(async () => {
  await b?.close();
  if (b) removeProfileDir(b.profileDir);
  await replica?.close();
  await web?.close();
});

/** What chrome://extensions does when a person grants or withdraws site access. */
async function setGrant(granted: boolean): Promise<void> {
  const page = await b.context.newPage();
  await page.goto('chrome://extensions/');
  await page.waitForFunction(() => typeof (globalThis as unknown as { chrome: { developerPrivate?: unknown } }).chrome.developerPrivate === 'object');
  const errors = await page.evaluate(
    async ({ id, granted }) => {
      const chrome = (
        globalThis as unknown as {
          chrome: { runtime: { lastError?: { message: string } }; developerPrivate: Record<string, (id: string, host: string, cb: () => void) => void> };
        }
      ).chrome;
      const out: string[] = [];
      for (const host of ['http://*/*', 'https://*/*'])
        await new Promise<void>((r) =>
          chrome.developerPrivate[granted ? 'addHostPermission' : 'removeHostPermission']!(id, host, () => {
            if (chrome.runtime.lastError) out.push(`${host}: ${chrome.runtime.lastError.message}`);
            r();
          }),
        );
      return out;
    },
    { id: EXTENSION_ID, granted },
  );
  expect(errors).toEqual([]);
  await page.close();
}

const coverage = (popup: Page) => popup.getByTestId('contacts-coverage').textContent({ timeout: 10_000 });

describe.skipIf(missing !== null)('contacts from websites', () => {
  it('nothing without the grant; with it every website once, politely, and the export equals the truth', { timeout: 600_000 }, async () => {
    expect(web.web.hosts.length).toBeGreaterThanOrEqual(8);
    const maps = await b.context.newPage();
    await maps.goto(`https://www.google.com/maps/search/${KEYWORD}/@${CENTRE.lat},${CENTRE.lng},16z`);
    expect(leftOut.length).toBeGreaterThan(2);
    const popup = await startSweepFromPopup(b.context, { keywords: KEYWORD, area: AREA }, {
      ...TEST_SETTINGS,
      filters: { ...NO_FILTER, minRating },
    } as unknown as typeof TEST_SETTINGS);
    await waitForSweep(popup, (s) => s.status === 'finished', 'the sweep', 300_000);
    await popup.reload();
    // Before any website was queued there is nothing to count: no line, only the button.
    await waitFor(async () => popup.getByRole('button', { name: 'Find contacts' }).isEnabled(), 'the Find contacts button');
    expect(await popup.getByTestId('contacts-coverage').count()).toBe(0);

    // Refused: Find contacts opens the options (where the permission is asked for); nothing is fetched.
    const [options] = await Promise.all([b.context.waitForEvent('page', { timeout: 15_000 }), popup.getByRole('button', { name: 'Find contacts' }).click()]);
    await options.waitForLoadState();
    expect(options.url()).toContain(`chrome-extension://${EXTENSION_ID}/options.html`);
    await new Promise((r) => setTimeout(r, 2000));
    expect(web.requests()).toEqual([]);
    await options.close();

    // Granted: the person ticks the option (its permission request answers at once: the site
    // access was given as chrome://extensions gives it); the pass runs. Withdrawn mid-way by
    // unticking, it pauses with the reason; ticked again and restarted, it ends.
    await setGrant(true);
    const settings = await b.context.newPage();
    await settings.goto(`chrome-extension://${EXTENSION_ID}/options.html`);
    const option = settings.getByRole('checkbox', { name: /Contacts from websites/ });
    await option.check();
    await waitFor(async () => option.isChecked(), 'the option on');
    await popup.getByRole('button', { name: 'Find contacts' }).click();
    await waitFor(async () => web.requests().length >= 3, 'the first website requests', 60_000, 100);
    await option.uncheck();
    await waitFor(
      async () => /may not read websites/.test((await popup.getByTestId('contacts-status').textContent()) ?? ''),
      'the pass paused for the permission',
      30_000,
    );
    const whenWithdrawn = web.requests().length;
    await new Promise((r) => setTimeout(r, 2500));
    // At most the requests already on their way when the grant went: nothing new starts.
    expect(web.requests().length - whenWithdrawn).toBeLessThanOrEqual(4);
    await setGrant(true);
    await option.check();
    await waitFor(async () => option.isChecked(), 'the option on again');
    await popup.getByRole('button', { name: 'Find contacts' }).click();
    const passFrom = Date.now();
    const total = Number(/of (\d+) places with a website/.exec((await coverage(popup)) ?? '')![1]);
    await waitFor(async () => new RegExp(`checked for ${total} of ${total} `).test((await coverage(popup)) ?? ''), 'every website checked', 420_000, 1000);

    const passS = (Date.now() - passFrom) / 1000;
    // Politeness: no cookie sent back, one request at a time per host and ≥ 1 s apart.
    const requests = web.requests();
    expect(requests.filter((r) => r.cookie)).toEqual([]);
    // A redirect's next hop is a request of its own (followed by hand), so it waits its turn too.
    const byHost = new Map<string, typeof requests>();
    for (const r of requests) byHost.set(r.host, [...(byHost.get(r.host) ?? []), r]);
    for (const [host, list] of byHost)
      for (let i = 1; i < list.length; i++) {
        const previous = list[i - 1]!;
        expect(list[i]!.at - previous.at, `${host}${list[i]!.path}`).toBeGreaterThanOrEqual(950);
      }

    // The places the filter leaves out: not one request to their websites, none queued.
    const leftOutHosts = new Set(leftOut.map((w) => new URL(w).hostname));
    expect(requests.filter((r) => leftOutHosts.has(r.host)).map((r) => r.host)).toEqual([]);

    // The export: each place's e-mails and profiles as the truth has them.
    const csv = await exportCsvFromPopup(popup);
    // Only the places that pass, and the file says which filters made it.
    expect(csv.rows.filter((r) => r.rating !== '' && Number(r.rating) < minRating).map((r) => r.name)).toEqual([]);
    expect(csv.fileName).toContain(`filtered-r${String(minRating).replace('.', '_')}`);
    let findable = 0;
    let found = 0;
    const wrong: string[] = [];
    for (const row of csv.rows) {
      if (!row.website) continue;
      const host = new URL(row.website).hostname;
      if (!web.web.has(host) || host === insider) continue;
      const truth = web.truth(host);
      const kept = new Set((row.emails ? row.emails.split('; ') : []).map((e) => e.toLowerCase()));
      const real = new Set([...truth.emails, ...truth.hiddenEmails].map((e) => e.address.toLowerCase()));
      for (const e of kept) if (!real.has(e.replace(/^'/, ''))) wrong.push(`${host}: ${e}`);
      for (const e of truth.emails) {
        findable++;
        if (kept.has(e.address.toLowerCase()) || kept.has(`'${e.address.toLowerCase()}`)) found++;
      }
      for (const [network, url] of Object.entries(truth.socials)) expect(row[network], `${host} ${network}`).toBe(url);
      expect(row.contacts_checked_at, host).toMatch(/^20\d\d-/);
    }
    console.log(
      `contacts in Chromium: ${web.web.hosts.length} websites (${leftOut.length} of places the filter leaves out, never asked), ${requests.length} requests in ${passS.toFixed(1)} s, e-mails ${found}/${findable}, ${wrong.length} wrong`,
    );
    expect(wrong).toEqual([]);
    expect(found / Math.max(1, findable)).toBeGreaterThanOrEqual(0.95);

    // Past 5 redirects: left failed with that reason (webRequest counted the worker's hops).
    const tooMany = web.web.hosts.filter((h) => web.truth(h).fate === 'too-many-redirects' && !leftOutHosts.has(h));
    expect(tooMany.length).toBeGreaterThan(0);
    const records = await popup.evaluate(
      () =>
        new Promise<{ url: string; lastError: string | null; status: string; attempts: number }[]>((resolve) => {
          const req = indexedDB.open('mapsweep');
          req.onsuccess = () => {
            const all = req.result.transaction('contactSites').objectStore('contactSites').getAll();
            all.onsuccess = () => resolve(all.result);
          };
        }),
    );
    const retried = records.filter((r) => r.attempts > 0 && r.status !== 'failed');
    if (retried.length)
      console.log(
        'visited more than once:',
        retried.map((r) => `${r.url} ${r.status} ${r.lastError}`),
      );
    for (const host of tooMany) expect(records.find((r) => new URL(r.url).hostname === host)?.lastError, host).toBe('more than 5 redirects');
    // The site that answered from 127.0.0.1: refused with the address, nothing of it exported.
    expect(records.find((r) => new URL(r.url).hostname === insider)?.lastError).toMatch(/127\.0\.0\.1 is in your own network/);
    const insiderRows = csv.rows.filter((r) => r.website && new URL(r.website).hostname === insider);
    expect(insiderRows.length).toBeGreaterThan(0);
    for (const row of insiderRows) expect([row.emails, ...NETWORKS.map((n) => row[n])].filter(Boolean)).toEqual([]);
  });
});
