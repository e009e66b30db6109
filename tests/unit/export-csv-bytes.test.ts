/**
 * The CSV writer was rewritten for speed (issue 14: 100k places ≤ 3 s) without Papa Parse's
 * per-cell work. A file must not change by one byte for it: people's scripts and spreadsheets
 * read these files. The writer as it was (Papa Parse's unparse over listingToRow's object, the
 * regex formula guard) is kept here, and only here, as the reference both are compared against.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { variedListing, variedListings } from '../../scripts/bench/export-listings';
import { CSV_COLUMNS, isoTime, listingToRow, openingHoursText, type ExportRow } from '../../utils/export/columns';
import { csvChunks, csvField, UTF8_BOM } from '../../utils/export/csv';
import { neutraliseCell } from '../../utils/export/csv-safety';
import type { StoredListing } from '../../utils/domain/listing';
import { cidUrl } from '../../utils/providers/google/urls';
import { inBatches, NO_CONTACT_COLUMNS, storedListing } from '../helpers/listings';

// ---- The old implementation (utils/export/{csv,columns,csv-safety}.ts before the rewrite) ----

const OLD_FORMULA_START = /^[=+\-@\t\r]/;
function oldNeutralise(value: string): string {
  return OLD_FORMULA_START.test(value) ? `'${value}` : value;
}

function oldJoined(list: readonly string[] | undefined): string | null {
  return list && list.length > 0 ? list.join('; ') : null;
}

function oldRow(listing: StoredListing): ExportRow {
  const url = /^https?:\/\//i.test(listing.url) ? listing.url : listing.provider === 'google' && listing.cid ? cidUrl(listing.cid) : null;
  const parts = Object.entries(listing.sources ?? {}).map(([field, source]) => `${field}=${source}`);
  return {
    place_id: listing.placeId,
    name: listing.name,
    category: listing.category,
    address: listing.address,
    phone: listing.phone,
    website: listing.website,
    rating: listing.rating,
    reviews: listing.reviews,
    lat: listing.lat,
    lng: listing.lng,
    google_maps_url: listing.provider === 'google' && listing.cid ? cidUrl(listing.cid) : null,
    cid: listing.cid,
    keywords: listing.keywords.join('; '),
    first_seen: new Date(listing.firstSeen).toISOString(),
    last_seen: new Date(listing.lastSeen).toISOString(),
    categories: oldJoined(listing.categories ?? (listing.category ? [listing.category] : [])),
    street: listing.addressParts?.street ?? null,
    district: listing.addressParts?.district ?? null,
    city: listing.addressParts?.city ?? null,
    postal_code: listing.addressParts?.postalCode ?? null,
    region: listing.addressParts?.region ?? null,
    country_code: listing.addressParts?.countryCode ?? null,
    phone_e164: listing.phoneE164 ?? null,
    other_phones: oldJoined(listing.otherPhones),
    hours: listing.hours ?? null,
    // Unchanged by the rewrite, and long: the reference uses the module's own.
    opening_hours: openingHoursText(listing.openingHours),
    price_level: listing.priceLevel ?? null,
    closed: listing.closed ?? null,
    sources: parts.length > 0 ? parts.join('; ') : null,
    provider: listing.provider,
    provider_id: listing.providerId ?? listing.cid,
    url,
    road_address: listing.roadAddress ?? null,
    lot_address: listing.lotAddress ?? null,
    booking_url: listing.bookingUrl ?? null,
    sponsored: listing.sponsored ? 'yes' : null,
    // Issue 23's columns, appended after the rewrite: empty for a place the contacts pass never saw.
    ...NO_CONTACT_COLUMNS,
    // Issue 24's column: a place in no stored business is a business of one, under its own key.
    business_id: `b:${listing.key}`,
    pin_doubted: listing.pinDoubted ? 'yes' : null,
    reviews_collected: null,
    // Issue 38: the rating histogram, empty where the reviews pass read none.
    rating_1: null,
    rating_2: null,
    rating_3: null,
    rating_4: null,
    rating_5: null,
  };
}

async function* oldCsvChunks(batches: AsyncIterable<StoredListing[]>): AsyncGenerator<string> {
  const header = Papa.unparse({ fields: [...CSV_COLUMNS], data: [] }, { newline: '\r\n' });
  yield UTF8_BOM + (header.endsWith('\r\n') ? header : `${header}\r\n`);
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const data = batch.map((listing) => {
      const row = oldRow(listing);
      return CSV_COLUMNS.map((column) => {
        const value = row[column];
        if (value === null) return '';
        return typeof value === 'number' ? value : oldNeutralise(value);
      });
    });
    yield `${Papa.unparse({ fields: [...CSV_COLUMNS], data }, { header: false, newline: '\r\n' })}\r\n`;
  }
}

// ---- The comparison ----

async function text(chunks: AsyncGenerator<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

const bytes = (s: string) => new TextEncoder().encode(s);

/** Batches of uneven sizes, an empty one among them, as the store's reads may give. */
async function* uneven(all: StoredListing[]): AsyncGenerator<StoredListing[]> {
  const sizes = [1, 0, 7, 1000, 3, 250];
  let at = 0;
  for (let i = 0; at < all.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield all.slice(at, at + size);
    at += size;
  }
}

