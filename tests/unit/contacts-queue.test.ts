/**
 * The contacts queue over the store (utils/contacts/queue.ts) and the pass that drives it
 * (utils/contacts/pass.ts): one record per website, however many places share it; a lease is a
 * time (a site leased and never committed is visited again, nothing committed is fetched again,
 * across a closed and reopened database); failures retried with backoff or left with their reason;
 * a settled site is visited again only after its re-check period; nothing is fetched without the
 * user's grant, and a grant withdrawn stops the pass with its sites given back.
 */
import { NO_FILTER } from '../../utils/filters';
import { describe, expect, it } from 'vitest';
import type { Listing, StoredListing } from '../../utils/domain/listing';
import { openStore, type Store } from '../../utils/store';
import { commitSite, countOpenSites, enqueueContacts, failSite, leaseSite, releaseContactLeases } from '../../utils/contacts/queue';
import { contactCoverage } from '../../utils/contacts/read';
import { createContactsPass, DEFAULT_CONTACTS_SETTINGS, type ContactsPassState, type ContactsSettings } from '../../utils/contacts/pass';
import { emptyFindings } from '../../utils/contacts/records';
import { FINDINGS_BOUNDS } from '../../utils/contacts/visit';
import type { FetchFn } from '../../utils/contacts/fetch-page';
import { contactsOfKeys } from '../helpers/contacts-run';
import { freshFactory, makeListing } from './store-fixtures';

const NOW = 50_000_000;
const DAY = 86_400_000;

function stored(cid: string, website: string | null, collections = ['s1']): StoredListing {
  const l: Listing = makeListing(cid, { website });
  return { ...l, firstSeen: 1, lastSeen: 2, collections, keywords: ['cafe'], cells: [] };
}

async function seeded(listings: StoredListing[], factory = freshFactory(), name = 'c'): Promise<Store> {
  const store = await openStore({ factory, name });
  await store.transact(['listings'], 'readwrite', async (tx) => {
    for (const l of listings) await tx.objectStore('listings').put(l);
  });
  return store;
}

