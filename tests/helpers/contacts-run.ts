/**
 * The real contacts pass (utils/contacts/pass.ts) run in-process, for tests and the bench: its
 * state kept in memory, the permission granted, the replica web's own fetch. The store holds one
 * listing per replica site, whose website is the one the site's truth names.
 */
import { createContactsPass, DEFAULT_CONTACTS_SETTINGS, type ContactsPassState, type ContactsSettings } from '../../utils/contacts/pass';
import type { FetchFn } from '../../utils/contacts/fetch-page';
import { abortableSleep } from '../../utils/contacts/sleep';
import { openStore, type Store } from '../../utils/store';
import type { StoredListing } from '../../utils/domain/listing';
import type { WebReplica } from '../replica/web/server';
import { contactsOf } from '../../utils/contacts/read';
import type { ContactSite } from '../../utils/contacts/records';
import { makeListing } from './store-records';

/** A stored place `google:{id}` of collection `s1` whose website is `website`. */
export function placeWithWebsite(id: string, website: string | null): StoredListing {
  return { ...makeListing(id, { website }), firstSeen: 1, lastSeen: 2, collections: ['s1'], keywords: ['cafe'], cells: [] };
}

/** A store whose listings `google:1…n` have the web's sites as websites, in the web's host order. */
export async function storeOfWeb(web: WebReplica, factory: IDBFactory, name = 'web'): Promise<Store> {
  const store = await openStore({ factory, name });
  const hosts = web.web.hosts;
  for (let from = 0; from < hosts.length; from += 1000) {
    await store.transact(['listings'], 'readwrite', async (tx) => {
      for (let i = from; i < Math.min(hosts.length, from + 1000); i++) {
        await tx.objectStore('listings').put(placeWithWebsite(String(i + 1), web.truth(hosts[i]!).website));
      }
    });
  }
  return store;
}

/** The places storeOfWeb wrote: key and website, as contactsOf takes them. */
export const placesOfWeb = (web: WebReplica) => web.web.hosts.map((host, i) => ({ key: `google:${i + 1}`, website: web.truth(host).website }));

/** The contacts of places named by key, through their stored listings (as an export reads them). */
export async function contactsOfKeys(store: Store, keys: readonly string[]): Promise<Map<string, ContactSite>> {
  const listings = await store.transact(['listings'], 'readonly', (tx) => Promise.all(keys.map((k) => tx.objectStore('listings').get(k))));
  return contactsOf(
    store,
    listings.filter((l): l is StoredListing => l !== undefined),
  );
}

/**
 * The pass with `settings`; `sleepCapMs` shortens its idle waits (never the host lanes' gap,
 * which goes through the same sleep: leave it unset where the pace is measured). `random` draws
 * the retry backoff's jitter: a small one brings a failed site's second attempt within a second,
 * where the product waits up to a minute (SITE_BACKOFF_BASE_MS) on the real clock.
 */
export function inMemoryPass(store: Store, fetchFn: FetchFn, settings: Partial<ContactsSettings>, sleepCapMs = Infinity, random: () => number = Math.random) {
  let state: ContactsPassState = { status: 'idle' };
  let n = 0;
  return createContactsPass({
    store,
    fetch: fetchFn,
    now: Date.now,
    sleep: (ms, signal) => abortableSleep(Math.min(ms, sleepCapMs), signal),
    random,
    newId: () => String(++n),
    hasPermission: async () => true,
    loadState: async () => state,
    saveState: async (s) => {
      state = s;
    },
    settings: async () => ({ ...DEFAULT_CONTACTS_SETTINGS, ...settings }),
  });
}

/** The replica's fetch with every answer bounded by `ms` (its hanging sites hang until the client gives up). */
export function boundedFetch(web: WebReplica, ms: number): FetchFn {
  return (url, init) => web.fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(ms)]) : AbortSignal.timeout(ms) });
}
