/**
 * Issue 16 in the exports: `address` is the full address, and the page data's fields are
 * columns appended after the old ones, the same in CSV, JSON and GeoJSON.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { StoredListing } from '../../utils/domain/listing';
import { CSV_COLUMNS, openingHoursText } from '../../utils/export/columns';
import { csvChunks } from '../../utils/export/csv';
import { listingToFeature } from '../../utils/export/geojson';
import { listingToRecord } from '../../utils/export/json';
import { DREAM_COFFEE_CARD } from '../helpers/dream-coffee';

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

const dream: StoredListing = {
  ...DREAM_COFFEE_CARD,
  categories: ['Coffee shop', 'Cafe'],
  addressParts: { street: 'Eakou 74', district: null, city: 'Ilion', postalCode: '131 22', region: null, countryCode: 'GR' },
  phoneE164: '+302102616578',
  hours: 'Monday: 7 AM–8:30 PM; Sunday: Closed',
  openingHours: [
    { day: 1, dayName: 'Monday', text: '7 AM–8:30 PM', intervals: [{ open: '07:00', close: '20:30' }] },
    { day: 7, dayName: 'Sunday', text: 'Closed', intervals: [] },
  ],
  priceLevel: '€€',
  closed: null,
  sources: { address: 'page-data', phone: 'page-data', rating: 'card' },
  firstSeen: Date.UTC(2026, 11, 1),
  lastSeen: Date.UTC(2026, 11, 2),
  collections: ['s'],
  keywords: ['coffee'],
  cells: [],
};

async function csvText(listings: StoredListing[]): Promise<string> {
  let text = '';
  for await (const chunk of csvChunks(
    (async function* () {
      yield listings;
    })(),
  ))
    text += chunk;
  return text;
}

describe('export columns for page data', () => {
  it('appends the new columns after the old ones, in a fixed order', () => {
    expect(CSV_COLUMNS.slice(0, OLD_COLUMNS.length)).toEqual(OLD_COLUMNS);
    expect(CSV_COLUMNS.slice(OLD_COLUMNS.length)).toEqual([
      'categories',
      'street',
      'district',
      'city',
      'postal_code',
      'region',
      'country_code',
      'phone_e164',
      'other_phones',
      'hours',
      'opening_hours',
      'price_level',
      'closed',
      'sources',
      // Issue 11 (tests/unit/export-providers.test.ts).
      'provider',
      'provider_id',
      'url',
      'road_address',
      'lot_address',
      'booking_url',
      // Issue 14: sponsored places kept by collect-while-browsing are marked.
      'sponsored',
      // Issue 23: the contacts pass (tests/unit/contacts-export.test.ts).
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
      // Issue 24: the business the place belongs to (tests/unit/match-store.test.ts).
      'business_id',
      'pin_doubted',
      // Issue 38: the reviews stored for the place (tests/unit/export-reviews.test.ts).
      'reviews_collected',
      // Issue 38: the rating histogram (tests/unit/export-reviews-distribution.test.ts).
      'rating_1',
      'rating_2',
      'rating_3',
      'rating_4',
      'rating_5',
    ]);
  });

  it('CSV: the full address, the parts, E.164, hours as text and in opening_hours syntax', async () => {
    const rows = Papa.parse<Record<string, string>>((await csvText([dream])).slice(1), { header: true, skipEmptyLines: true }).data;
    expect(rows[0]).toMatchObject({
      address: 'Eakou 74, Ilion 131 22, Greece',
      categories: 'Coffee shop; Cafe',
      street: 'Eakou 74',
      city: 'Ilion',
      postal_code: '131 22',
      country_code: 'GR',
      phone_e164: "'+302102616578",
      hours: 'Monday: 7 AM–8:30 PM; Sunday: Closed',
      opening_hours: 'Mo 07:00-20:30; Su off; Tu,We,Th,Fr,Sa unknown',
      price_level: '€€',
      closed: '',
      sources: 'address=page-data; phone=page-data; rating=card',
    });
  });

  it('JSON and GeoJSON keep lists and the structured week as such', () => {
    const record = listingToRecord(dream);
    expect(record).toMatchObject({ categories: ['Coffee shop', 'Cafe'], other_phones: [], opening_hours: dream.openingHours, phone_e164: '+302102616578' });
    expect(listingToFeature(dream).properties).toEqual(record);
  });

  it('a week without times gives no opening_hours rather than a guess', () => {
    expect(openingHoursText([{ day: 1, dayName: 'Monday', text: 'Hours vary', intervals: [] }])).toBeNull();
    expect(openingHoursText(null)).toBeNull();
  });
});