describe('the contacts queue', () => {
  it('one site per website however many places share it; social profiles and map pages recorded, never queued', async () => {
    const store = await seeded([
      stored('1', 'https://franchise.kr/'),
      stored('2', 'https://franchise.kr/'),
      stored('3', 'https://www.instagram.com/cafe_one/'),
      stored('4', 'https://map.naver.com/p/entry/place/123'),
      stored('5', null),
      stored('6', 'https://other.kr/', ['browsing']),
    ]);
    const result = await enqueueContacts(store, { collection: 's1', now: NOW, recheckDays: 30 });
    expect(result).toEqual({ places: 4, queued: 1, recorded: 2 });
    const contacts = await contactsOfKeys(store, ['google:1', 'google:2', 'google:3', 'google:4', 'google:5', 'google:6']);
    expect(contacts.get('google:1')?.url).toBe('https://franchise.kr/');
    expect(contacts.get('google:2')).toEqual(contacts.get('google:1'));
    expect(contacts.get('google:1')?.places).toEqual(['google:1', 'google:2']);
    expect(contacts.get('google:3')?.findings?.outcome).toBe('social');
    expect(contacts.get('google:3')?.findings?.socials.instagram?.value).toBe('https://www.instagram.com/cafe_one');
    expect(contacts.get('google:4')?.findings?.outcome).toBe('platform');
    expect(contacts.has('google:5')).toBe(false);
    expect(contacts.has('google:6')).toBe(false);
    expect((await countOpenSites(store)).open).toBe(1);
  });

  it('a lease is a time: leased and never committed, the site comes back; committed, it never does until its re-check date', async () => {
    const factory = freshFactory();
    let store = await seeded([stored('1', 'https://a.kr/'), stored('2', 'https://b.kr/')], factory);
    await enqueueContacts(store, { now: NOW, recheckDays: 30 });
    const a = await leaseSite(store, { holder: 'w1', now: NOW, leaseMs: 1000 });
    const b = await leaseSite(store, { holder: 'w2', now: NOW, leaseMs: 1000 });
    expect(new Set([a?.url, b?.url])).toEqual(new Set(['https://a.kr/', 'https://b.kr/']));
    expect(await leaseSite(store, { holder: 'w3', now: NOW, leaseMs: 1000 })).toBeNull();
    // w1's worker dies; w2 commits. The database is closed and opened again (a browser restart).
    expect(await commitSite(store, { url: b!.url, holder: 'w2', now: NOW + 10, findings: emptyFindings('read') })).toBe(true);
    store.close();
    store = await openStore({ factory, name: 'c' });
    expect(await leaseSite(store, { holder: 'w3', now: NOW + 500, leaseMs: 1000 })).toBeNull();
    const again = await leaseSite(store, { holder: 'w3', now: NOW + 1001, leaseMs: 1000 });
    expect(again?.url).toBe(a!.url);
    // The dead holder's late commit is refused: the site is w3's now.
    expect(await commitSite(store, { url: a!.url, holder: 'w1', now: NOW + 1002, findings: emptyFindings('read') })).toBe(false);
    expect(await commitSite(store, { url: a!.url, holder: 'w3', now: NOW + 1003, findings: emptyFindings('read') })).toBe(true);
    expect(await leaseSite(store, { holder: 'w4', now: NOW + 29 * DAY, leaseMs: 1000 })).toBeNull();
    // Re-check: queued again only once its period has passed.
    expect((await enqueueContacts(store, { now: NOW + 29 * DAY, recheckDays: 30 })).queued).toBe(0);
    expect((await enqueueContacts(store, { now: NOW + 31 * DAY, recheckDays: 30 })).queued).toBe(2);
  });

  it('a transient failure waits out a backoff, then is left failed at maxAttempts; a permanent one at once; a restart gives leases back', async () => {
    const store = await seeded([stored('1', 'https://a.kr/'), stored('2', 'https://b.kr/')]);
    await enqueueContacts(store, { now: NOW, recheckDays: 30 });
    const fail = async (url: string, holder: string, now: number, kind: 'transient' | 'permanent') =>
      failSite(store, { url, holder, now, failure: { kind, message: kind === 'transient' ? 'HTTP 503' : 'HTTP 404' }, maxAttempts: 2, random: () => 0.5 });
    const first = (await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000, except: (u) => u === 'https://b.kr/' }))!;
    expect(first.url).toBe('https://a.kr/');
    await fail(first.url, 'w', NOW, 'transient');
    const b = (await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000 }))!;
    expect(b.url).toBe('https://b.kr/');
    await fail(b.url, 'w', NOW, 'permanent');
    // a.kr waits its backoff (0.5 × a minute): an overloaded small site is not asked again at once.
    expect(await leaseSite(store, { holder: 'w', now: NOW + 29_000, leaseMs: 1000 })).toBeNull();
    const retry = (await leaseSite(store, { holder: 'w', now: NOW + 30_000, leaseMs: 1000 }))!;
    await fail(retry.url, 'w', NOW + 30_000, 'transient');
    const contacts = await contactsOfKeys(store, ['google:1', 'google:2']);
    expect([contacts.get('google:1')?.status, contacts.get('google:1')?.lastError, contacts.get('google:1')?.attempts]).toEqual(['failed', 'HTTP 503', 2]);
    expect([contacts.get('google:2')?.status, contacts.get('google:2')?.lastError]).toEqual(['failed', 'HTTP 404']);

    const store2 = await seeded([stored('3', 'https://c.kr/')], freshFactory());
    await enqueueContacts(store2, { now: NOW, recheckDays: 30 });
    await leaseSite(store2, { holder: 'old', now: NOW, leaseMs: 60_000 });
    expect(await releaseContactLeases(store2, NOW + 1)).toBe(1);
    expect((await leaseSite(store2, { holder: 'new', now: NOW + 2, leaseMs: 60_000 }))?.url).toBe('https://c.kr/');
  });

  it('a place whose website changed is read with its new website, in exports and coverage alike', async () => {
    const store = await seeded([stored('1', 'http://cafe.kr/')]);
    await enqueueContacts(store, { now: NOW, recheckDays: 30 });
    const old = (await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000 }))!;
    await commitSite(store, { url: old.url, holder: 'w', now: NOW, findings: emptyFindings('read') });
    await store.transact(['listings'], 'readwrite', (tx) => tx.objectStore('listings').put(stored('1', 'https://cafe.kr/')));
    await enqueueContacts(store, { now: NOW + 1, recheckDays: 30 });
    const fresh = (await leaseSite(store, { holder: 'w', now: NOW + 1, leaseMs: 1000 }))!;
    const findings = emptyFindings('read');
    findings.emails.push({ value: 'hi@cafe.kr', page: 'https://cafe.kr/' });
    await commitSite(store, { url: fresh.url, holder: 'w', now: NOW + 1, findings });
    expect((await contactsOfKeys(store, ['google:1'])).get('google:1')?.url).toBe('https://cafe.kr/');
    expect(await contactCoverage(store)).toMatchObject({ withWebsite: 1, checked: 1, withEmail: 1 });
  });

  it('with filters on, the coverage counts only the places they keep, so it can reach all of them ("checked for 1 of 1")', async () => {
    const store = await seeded([stored('1', 'https://a.kr/'), { ...stored('2', 'https://b.kr/'), rating: 2.1 }]);
    const keep = (l: Listing) => (l.rating ?? 5) >= 4;
    await enqueueContacts(store, { now: NOW, recheckDays: 30, keep });
    const site = (await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000 }))!;
    expect(site.url).toBe('https://a.kr/');
    await commitSite(store, { url: site.url, holder: 'w', now: NOW, findings: emptyFindings('read') });
    expect(await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000 })).toBeNull();
    expect(await contactCoverage(store, 's1', keep)).toEqual({ withWebsite: 1, checked: 1, withEmail: 0, open: 0 });
    // Without the filter, the place left out is counted and never checked: "1 of 2" for ever.
    expect(await contactCoverage(store, 's1')).toMatchObject({ withWebsite: 2, checked: 1 });
  });

  it('the coverage costs nothing before any website was queued (no walk over a large collection): null', async () => {
    const store = await seeded([stored('1', 'https://a.kr/')]);
    expect(await contactCoverage(store)).toBeNull();
    await enqueueContacts(store, { now: NOW, recheckDays: 30 });
    expect(await contactCoverage(store)).toEqual({ withWebsite: 1, checked: 0, withEmail: 0, open: 1 });
  });

  it('refuses a re-check period or time that is not a number, writing nothing', async () => {
    const store = await seeded([stored('1', 'https://a.kr/')]);
    await expect(enqueueContacts(store, { now: NOW, recheckDays: -1 })).rejects.toThrow(/re-check/);
    expect((await countOpenSites(store)).open).toBe(0);
  });
});

