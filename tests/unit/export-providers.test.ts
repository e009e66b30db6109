/**
 * Issue 11 in the exports: one export mixing Google, Naver and Kakao places (the Browsing
 * collection). Today's columns keep their names and order, the provider-neutral columns come
 * after them, Google-only columns stay empty for the other sites, and the four formats agree.
 */
import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../utils/export/columns';
import { csvChunks } from '../../utils/export/csv';
import { geoJsonChunks } from '../../utils/export/geojson';
import { jsonChunks } from '../../utils/export/json';
import { xlsxBytes } from '../../utils/export/xlsx';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import type { StoredListing } from '../../utils/domain/listing';
import type { ProviderPlace } from '../../utils/domain/place';
import { inBatches, storedListing } from '../helpers/listings';

const OLD_COLUMNS = [
  'place_id',
  'name',
  'category',
  'address',
  'phone',
  'website',
  'rating',
  'reviews',
  'lat',
  'lng',
  'google_maps_url',
  'cid',
  'keywords',
  'first_seen',
  'last_seen',
];
const NEW_COLUMNS = ['provider', 'provider_id', 'url', 'road_address', 'lot_address', 'booking_url', 'sponsored'];
// Issue 23: appended after them, never moving them.
const CONTACT_COLUMNS = [
  'emails',
  'instagram',
  'facebook',
  'x',
  'youtube',
  'tiktok',
  'linkedin',
  'kakao_channel',
  'naver_blog',
  'naver_cafe',
  'naver_smartstore',
  'band',
  'contact_page',
  'contacts_checked_at',
];
const GOOGLE_ONLY = ['place_id', 'google_maps_url', 'cid'];

const stored = { firstSeen: Date.UTC(2026, 10, 1), lastSeen: Date.UTC(2026, 10, 2), collections: ['browsing'], keywords: ['카페'], cells: [] };

function place(over: Partial<ProviderPlace> & Pick<ProviderPlace, 'provider' | 'providerId'>): StoredListing {
  const p: ProviderPlace = {
    key: `${over.provider}:${over.providerId}`,
    name: '카페',
    category: '카페',
    categoryPath: ['음식점', '카페'],
    address: '서울 종로구 세종로 1-1',
    roadAddress: '서울 종로구 세종대로 172',
    phone: '02-1234-5678',
    virtualPhone: null,
    website: null,
    bookingUrl: null,
    rating: 4.5,
    reviews: 321,
    lat: 37.5716,
    lng: 126.9769,
    url: '',
    sponsored: false,
    ...over,
  };
  return { ...listingFromPlace(p, 'page-data'), ...stored };
}

const google = storedListing(1, { name: 'Blue Bottle', keywords: ['cafe'], url: 'https://www.google.com/maps/place/Blue+Bottle/data=!4m2' });
const naver = place({
  provider: 'naver',
  providerId: '1234567890',
  name: '온천집 "본점"',
  url: 'https://map.naver.com/p/entry/place/1234567890',
  virtualPhone: '0507-1234-5678',
  bookingUrl: 'https://booking.naver.com/booking/6/bizes/123456',
  website: 'https://onsen.example/',
});
// Page text that starts like a formula, in the new columns too.
const kakao = place({
  provider: 'kakao',
  providerId: '27338592',
  name: '=HYPERLINK("http://x","click")',
  roadAddress: '=1+2 세종대로',
  address: '+cmd|" /C calc"!A0',
  bookingUrl: '-2+3',
  url: 'https://place.map.kakao.com/27338592',
  phone: null,
  rating: null,
});
const mixed = [google, naver, kakao];

async function csvRows(all: StoredListing[]): Promise<Record<string, string>[]> {
  let text = '';
  for await (const chunk of csvChunks(inBatches(all, 2))) text += chunk;
  return Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
}

async function csvCells(all: StoredListing[]): Promise<string[][]> {
  let text = '';
  for await (const chunk of csvChunks(inBatches(all, 2))) text += chunk;
  return Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
}

async function collect(chunks: AsyncGenerator<string>): Promise<string> {
  let text = '';
  for await (const c of chunks) text += c;
  return text;
}

