/**
 * The real contacts pass (queue, visit, readers) against the replica web (tests/replica/web/),
 * in-process through the replica's own fetch: every case the replica generates (charsets,
 * obfuscations, contact pages two links deep, robots.txt, 404/500, hangs, redirect chains and
 * loops, a 50 MB page, a PDF, a website that is an Instagram profile), scored against its truth.
 * Then a pass killed mid-way and resumed: nothing committed is fetched again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactsOf } from '../../utils/contacts/read';
import { countOpenSites } from '../../utils/contacts/queue';
import type { FetchFn } from '../../utils/contacts/fetch-page';
import type { Store } from '../../utils/store';
import { startWebReplica, type WebReplica } from '../replica/web/server';
import { precisionOf, recallOf, scoreContacts } from '../helpers/contacts-score';
import { boundedFetch, inMemoryPass, placesOfWeb, storeOfWeb } from '../helpers/contacts-run';
import { freshFactory } from './store-fixtures';
import { seededRandom } from '../helpers/random';

const SITES = 160;
let web: WebReplica;

beforeAll(async () => {
  web = await startWebReplica({ seed: 23, hosts: SITES });
});
afterAll(async () => {
  await web?.close();
});

/**
 * Retries wait at most 1% of the product's backoff (0.6 s, not a minute of the real clock): these
 * tests are about what a pass finds and how it settles each site, not how long it waits; the
 * backoff itself is tested in contacts-queue.test.ts.
 */
const rng = seededRandom(23);
const pass = (store: Store, fetchFn: FetchFn) => inMemoryPass(store, fetchFn, { gapMs: 0, concurrency: 8, maxAttempts: 2 }, 50, () => rng() * 0.01);
/** The product's page bound is 10 s; the replica's hanging sites are given 1.5 s here. */
const quick = (url: string, init: RequestInit) => boundedFetch(web, 1500)(url, init);
const storeWith = () => storeOfWeb(web, freshFactory());

describe('the contacts pass on the replica web', () => {
  it('finds the e-mails a reader can find (precision ≥ 0.99, recall ≥ 0.95), the profiles, and settles every site with its reason', {
    timeout: 120_000,
  }, async () => {
    const store = await storeWith();
    const p = pass(store, quick);
    await p.start('s1');
    await p.idle();
    expect((await countOpenSites(store)).open).toBe(0);
    const contacts = await contactsOf(store, placesOfWeb(web));
    const sites = web.web.hosts.map((host, i) => ({ truth: web.truth(host), record: contacts.get(`google:${i + 1}`) }));
    const score = scoreContacts(sites);
    console.log(
      `contacts on ${SITES} replica sites: e-mail precision ${precisionOf(score).toFixed(3)}, recall ${recallOf(score).toFixed(3)} (${score.recalledEmails}/${score.findableEmails}), profiles ${score.socialsFound}/${score.socialsExpected}`,
    );
    if (score.missed.length) console.log('missed:', score.missed.slice(0, 10));
    if (score.wrong.length) console.log('wrong:', score.wrong.slice(0, 10));
    if (score.socialsWrong.length) console.log('profiles wrong:', score.socialsWrong.slice(0, 10));
    expect(precisionOf(score)).toBeGreaterThanOrEqual(0.99);
    expect(recallOf(score)).toBeGreaterThanOrEqual(0.95);
    expect(score.socialsFound / score.socialsExpected).toBeGreaterThanOrEqual(0.95);
    // Every fate ends where it should: read, recorded, or failed with its reason.
    for (const { truth, record } of sites) {
      const outcome = record?.status === 'failed' ? `failed: ${record.lastError}` : record?.findings?.outcome;
      if (truth.fate === 'ok') expect(outcome, truth.host).toBe('read');
      if (truth.fate === 'instagram') expect(outcome, truth.host).toBe('social');
      if (truth.fate === 'robots-disallowed') expect(outcome, truth.host).toBe('robots');
      if (truth.fate === '404') expect(outcome, truth.host).toBe('failed: HTTP 404');
      if (truth.fate === 'pdf') expect(outcome, truth.host).toMatch(/^failed: not a web page/);
      // A 50 MB home page is read to its first 2 MB: the address near its top is found.
      if (truth.fate === 'huge') expect(outcome, truth.host).toBe('read');
      if (truth.fate === '500' || truth.fate === 'timeout' || truth.fate === 'redirect-loop') expect(outcome, truth.host).toMatch(/^failed: /);
    }
  });

  it('killed mid-pass and started again: every site committed before the kill is never fetched again, and the rest is finished', {
    timeout: 120_000,
  }, async () => {
    const store = await storeWith();
    // The first worker: its fetches stop answering once a third of the sites are settled,
    // as if the worker died there (its leases are left as they were).
    let dead = false;
    const hang = new Promise<never>(() => {});
    const first = pass(store, (url, init) => (dead ? hang : quick(url, init)));
    await first.start('s1');
    const keys = placesOfWeb(web);
    const settled = async () => [...(await contactsOf(store, keys)).values()].filter((c) => c.status === 'done' || c.status === 'failed');
    while ((await settled()).length < SITES / 3) await new Promise((r) => setTimeout(r, 20));
    dead = true;
    const committed = new Set((await settled()).map((c) => c.url));

    // A new worker on the same store: the old session's leases are given back at start-up.
    const fetched: string[] = [];
    const second = pass(store, (url, init) => {
      fetched.push(url);
      return quick(url, init);
    });
    await second.onStartup();
    await second.resume();
    await second.idle();
    expect((await countOpenSites(store)).open).toBe(0);
    const again = fetched.filter((u) => [...committed].some((site) => sameSite(u, site)));
    expect(again).toEqual([]);
    expect(committed.size).toBeGreaterThan(0);
    expect(fetched.length).toBeGreaterThan(0);
  });
});

/** Whether a fetched URL belongs to the website a record is keyed by (its host). */
function sameSite(url: string, site: string): boolean {
  return new URL(url).host === new URL(site).host;
}