/** A tiny web: every site answers robots.txt (allow all), a home page with an e-mail, and counts its requests. */
function tinyWeb(opts: { hang?: boolean } = {}) {
  const requests: string[] = [];
  let gate: (() => void) | null = null;
  const fetchFn: FetchFn = async (url, init) => {
    requests.push(url);
    if (url.endsWith('/robots.txt')) return new Response('User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
    if (opts.hang) {
      await new Promise<void>((resolve, reject) => {
        gate = resolve;
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    const host = new URL(url).host;
    return new Response(`<html><body><a href="mailto:hello@${host}">mail</a></body></html>`, { headers: { 'content-type': 'text/html' } });
  };
  return { fetchFn, requests, open: () => gate?.() };
}

function passWith(store: Store, fetchFn: FetchFn, granted: { value: boolean }, more: Partial<ContactsSettings> = {}) {
  let state: ContactsPassState = { status: 'idle' };
  let id = 0;
  const pass = createContactsPass({
    store,
    fetch: fetchFn,
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(resolve, Math.min(ms, 20));
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(new Error('aborted'));
        });
      }),
    random: () => 0.5,
    newId: () => String(++id),
    hasPermission: async () => granted.value,
    loadState: async () => state,
    saveState: async (s) => {
      state = s;
    },
    settings: async () => ({ ...DEFAULT_CONTACTS_SETTINGS, gapMs: 0, ...more }),
  });
  return {
    pass,
    state: () => state,
    setState: (s: ContactsPassState) => {
      state = s;
    },
  };
}

