/**
 * The contacts pass's columns in the exports (utils/export/columns.ts, build.ts): appended after
 * every other column, filled from the place's website record, formula-safe in CSV, text in XLSX,
 * a list in JSON; the website's numbers join `other_phones` only when they are none of the
 * listing's (compared in E.164); places the pass never saw have empty cells.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { buildExport } from '../../utils/export/build';
import { commitSite, enqueueContacts, leaseSite } from '../../utils/contacts/queue';
import { emptyFindings } from '../../utils/contacts/records';
import { openStore, type Store } from '../../utils/store';
import type { StoredListing } from '../../utils/domain/listing';
import { freshFactory, makeListing } from './store-fixtures';

const NOW = Date.UTC(2026, 11, 3, 9, 0, 0);

function stored(cid: string, over: Partial<StoredListing> = {}): StoredListing {
  return { ...makeListing(cid), firstSeen: 1, lastSeen: 2, collections: ['s1'], keywords: ['cafe'], cells: [], ...over };
}

async function storeWithContacts(): Promise<Store> {
  const store = await openStore({ factory: freshFactory(), name: 'x' });
  await store.transact(['listings'], 'readwrite', async (tx) => {
    await tx
      .objectStore('listings')
      .put(stored('1', { website: 'https://cafe.kr/', provider: 'naver', key: 'naver:1', providerId: '1', cid: null, phone: '02-123-4567' }));
    await tx.objectStore('listings').put(stored('2', { website: null }));
  });
  await enqueueContacts(store, { now: NOW, recheckDays: 30 });
  const site = (await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000 }))!;
  const findings = emptyFindings('read');
  findings.emails.push({ value: 'hello@cafe.kr', page: 'https://cafe.kr/' }, { value: '=cmd@cafe.kr', page: 'https://cafe.kr/contact' });
  findings.socials.instagram = { value: 'https://www.instagram.com/cafe_one', page: 'https://cafe.kr/' };
  findings.socials.kakao_channel = { value: 'https://pf.kakao.com/_abc', page: 'https://cafe.kr/' };
  // The same number as the listing's in another form, and a second one.
  findings.phones.push(
    { value: '+82 2-123-4567', page: 'https://cafe.kr/' },
    { value: '02-987-6543', page: 'https://cafe.kr/contact' },
    { value: '12', page: 'https://cafe.kr/' },
  );
  findings.contactPage = 'https://cafe.kr/contact';
  await commitSite(store, { url: site.url, holder: 'w', now: NOW, findings });
  return store;
}

async function text(parts: BlobPart[]): Promise<string> {
  return new Blob(parts).text();
}

describe('the contacts columns of an export', () => {
  it('CSV: filled from the website, formula-safe, the website number that is new in other_phones, nothing for a place without one', async () => {
    const store = await storeWithContacts();
    const built = await buildExport(store, { collection: 's1', fileWords: ['cafe'] }, 'csv', new Date(NOW));
    const rows = Papa.parse<Record<string, string>>((await text(built.parts)).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    const naver = rows.find((r) => r.provider_id === '1')!;
    expect(naver.emails).toBe('hello@cafe.kr; =cmd@cafe.kr');
    expect(naver.instagram).toBe('https://www.instagram.com/cafe_one');
    expect(naver.kakao_channel).toBe('https://pf.kakao.com/_abc');
    expect(naver.contact_page).toBe('https://cafe.kr/contact');
    expect(naver.contacts_checked_at).toBe('2026-12-03T09:00:00.000Z');
    expect(naver.other_phones).toBe('02-987-6543');
    const none = rows.find((r) => r.provider_id === '2')!;
    expect([none.emails, none.instagram, none.contact_page, none.contacts_checked_at]).toEqual(['', '', '', '']);
  });

  it('a cell that starts with = is neutralised in the CSV', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'y' });
    await store.transact(['listings'], 'readwrite', (tx) => tx.objectStore('listings').put(stored('3', { website: 'https://x.kr/' })));
    await enqueueContacts(store, { now: NOW, recheckDays: 30 });
    const site = (await leaseSite(store, { holder: 'w', now: NOW, leaseMs: 1000 }))!;
    const findings = emptyFindings('read');
    findings.emails.push({ value: '=HYPERLINK("x")@x.kr', page: 'https://x.kr/' });
    await commitSite(store, { url: site.url, holder: 'w', now: NOW, findings });
    const csv = await text((await buildExport(store, { collection: 's1', fileWords: ['x'] }, 'csv', new Date(NOW))).parts);
    expect(csv).toContain(`"'=HYPERLINK(""x"")@x.kr"`);
  });

  it('JSON: e-mails as a list; XLSX: every contacts column a text cell', async () => {
    const store = await storeWithContacts();
    const json = JSON.parse(await text((await buildExport(store, { collection: 's1', fileWords: ['cafe'] }, 'json', new Date(NOW))).parts)) as Record<
      string,
      unknown
    >[];
    expect(json.find((r) => r.provider_id === '1')!.emails).toEqual(['hello@cafe.kr', '=cmd@cafe.kr']);
    const XLSX = await import('@e965/xlsx');
    const bytes = await new Blob((await buildExport(store, { collection: 's1', fileWords: ['cafe'] }, 'xlsx', new Date(NOW))).parts).arrayBuffer();
    const sheet = XLSX.read(bytes, { type: 'array', cellNF: true }).Sheets.places!;
    const header = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })[0]!;
    for (const column of ['emails', 'instagram', 'contact_page']) {
      const c = header.indexOf(column);
      const cell = Object.entries(sheet).find(
        ([addr, v]) => /^[A-Z]+2$|^[A-Z]+3$/.test(addr) && XLSX.utils.decode_cell(addr).c === c && (v as { v?: unknown }).v,
      )?.[1] as { t: string; z?: string };
      expect([column, cell.t, cell.z]).toEqual([column, 's', '@']);
    }
  });
});