describe('an export mixing Google, Naver and Kakao places', () => {
  it("keeps today's 15 columns first, then the detail columns, then the provider-neutral ones, then the contacts pass's", () => {
    expect(CSV_COLUMNS.slice(0, 15)).toEqual(OLD_COLUMNS);
    const neutral = CSV_COLUMNS.indexOf('provider');
    expect(CSV_COLUMNS.slice(neutral, neutral + NEW_COLUMNS.length)).toEqual(NEW_COLUMNS);
    expect(CSV_COLUMNS.slice(neutral + NEW_COLUMNS.length)).toEqual([
      ...CONTACT_COLUMNS,
      'business_id',
      'pin_doubted',
      'reviews_collected',
      'rating_1',
      'rating_2',
      'rating_3',
      'rating_4',
      'rating_5',
    ]);
    expect(new Set(CSV_COLUMNS).size).toBe(CSV_COLUMNS.length);
  });

  it('marks the places of sponsored cards (kept by collect-while-browsing) and leaves organic ones unmarked', async () => {
    const [ad, organic] = await csvRows([
      { ...mixed[1]!, sponsored: true },
      { ...mixed[2]!, sponsored: false },
    ]);
    expect(ad!.sponsored).toBe('yes');
    expect(organic!.sponsored).toBe('');
  });

  it('CSV: each place under its own provider and id, Google-only columns empty for the others', async () => {
    const [g, n, k] = await csvRows(mixed);
    expect(g).toMatchObject({
      provider: 'google',
      provider_id: google.cid,
      cid: google.cid,
      place_id: google.placeId,
      google_maps_url: `https://www.google.com/maps?cid=${google.cid}`,
      url: 'https://www.google.com/maps/place/Blue+Bottle/data=!4m2',
      road_address: '',
      lot_address: '',
      booking_url: '',
    });
    expect(n).toMatchObject({
      provider: 'naver',
      provider_id: '1234567890',
      name: '온천집 "본점"',
      url: 'https://map.naver.com/p/entry/place/1234567890',
      address: '서울 종로구 세종대로 172',
      road_address: '서울 종로구 세종대로 172',
      lot_address: '서울 종로구 세종로 1-1',
      booking_url: 'https://booking.naver.com/booking/6/bizes/123456',
      website: 'https://onsen.example/',
      other_phones: '0507-1234-5678',
    });
    expect(k).toMatchObject({ provider: 'kakao', provider_id: '27338592', url: 'https://place.map.kakao.com/27338592' });
    for (const row of [n!, k!]) for (const c of GOOGLE_ONLY) expect(row[c], c).toBe('');
  });

  it('CSV: page text in the new columns is neutralised like every other text cell', async () => {
    const [, , k] = await csvRows(mixed);
    expect(k!.name).toBe(`'=HYPERLINK("http://x","click")`);
    expect(k!.road_address).toBe(`'=1+2 세종대로`);
    expect(k!.lot_address).toBe(`'+cmd|" /C calc"!A0`);
    expect(k!.booking_url).toBe(`'-2+3`);
  });

  it("XLSX: read back with the library's reader, every cell equals the CSV's", async () => {
    const csv = await csvCells(mixed);
    const book = XLSX.read(await xlsxBytes(inBatches(mixed, 2)), { type: 'array', dense: true });
    const sheet = book.Sheets[book.SheetNames[0]!]!;
    const range = XLSX.utils.decode_range(sheet['!ref']!);
    expect(range.e.r + 1).toBe(csv.length);
    expect(range.e.c + 1).toBe(CSV_COLUMNS.length);
    for (let r = 0; r < csv.length; r++) {
      const row = Array.from({ length: CSV_COLUMNS.length }, (_, c) => {
        const cell = sheet['!data']?.[r]?.[c];
        return cell === undefined || cell.v === undefined ? '' : String(cell.v);
      });
      expect(row, `row ${r}`).toEqual(csv[r]);
    }
    // provider_id is an id: text, even when it is all digits.
    expect(sheet['!data']![2]![CSV_COLUMNS.indexOf('provider_id')]).toMatchObject({ t: 's', v: '1234567890' });
  });

  it('JSON: the same columns, text exactly as the page gave it, null where a site has no such field', async () => {
    const records = JSON.parse(await collect(jsonChunks(inBatches(mixed, 2)))) as Record<string, unknown>[];
    expect(records.map((r) => [r.provider, r.provider_id])).toEqual([
      ['google', google.cid],
      ['naver', '1234567890'],
      ['kakao', '27338592'],
    ]);
    for (const r of records) expect(Object.keys(r).sort()).toEqual([...CSV_COLUMNS].sort());
    expect(records[2]).toMatchObject({
      name: '=HYPERLINK("http://x","click")',
      road_address: '=1+2 세종대로',
      cid: null,
      google_maps_url: null,
      place_id: null,
    });
    expect(records[1]).toMatchObject({ booking_url: 'https://booking.naver.com/booking/6/bizes/123456', categories: ['카페', '음식점'] });
  });

  it('GeoJSON: one Point per place, identified by its store key (ids of two sites may coincide)', async () => {
    const twin = place({ provider: 'kakao', providerId: '1234567890', url: 'https://place.map.kakao.com/1234567890' });
    const doc = JSON.parse(await collect(geoJsonChunks(inBatches([...mixed, twin], 2))));
    expect(doc.features.map((f: { id: string }) => f.id)).toEqual([google.key, 'naver:1234567890', 'kakao:27338592', 'kakao:1234567890']);
    expect(doc.features[1].geometry).toEqual({ type: 'Point', coordinates: [126.9769, 37.5716] });
    expect(doc.features[1].properties).toMatchObject({ provider: 'naver', provider_id: '1234567890', lot_address: '서울 종로구 세종로 1-1' });
  });

  it("a place's link is its site's own link (Google: the CID link) when no http(s) URL was stored; a hostile URL is never the url column", async () => {
    const [g, k] = await csvRows([storedListing(2, { url: '' }), { ...kakao, url: 'javascript:alert(1)' }]);
    expect(g!.url).toBe(`https://www.google.com/maps?cid=${storedListing(2).cid}`);
    expect(k!.url).toBe(`https://place.map.kakao.com/${kakao.providerId}`);
  });
});

describe('the CSV text', () => {
  it('has the header on line 1 and the first place on line 2 (no empty row between)', async () => {
    let text = '';
    for await (const chunk of csvChunks(inBatches(mixed, 2))) text += chunk;
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines[1]).toMatch(/^[^,]*,Blue Bottle,/);
    expect(lines.filter((l) => l === '')).toEqual(['']); // only after the last row's newline
  });
});