describe('the contacts pass', () => {
  it('with filters on, only the websites of places that pass are read; a place whose rating nobody read is not dropped', async () => {
    const rated = (cid: string, site: string, rating: number | null) => ({ ...stored(cid, site), rating });
    const store = await seeded([rated('1', 'https://a.kr/', 4.6), rated('2', 'https://b.kr/', 3.1), rated('3', 'https://c.kr/', null)]);
    const web = tinyWeb();
    const { pass } = passWith(store, web.fetchFn, { value: true }, { filters: { ...NO_FILTER, minRating: 4 } });
    await pass.start('s1');
    await pass.idle();
    expect(web.requests.filter((u) => !u.endsWith('robots.txt')).sort()).toEqual(['https://a.kr/', 'https://c.kr/']);
  });

  it('without the grant nothing is fetched and it says why; with it, every site is visited once and its e-mail kept with its page', async () => {
    const store = await seeded([stored('1', 'https://a.kr/'), stored('2', 'https://b.kr/'), stored('3', 'https://a.kr/')]);
    const web = tinyWeb();
    const granted = { value: false };
    const { pass, state } = passWith(store, web.fetchFn, granted);
    expect(await pass.start('s1')).toEqual({ refused: 'permission' });
    await pass.idle();
    expect(web.requests).toEqual([]);
    expect(state()).toEqual({ status: 'paused', reason: 'permission' });

    granted.value = true;
    expect(await pass.resume()).toBe('running');
    await pass.idle();
    expect(state()).toEqual({ status: 'idle' });
    expect(web.requests.filter((u) => !u.endsWith('robots.txt')).sort()).toEqual(['https://a.kr/', 'https://b.kr/']);
    const contacts = await contactsOfKeys(store, ['google:1', 'google:3']);
    expect(contacts.get('google:3')?.findings?.emails).toEqual([{ value: 'hello@a.kr', page: 'https://a.kr/' }]);
    // Started again: nothing committed is fetched again.
    const before = web.requests.length;
    await pass.start('s1');
    await pass.idle();
    expect(web.requests.length).toBe(before);
  });

  it('a grant withdrawn mid-visit stops the pass: the site goes back without an attempt and is visited when resumed', async () => {
    const store = await seeded([stored('1', 'https://a.kr/')]);
    const web = tinyWeb({ hang: true });
    const granted = { value: true };
    const { pass, state } = passWith(store, web.fetchFn, granted);
    await pass.start();
    while (!web.requests.includes('https://a.kr/')) await new Promise((r) => setTimeout(r, 5));
    granted.value = false;
    await pass.onPermissionRemoved();
    expect(state()).toEqual({ status: 'paused', reason: 'permission' });
    const site = (await contactsOfKeys(store, ['google:1'])).get('google:1')!;
    expect([site.status, site.attempts]).toEqual(['pending', 0]);
    granted.value = true;
    const resumed = passWith(store, tinyWeb().fetchFn, granted);
    await resumed.pass.resume();
    await resumed.pass.idle();
    expect((await contactsOfKeys(store, ['google:1'])).get('google:1')?.status).toBe('done');
  });

  it('a pause and a resume at once leave it running, not stuck; a start while it winds down is not lost', async () => {
    const store = await seeded([stored('1', 'https://a.kr/'), stored('2', 'https://b.kr/')]);
    let hang = true;
    const fetchFn: FetchFn = async (url, init) => {
      if (!url.endsWith('/robots.txt') && hang)
        await new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      return tinyWeb().fetchFn(url, init);
    };
    const { pass, state } = passWith(store, fetchFn, { value: true });
    await pass.start();
    await new Promise((r) => setTimeout(r, 50));
    const pausing = pass.pause('user');
    const resuming = pass.resume();
    hang = false;
    await Promise.all([pausing, resuming]);
    await pass.idle();
    expect(state()).toEqual({ status: 'idle' });
    expect([...(await contactsOfKeys(store, ['google:1', 'google:2'])).values()].map((c) => c.status)).toEqual(['done', 'done']);

    // A website queued while the loops are ending (they saw an empty queue) is still visited.
    await store.transact(['listings'], 'readwrite', (tx) => tx.objectStore('listings').put(stored('3', 'https://c.kr/')));
    const started = pass.start();
    await pass.start();
    await started;
    await pass.idle();
    expect((await contactsOfKeys(store, ['google:3'])).get('google:3')?.status).toBe('done');
  });

  it("the watchdog's tick revives a running pass no loop drives (a worker stopped and woken), and leaves a paused one", async () => {
    const store = await seeded([stored('1', 'https://a.kr/')]);
    await enqueueContacts(store, { now: Date.now(), recheckDays: 30 });
    const web = tinyWeb();
    const { pass, setState } = passWith(store, web.fetchFn, { value: true });
    setState({ status: 'paused', reason: 'user' });
    await pass.revive();
    await pass.idle();
    expect(web.requests).toEqual([]);
    setState({ status: 'running' });
    await pass.revive();
    await pass.idle();
    expect((await contactsOfKeys(store, ['google:1'])).get('google:1')?.status).toBe('done');
  });

  it('a site the readers choke on is left failed with the reason; the others are read', async () => {
    const store = await seeded([stored('1', 'https://bad.kr/'), stored('2', 'https://good.kr/')]);
    const web = tinyWeb();
    const fetchFn: FetchFn = async (url, init) =>
      url === 'https://bad.kr/'
        ? ({
            ok: true,
            status: 200,
            url,
            headers: {
              get: () => {
                throw new Error('boom');
              },
            },
          } as unknown as Response)
        : web.fetchFn(url, init);
    const { pass, state } = passWith(store, fetchFn, { value: true });
    await pass.start();
    await pass.idle();
    const contacts = await contactsOfKeys(store, ['google:1', 'google:2']);
    expect([contacts.get('google:1')?.status, contacts.get('google:1')?.lastError]).toEqual(['failed', 'could not read the site: boom']);
    expect(contacts.get('google:2')?.status).toBe('done');
    expect(state()).toEqual({ status: 'idle' });
  });
});

