/**
 * A site builder's or agency's contacts on many businesses' sites are nobody's own (issue 36):
 * learnt across the pass (utils/contacts/shared-values.ts), left out of the exports, and the
 * business's own profile takes the place of the builder's.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { buildExport } from '../../utils/export/build';
import { commitSite, enqueueContacts, leaseSite } from '../../utils/contacts/queue';
import { emptyFindings, type ContactFindings } from '../../utils/contacts/records';
import { SHARED_BY_SITES, sharedValues, withoutShared } from '../../utils/contacts/shared-values';
import { isBuilderDomain } from '../../utils/contacts/builders';
import { normaliseEmail } from '../../utils/contacts/emails';
import { openStore } from '../../utils/store';
import { placeWithWebsite } from '../helpers/contacts-run';
import { freshFactory } from './store-fixtures';

const NOW = Date.UTC(2026, 11, 5, 9, 0, 0);
const BUILDER_MAIL = 'webmaster@sitebuilder.co.kr';
const BUILDER_INSTA = 'https://www.instagram.com/sitebuilder_official';

/** A business's site built on one builder: the builder's address and Instagram in its footer, after (or before) its own. */
function builtSite(host: string, builderFirst: boolean): ContactFindings {
  const f = emptyFindings('read');
  const page = `https://${host}/`;
  f.emails.push({ value: `info@${host}`, page }, { value: BUILDER_MAIL, page });
  const own = { value: `https://www.instagram.com/${host.split('.')[0]}`, page };
  const builder = { value: BUILDER_INSTA, page };
  f.socials.instagram = builderFirst ? builder : own;
  f.otherSocials = [{ network: 'instagram', ...(builderFirst ? own : builder) }];
  return f;
}

describe('values on many unrelated businesses’ sites', () => {
  it(`are nobody's own from ${SHARED_BY_SITES} owners on; the business's own profile takes the builder's place`, () => {
    const hosts = ['cafe-a.kr', 'bakery-b.co.kr', 'clinic-c.com'];
    const sites = hosts.map((h, i) => ({ url: `https://${h}/`, findings: builtSite(h, i === 0) }));
    expect(sharedValues(sites.slice(0, 2)).size).toBe(0);
    const shared = sharedValues(sites);
    const first = withoutShared(sites[0]!.findings, shared);
    expect(first.emails.map((e) => e.value)).toEqual(['info@cafe-a.kr']);
    expect(first.socials.instagram?.value).toBe('https://www.instagram.com/cafe-a');
    expect(first.otherSocials).toEqual([]);
  });

  it('a franchise’s address on its own domain and its branches’ sites counts once per owner; two sites of one owner are one', () => {
    const brand = (host: string) => {
      const f = emptyFindings('read');
      f.emails.push({ value: 'info@brand.kr', page: `https://${host}/` });
      return { url: `https://${host}/`, findings: f };
    };
    // brand.kr itself does not count (its own domain); shop.brand.kr is the same owner.
    expect(sharedValues([brand('brand.kr'), brand('shop.brand.kr'), brand('branch-one.kr')]).size).toBe(0);
    expect(sharedValues([brand('branch-one.kr'), brand('branch-two.kr'), brand('branch-three.co.kr')]).size).toBe(1);
  });

  it('one business on three suffixes is one owner; an IDN site owns its IDN address; customers of one builder are each their own (the second review)', () => {
    const site = (host: string, email: string) => {
      const f = emptyFindings('read');
      f.emails.push({ value: email, page: `https://${host}/` });
      return { url: `https://${host}/`, findings: f };
    };
    expect(
      sharedValues([site('cafeharu.kr', 'cafeharu@gmail.com'), site('cafeharu.com', 'cafeharu@gmail.com'), site('cafeharu.co.kr', 'cafeharu@gmail.com')]).size,
    ).toBe(0);
    expect(
      sharedValues([site('카페하루.한국', 'info@카페하루.한국'), site('branch-a.kr', 'info@카페하루.한국'), site('branch-b.kr', 'info@카페하루.한국')]).size,
    ).toBe(0);
    expect(sharedValues([site('a.imweb.me', 'studio@agency.kr'), site('b.imweb.me', 'studio@agency.kr'), site('c.imweb.me', 'studio@agency.kr')]).size).toBe(1);
  });

  it('known builders and hosts are refused at once, whatever the pass has seen (builders.ts)', () => {
    for (const d of ['wixpress.com', 'mail.cafe24.com', 'imweb.me', 'godo.co.kr', 'sixshop.com', 'o1.ingest.sentry.io'])
      expect(isBuilderDomain(d), d).toBe(true);
    expect(isBuilderDomain('cafe24-coffee.kr')).toBe(false);
    expect(normaliseEmail('help@imweb.me')).toBeNull();
  });

  it('the export leaves them out', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'shared' });
    const hosts = ['cafe-a.kr', 'bakery-b.co.kr', 'clinic-c.com', 'shop-d.kr'];
    await store.transact(['listings'], 'readwrite', async (tx) => {
      for (const [i, h] of hosts.entries()) await tx.objectStore('listings').put(placeWithWebsite(String(i + 1), `https://${h}/`));
    });
    await enqueueContacts(store, { now: NOW, recheckDays: 30 });
    for (let i = 0; i < hosts.length; i++) {
      const site = (await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000 }))!;
      const host = new URL(site.url).hostname;
      await commitSite(store, { url: site.url, holder: 'w', now: NOW, findings: builtSite(host, true) });
    }
    const built = await buildExport(store, { collection: 's1', fileWords: ['cafe'] }, 'csv', new Date(NOW));
    const text = (await new Blob(built.parts).text()).replace(/^\uFEFF/, '');
    const rows = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
    expect(rows).toHaveLength(4);
    for (const r of rows) {
      const host = new URL(r.website!).hostname;
      expect(r.emails).toBe(`info@${host}`);
      expect(r.instagram).toBe(`https://www.instagram.com/${host.split('.')[0]}`);
    }
  });
});
