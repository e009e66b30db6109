import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../utils/export/columns';
import { jsonChunks } from '../../utils/export/json';
import type { StoredListing } from '../../utils/domain/listing';
import { NO_CONTACT_COLUMNS, storedListing } from '../helpers/listings';

const listing = (n: number, over: Partial<StoredListing> = {}): StoredListing =>
  storedListing(n, {
    phone: '+82 2-123-4567',
    website: 'https://example.com/',
    lat: 37.5 + n / 1000,
    lng: 127.0 + n / 1000,
    firstSeen: Date.UTC(2026, 10, 1, 9, n % 60),
    lastSeen: Date.UTC(2026, 10, 2, 18, n % 60),
    ...over,
  });

async function* batches(all: StoredListing[], size: number) {
  for (let i = 0; i < all.length; i += size) {
    yield all.slice(i, i + size);
    yield []; // an empty batch (a collection filter can give one) must not leave a stray comma
  }
}

async function exportText(all: StoredListing[], size: number): Promise<{ text: string; chunks: number }> {
  let text = '';
  let chunks = 0;
  for await (const chunk of jsonChunks(batches(all, size))) {
    text += chunk;
    chunks += 1;
  }
  return { text, chunks };
}

/** Text a page could show that breaks naive serialisers or looks like a spreadsheet formula. */
const HOSTILE = [
  'Quote " and \\ backslash',
  'line\nbreak\r\ntab\t',
  '</script><img src=x onerror=alert(1)>',
  '스타벅스 광화문점',
  'emoji ☕🍰',
  'lone \uD800 surrogate',
  '=HYPERLINK("http://evil")',
  'line\u2028separator',
];

describe('JSON export', () => {
  it('round-trips every field of every place exactly, hostile text included', async () => {
    const all = [
      ...HOSTILE.map((name, i) => listing(i + 1, { name, address: name, category: name, keywords: [name, 'cafe'] })),
      listing(20, { phone: null, website: null, rating: null, reviews: null, lat: null, lng: null, category: null, address: null, placeId: null }),
    ];
    const { text } = await exportText(all, 3);
    const parsed = JSON.parse(text) as Record<string, unknown>[];
    expect(parsed).toHaveLength(all.length);
    parsed.forEach((record, i) => {
      const l = all[i]!;
      expect(Object.keys(record).sort()).toEqual([...CSV_COLUMNS].sort());
      expect(record).toEqual({
        place_id: l.placeId,
        name: l.name,
        category: l.category,
        address: l.address,
        phone: l.phone,
        website: l.website,
        rating: l.rating,
        reviews: l.reviews,
        lat: l.lat,
        lng: l.lng,
        google_maps_url: `https://www.google.com/maps?cid=${l.cid}`,
        cid: l.cid,
        keywords: l.keywords,
        first_seen: new Date(l.firstSeen).toISOString(),
        last_seen: new Date(l.lastSeen).toISOString(),
        // Issue 16's columns: these listings have no page data, so only the card's category.
        categories: l.category ? [l.category] : [],
        street: null,
        district: null,
        city: null,
        postal_code: null,
        region: null,
        country_code: null,
        phone_e164: null,
        other_phones: [],
        hours: null,
        opening_hours: null,
        price_level: null,
        closed: null,
        sources: null,
        // Issue 11's columns: Google places, stored without a URL of their own.
        provider: 'google',
        provider_id: l.cid,
        url: `https://www.google.com/maps?cid=${l.cid}`,
        road_address: null,
        lot_address: null,
        booking_url: null,
        sponsored: null,
        // Issue 23's columns: no contacts pass here; e-mails a list, as keywords are.
        ...NO_CONTACT_COLUMNS,
        emails: [],
        // Issue 24: no linking run here, so each place is a business of one.
        business_id: `b:${l.key}`,
        pin_doubted: null,
        reviews_collected: null,
        // Issue 38: the rating histogram, empty where the reviews pass read none.
        rating_1: null,
        rating_2: null,
        rating_3: null,
        rating_4: null,
        rating_5: null,
      });
      expect(Date.parse(record.first_seen as string)).toBe(l.firstSeen);
    });
    // Not a spreadsheet: the formula text comes back untouched, without CSV's quote prefix.
    expect(parsed.some((r) => r.name === '=HYPERLINK("http://evil")')).toBe(true);
  });

  it('gives the same document whatever the batch size, one chunk per non-empty batch', async () => {
    const all = Array.from({ length: 23 }, (_, i) => listing(i + 1));
    const whole = JSON.parse((await exportText(all, all.length)).text);
    for (const size of [1, 2, 5, 22]) {
      const { text, chunks } = await exportText(all, size);
      expect(JSON.parse(text)).toEqual(whole);
      expect(chunks).toBe(Math.ceil(all.length / size) + 2);
    }
    expect(whole.map((r: { cid: string }) => r.cid)).toEqual(all.map((l) => l.cid));
  });

  it('exports an empty collection as an empty array', async () => {
    expect(JSON.parse((await exportText([], 10)).text)).toEqual([]);
  });
});