describe('a visit whose chosen pages did not answer (issue 36)', () => {
  /** Home answers with links to /contact and /about; those answer `status`. */
  const siteWith = (status: number) => {
    const requests: string[] = [];
    const fetchFn: FetchFn = async (url) => {
      requests.push(url);
      const path = new URL(url).pathname;
      if (path === '/robots.txt') return new Response('User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
      if (path === '/')
        return new Response('<html><body><p>hello@a.kr</p><a href="/contact">Contact</a> <a href="/about">About us</a></body></html>', {
          headers: { 'content-type': 'text/html' },
        });
      return new Response('<html><body>busy</body></html>', { status, headers: { 'content-type': 'text/html' } });
    };
    return { fetchFn, requests };
  };
  /** The pass on a clock that moves only when it waits: backoffs pass at once, and are still backoffs. */
  const passOnClock = (store: Store, fetchFn: FetchFn, from = NOW) => {
    let clock = from;
    let state: ContactsPassState = { status: 'idle' };
    let id = 0;
    const pass = createContactsPass({
      store,
      fetch: fetchFn,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        await new Promise((r) => setTimeout(r, 0));
      },
      random: () => 0.5,
      newId: () => String(++id),
      hasPermission: async () => true,
      loadState: async () => state,
      saveState: async (s) => {
        state = s;
      },
      settings: async () => ({ ...DEFAULT_CONTACTS_SETTINGS, gapMs: 0, maxAttempts: 3 }),
    });
    return { pass, clock: () => clock };
  };

  it('home 200, /contact and /about 503: retried with backoff, then partial with the reason, not counted as checked, tried again by the next pass', async () => {
    const store = await seeded([stored('1', 'https://a.kr/')]);
    const site = siteWith(503);
    const { pass, clock } = passOnClock(store, site.fetchFn);
    await pass.start('s1');
    await pass.idle();
    const record = (await contactsOfKeys(store, ['google:1'])).get('google:1')!;
    expect(record.status).toBe('partial');
    expect(record.attempts).toBe(3);
    expect(record.lastError).toMatch(/^a page did not answer: https:\/\/a\.kr\/(contact|about): HTTP 503 \(and 1 more\)$/);
    expect(record.checkedAt).toBeNull();
    // What was read is kept and exported.
    expect(record.findings?.emails.map((e) => e.value)).toEqual(['hello@a.kr']);
    // Three visits, each a backoff apart (a minute and more), each asking both pages.
    expect(site.requests.filter((u) => u.endsWith('/contact')).length).toBe(3);
    expect(clock() - NOW).toBeGreaterThanOrEqual(60_000);
    const coverage = (await contactCoverage(store, 's1'))!;
    expect([coverage.withWebsite, coverage.checked]).toEqual([1, 0]);
    // The next pass tries it again, now that the pages answer.
    expect((await enqueueContacts(store, { now: clock(), recheckDays: 30 })).queued).toBe(1);
  });

  it('a re-check that fails half-way keeps what the earlier visit found (an address on the contact page is not erased)', async () => {
    const store = await seeded([stored('1', 'https://a.kr/')]);
    let busy = false;
    const fetchFn: FetchFn = async (url) => {
      const path = new URL(url).pathname;
      if (path === '/robots.txt') return new Response('User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } });
      if (path === '/') return new Response('<p>hello@a.kr</p><a href="/contact">Contact</a>', { headers: { 'content-type': 'text/html' } });
      if (busy) return new Response('busy', { status: 503, headers: { 'content-type': 'text/html' } });
      return new Response('<p>contact@a.kr</p>', { headers: { 'content-type': 'text/html' } });
    };
    const { pass, clock } = passOnClock(store, fetchFn);
    await pass.start('s1');
    await pass.idle();
    expect((await contactsOfKeys(store, ['google:1'])).get('google:1')?.findings?.emails.map((e) => e.value)).toEqual(['hello@a.kr', 'contact@a.kr']);
    busy = true;
    const later = clock() + 31 * DAY;
    expect((await enqueueContacts(store, { now: later, recheckDays: 30 })).queued).toBe(1);
    const again = passOnClock(store, fetchFn, later);
    await again.pass.start('s1');
    await again.pass.idle();
    const record = (await contactsOfKeys(store, ['google:1'])).get('google:1')!;
    expect(record.status).toBe('partial');
    expect(record.findings?.emails.map((e) => e.value)).toEqual(['hello@a.kr', 'contact@a.kr']);
  });

  it('home 200, /contact and /about 404: done, the refusals noted, checked', async () => {
    const store = await seeded([stored('1', 'https://a.kr/')]);
    const site = siteWith(404);
    const { pass } = passOnClock(store, site.fetchFn);
    await pass.start('s1');
    await pass.idle();
    const record = (await contactsOfKeys(store, ['google:1'])).get('google:1')!;
    expect([record.status, record.attempts]).toEqual(['done', 0]);
    expect(record.findings?.notes.some((n) => /\/contact: HTTP 404/.test(n))).toBe(true);
    expect((await contactCoverage(store, 's1'))!.checked).toBe(1);
  });
});

describe('a hostile page', () => {
  it('30,000 addresses and numbers on one page make a record of at most the bounds, with a note', async () => {
    const store = await seeded([stored('1', 'https://spam.kr/')]);
    const body = Array.from(
      { length: 30_000 },
      (_, i) => `<a href="mailto:a${i}@spam.kr">x</a> 02-${String(1000 + (i % 9000)).padStart(4, '0')}-${String(i % 10000).padStart(4, '0')}`,
    ).join('');
    const fetchFn: FetchFn = async (url) =>
      url.endsWith('/robots.txt')
        ? new Response('', { status: 404 })
        : new Response(`<html><body>${body}</body></html>`, { headers: { 'content-type': 'text/html' } });
    const { pass } = passWith(store, fetchFn, { value: true });
    await pass.start();
    await pass.idle();
    const site = (await contactsOfKeys(store, ['google:1'])).get('google:1')!;
    expect(site.findings!.emails.length).toBe(FINDINGS_BOUNDS.emails);
    expect(site.findings!.phones.length).toBeLessThanOrEqual(FINDINGS_BOUNDS.phones);
    expect(site.findings!.notes).toContain(`more than ${FINDINGS_BOUNDS.emails} e-mail addresses: the rest left out`);
    expect(JSON.stringify(site).length).toBeLessThan(20_000);
  });
});

describe('an old frameset home page', () => {
  it('its frames are read as the home page, and their contact links followed', async () => {
    const store = await seeded([stored('1', 'http://www.old.co.kr/')]);
    const pages: Record<string, string> = {
      'http://www.old.co.kr/': '<frameset><frame src="/main.html"></frameset>',
      'http://www.old.co.kr/main.html': '<p>어서 오세요</p><a href="/contact.html">연락처</a>',
      'http://www.old.co.kr/contact.html': '<a href="mailto:old@old.co.kr">메일</a>',
    };
    const fetchFn: FetchFn = async (url) =>
      url.endsWith('/robots.txt')
        ? new Response('', { status: 404 })
        : pages[url]
          ? new Response(pages[url], { headers: { 'content-type': 'text/html' } })
          : new Response('', { status: 404 });
    const { pass } = passWith(store, fetchFn, { value: true });
    await pass.start();
    await pass.idle();
    const site = (await contactsOfKeys(store, ['google:1'])).get('google:1')!;
    expect(site.findings?.emails).toEqual([{ value: 'old@old.co.kr', page: 'http://www.old.co.kr/contact.html' }]);
    expect(site.findings?.contactPage).toBe('http://www.old.co.kr/contact.html');
  });
});