/** Cells the generator cannot reach: records of older code, odd values, edge texts. */
function edgeCases(): StoredListing[] {
  const base = (n: number, over: Partial<StoredListing>) => storedListing(n, over);
  const oldRecord = base(1, {}) as unknown as Record<string, unknown>;
  // A listing stored before the optional and provider-neutral fields existed.
  delete oldRecord.providerId;
  delete oldRecord.placeId;
  const odd = (v: unknown) => v as never;
  return [
    oldRecord as unknown as StoredListing,
    base(2, { name: '', address: ' ', category: '  ', phone: '"', website: ',' }),
    base(3, { name: '"', address: '""', category: '\n', phone: '\r', website: '\uFEFF' }),
    base(4, { name: '=1+1', address: '+', category: '-', phone: '@', website: '\t' }),
    base(5, { name: '\r=cmd', address: "'=already", category: ' =space first', phone: '=', website: '=a,b' }),
    base(6, { rating: -0, reviews: 0, lat: -1.5e-7, lng: 1e21 }),
    base(7, { rating: Number.NaN, reviews: Number.POSITIVE_INFINITY, lat: -90, lng: -180 }),
    base(8, { name: '스타벅스 "광화문", 본점\r\n2층 ', keywords: ['=카페', ' cafe'], category: null, categories: ['-a', 'b,c'] }),
    base(9, { name: odd(true), address: odd(['a', 'b']), category: odd(new Date(Date.UTC(2026, 0, 2))), phone: odd(12345678901234567890n) }),
    base(10, { name: odd(new Date(Number.NaN)), address: odd({ toString: () => '=obj, "x"' }), category: odd(-7) }),
    base(11, { firstSeen: 0, lastSeen: 8.64e15, keywords: [] }),
  ];
}

/**
 * How many generated listings the comparisons use. The generator's patterns repeat with periods
 * of at most 97, so 600 reach every case (the "covers every rule" test checks it); 3,000 made
 * the file take over 5 s on a busy 2-core machine (issue 22) without covering more.
 */
const VARIED = 600;

