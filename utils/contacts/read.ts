import type { Listing } from '../domain/listing';
import type { Store } from '../store';
import { countShared } from './shared-values';
import { fromContactRecord, type ContactSite } from './records';
import { countOpenSites, siteUrlOf } from './queue';

/**
 * The contacts pass's read model: what the exports, the popup and the dashboard read of the
 * websites checked (each place's site, the values shared by many unrelated sites, the coverage
 * line). The queue that fills it is queue.ts.
 */

/**
 * The contacts of some places: place key → the record of the website the listing names NOW (a
 * place whose website changed keeps its old site's record in `places`, which says nothing of it
 * any more); absent when that website was never queued.
 */
export async function contactsOf(store: Store, listings: readonly { key: string; website: string | null }[]): Promise<Map<string, ContactSite>> {
  return store.transact(['contactSites'], 'readonly', async (tx) => {
    const sites = tx.objectStore('contactSites');
    const urls = [...new Set(listings.map((l) => siteUrlOf(l.website)).filter((u): u is string => u !== null))];
    const records = new Map<string, ContactSite>();
    await Promise.all(
      urls.map(async (u) => {
        const r = await sites.get(u);
        if (r) records.set(u, fromContactRecord(r));
      }),
    );
    const out = new Map<string, ContactSite>();
    for (const l of listings) {
      const url = siteUrlOf(l.website);
      const site = url ? records.get(url) : undefined;
      if (site) out.set(l.key, site);
    }
    return out;
  });
}

/**
 * The values on many unrelated businesses' sites (shared-values.ts), over every website record,
 * read with a cursor in one transaction: an export computes it once and leaves them out.
 */
export async function sharedContactValues(store: Store): Promise<Set<string>> {
  return store.transact(['contactSites'], 'readonly', async (tx) => {
    const counter = countShared();
    let cursor = await tx.objectStore('contactSites').openCursor();
    while (cursor) {
      counter.add(cursor.value);
      cursor = await cursor.continue();
    }
    return counter.shared();
  });
}

/** Whether any website was ever queued or recorded (an export then reads contacts). */
export async function hasContacts(store: Store): Promise<boolean> {
  return store.transact(['contactSites'], 'readonly', async (tx) => (await tx.objectStore('contactSites').count()) > 0);
}

export interface ContactCoverage {
  /** Places of the collection with a website. */
  withWebsite: number;
  /** Of those, places whose website was checked (read, or left failed with its reason). */
  checked: number;
  /** Of those, places for which an e-mail address was found. */
  withEmail: number;
  /** Websites still to visit (all collections). */
  open: number;
}

/**
 * The pass's coverage of a collection (every place: undefined), for the popup's line; null when
 * no website was ever queued. Counting needs a walk over the collection's listings: a browser
 * that never used the pass (a 100,000-place collection, say) must not pay for it.
 */
/**
 * `keep`: the places the pass is for (the filters of the moment, utils/filters): a place they
 * leave out is neither counted nor waited for, so "checked for N of M" can reach M.
 */
export async function contactCoverage(store: Store, collection?: string, keep?: (l: Listing) => boolean): Promise<ContactCoverage | null> {
  if (!(await hasContacts(store))) return null;
  const open = (await countOpenSites(store)).open;
  return store.transact(['listings', 'contactSites'], 'readonly', async (tx) => {
    const sites = tx.objectStore('contactSites');
    const listings = tx.objectStore('listings');
    const out: ContactCoverage = { withWebsite: 0, checked: 0, withEmail: 0, open };
    let cursor = collection === undefined ? await listings.openCursor() : await listings.index('byCollection').openCursor(collection);
    const lookups: Promise<void>[] = [];
    while (cursor) {
      const url = keep && !keep(cursor.value) ? null : siteUrlOf(cursor.value.website);
      if (url) {
        out.withWebsite++;
        lookups.push(
          sites.get(url).then((site) => {
            if (!site || site.checkedAt === null) return;
            out.checked++;
            if ((site.findings?.emails.length ?? 0) > 0) out.withEmail++;
          }),
        );
      }
      cursor = await cursor.continue();
    }
    await Promise.all(lookups);
    return out;
  });
}