describe('the CSV writer, byte for byte against the old one', () => {
  it('writes the same bytes for varied listings of all three providers, in uneven batches', async () => {
    const all = [...variedListings(VARIED), ...edgeCases()];
    const expected = await text(oldCsvChunks(uneven(all)));
    const got = await text(csvChunks(uneven(all)));
    // Compared as text first (a readable diff on failure), then as the UTF-8 the file holds.
    expect(got).toBe(expected);
    expect(bytes(got)).toEqual(bytes(expected));
  });

  it('writes the same header for an empty export, with one line break and no empty row', async () => {
    const got = await text(csvChunks(inBatches([], 10)));
    expect(got).toBe(await text(oldCsvChunks(inBatches([], 10))));
    expect(got).toBe(`${UTF8_BOM}${CSV_COLUMNS.join(',')}\r\n`);
  });

  it('the comparison covers every rule: quoting, doubled quotes, formula starts, empty cells, all providers', async () => {
    // If the generator lost its hard cases the byte test above would pass trivially.
    const all = variedListings(VARIED);
    const parsed = Papa.parse<string[]>((await text(csvChunks(inBatches(all, 500)))).slice(1), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.length).toBe(all.length + 1);
    const cells = parsed.data.slice(1).flat();
    const raw = await text(csvChunks(inBatches(all, 500)));
    expect(raw).toContain('""'); // a quote doubled inside a quoted field
    expect(raw).toMatch(/"[^"\r\n]*\n/); // a line break inside a quoted field
    expect(raw).toMatch(/," [^",]*"/); // a leading space quoted
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(cells.some((c) => c.startsWith(`'${start}`))).toBe(true);
    expect(cells.some((c) => /[가-힣]/.test(c))).toBe(true);
    const providers = new Set(parsed.data.slice(1).map((r) => r[CSV_COLUMNS.indexOf('provider')]));
    expect([...providers].sort()).toEqual(['google', 'kakao', 'naver']);
    for (const column of ['road_address', 'booking_url', 'opening_hours', 'sources', 'street']) {
      const i = CSV_COLUMNS.indexOf(column as (typeof CSV_COLUMNS)[number]);
      const values = parsed.data.slice(1).map((r) => r[i]);
      expect(values.some((v) => v === '')).toBe(true);
      expect(values.some((v) => v !== '')).toBe(true);
    }
  });

  it('keeps listingToRow (JSON and GeoJSON read it) equal to the old row, keys in column order', () => {
    for (const listing of [...variedListings(400), ...edgeCases()]) {
      const got = listingToRow(listing);
      const expected = oldRow(listing);
      expect(got).toEqual(expected);
      expect(Object.keys(got)).toEqual(Object.keys(expected));
    }
    // As JSON text too (a BigInt edge case has no JSON form, so the generated ones only).
    for (const listing of variedListings(400)) expect(JSON.stringify(listingToRow(listing))).toBe(JSON.stringify(oldRow(listing)));
  });

  it('neutralises exactly what the old formula guard did', () => {
    const samples = ['', '=', '+1', '-', '@x', '\tx', '\rx', '\nx', ' =x', "'=x", 'x=', '＝full-width', '가', '\uFEFF='];
    for (const s of samples) expect(neutraliseCell(s)).toBe(oldNeutralise(s));
    expect(csvField('-5')).toBe("'-5");
    expect(csvField(-5)).toBe('-5');
    expect(csvField(null)).toBe('');
  });

  it('writes times exactly as Date.toISOString, and throws where it threw', () => {
    const iso = (ms: number) => {
      try {
        return new Date(ms).toISOString();
      } catch {
        return 'throws';
      }
    };
    const ours = (ms: number) => {
      try {
        return isoTime(ms);
      } catch {
        return 'throws';
      }
    };
    // Day, month, leap-year and century edges, the fast range's ends, and what it leaves to Date.
    const edges = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29),
      Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1),
      Date.UTC(2400, 1, 29, 12),
    ];
    const outside = [253_402_300_799_999, 253_402_300_800_000, -1, -86_400_001, 0.5, 1e12 + 0.999, 8.64e15, 8.64e15 + 1, Number.NaN, Number.POSITIVE_INFINITY];
    let seed = 7;
    const random = Array.from({ length: 20_000 }, () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return Math.floor((seed / 2_147_483_647) * 253_402_300_800_000);
    });
    for (const ms of [...edges, ...outside, ...random]) {
      expect(ours(ms)).toBe(iso(ms));
      // Twice in a row too: the remembered last time must not leak into the next.
      expect(ours(ms)).toBe(iso(ms));
    }
  });

  it('a generated listing differs from its neighbour (the fixtures are not one row repeated)', () => {
    expect(variedListing(1)).not.toEqual(variedListing(2));
    expect(new Set(variedListings(48).map((l) => l.name.slice(0, 3))).size).toBeGreaterThan(10);
  });
});
