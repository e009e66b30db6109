/**
 * Phones in E.164 for every provider (utils/listing/phone.ts, issue 25): read by libphonenumber-js
 * where every reading is stored (mergeListing), in the region the provider declares, the site's
 * own E.164 kept, nothing for what is not a valid number. The Naver and Kakao cases are the real
 * captures in ../shared/real-pages/, read by the sites' own readers.
 */
import { describe, expect, it } from 'vitest';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import { phoneToE164, withPhoneE164 } from '../../utils/listing/phone';
import type { Listing } from '../../utils/domain/listing';
import { parseRestKeywordAnswer } from '../../utils/providers/kakao/rest';
import { parseAllSearch } from '../../utils/providers/naver/allsearch';
import { PROVIDERS } from '../../utils/providers/registry';
import { mergeListing } from '../../utils/store/listing-merge';
import { readRealPage, realPagesIt } from '../helpers/real-pages';
import { makeListing } from './store-fixtures';
const realIt = realPagesIt('listing-phone.test.ts');

describe('phoneToE164', () => {
  it.each([
    ['02-123-4567', '+8221234567'],
    ['02-1234-5678', '+82212345678'],
    ['031-123-4567', '+82311234567'],
    ['010-1234-5678', '+821012345678'],
    // Naver's virtual numbers (안심번호) and 070 internet lines.
    ['0507-1334-5170', '+8250713345170'],
    ['070-1234-5678', '+827012345678'],
    // Service numbers: libphonenumber's metadata has them as valid (UAN), dialled as +82 1588 1234.
    ['1588-1234', '+8215881234'],
    ['1668-2506', '+8216682506'],
  ])('reads the Korean %s as %s', (phone, e164) => {
    expect(phoneToE164(phone, 'KR')).toBe(e164);
  });

  it('reads an international form in any region or none', () => {
    expect(phoneToE164('+30 21 0261 6578')).toBe('+302102616578');
    expect(phoneToE164('+30 21 0261 6578', 'KR')).toBe('+302102616578');
  });

  it('gives nothing for a national form without a region, or for what is no valid number', () => {
    expect(phoneToE164('02-123-4567')).toBeNull();
    for (const phone of ['1234', '02-12', '0000-0000', '전화 없음', '']) expect(phoneToE164(phone, 'KR'), phone).toBeNull();
  });
});

describe("what the 'min' metadata calls valid", () => {
  // Leading digits and length only, not the ranges Korea assigns: a switch to 'max' makes both null.
  it.each([
    ['1234-5678', '+8212345678'],
    ['02-0000-0000', '+82200000000'],
  ])('a Korean %s that no one has still reads as %s', (phone, e164) => {
    expect(phoneToE164(phone, 'KR')).toBe(e164);
  });
});

describe('withPhoneE164', () => {
  const listing = (over: Partial<Listing>): Listing => makeListing('1', { phone: '02-123-4567', ...over });

  it('keeps the E.164 form the site gave, even when the display reads otherwise', () => {
    const l = listing({ phoneE164: '+82299999999' });
    expect(withPhoneE164(l, 'KR')).toBe(l);
  });

  it('reads a national number in the country of the place address when the provider names none', () => {
    const l = listing({
      phone: '01 23 45 67 89',
      addressParts: { street: null, district: null, city: 'Paris', postalCode: '75001', region: null, countryCode: 'FR' },
    });
    expect(withPhoneE164(l).phoneE164).toBe('+33123456789');
    expect(withPhoneE164(listing({})).phoneE164 ?? null).toBeNull();
  });

  it('does not read a phone the bounds cut', () => {
    expect(withPhoneE164(listing({ cut: ['phone'] }), 'KR').phoneE164 ?? null).toBeNull();
    expect(withPhoneE164(listing({}), 'KR').phoneE164).toBe('+8221234567');
  });
});

/** A reading as the store keeps it: the one gate every reading of every site goes through. */
const stored = (l: Listing) => mergeListing(undefined, l, { now: 1, collection: 's1', keyword: 'k', cellId: null });

describe('Naver and Kakao listings are stored with E.164 (real captures)', () => {
  it('every provider but the worldwide one declares its phone region', () => {
    expect(Object.fromEntries(PROVIDERS.map((p) => [p.id, p.phoneRegion ?? null]))).toEqual({ google: null, naver: 'KR', kakao: 'KR' });
  });

  realIt('Naver allSearch, "근처 쌀국수" near Yongsan: the virtual number and a 1668 number', () => {
    const answer = parseAllSearch(JSON.parse(readRealPage('naver', 'naver_allsearch_place_ssalguksu-near-yongsan_ko_2026-02-15.json')));
    const listings = answer.places.map((p) => stored(listingFromPlace(p, 'page-data')));
    const byId = (id: string) => listings.find((l) => l.providerId === id)!;
    expect(byId('1178829266')).toMatchObject({ phone: '0507-1334-5170', phoneE164: '+8250713345170', sources: { phoneE164: 'page-data' } });
    expect(byId('1483637902')).toMatchObject({ phone: '1668-2506', phoneE164: '+8216682506' });
    expect(byId('1962777476').phoneE164 ?? null).toBeNull();
    for (const l of listings.filter((x) => x.phone)) expect(l.phoneE164, l.phone!).toMatch(/^\+82\d{8,11}$/);
  });

  realIt('Kakao REST keyword answer, Seoul tourist sights: a Seoul landline and a 1661 number', () => {
    const page = parseRestKeywordAnswer(JSON.parse(readRealPage('kakao', 'kakao_local_v2_search_keyword_seoul_AT4_ko_2023-05.json')))!;
    const listings = page.places.map((p) => stored(listingFromPlace(p, 'card')));
    expect(listings[0]).toMatchObject({ key: 'kakao:8252248', phone: '02-749-4500', phoneE164: '+8227494500' });
    expect(listings.find((l) => l.providerId === '680691609')).toMatchObject({ phone: '1661-2000', phoneE164: '+8216612000' });
    expect(listings[1]!.phoneE164 ?? null).toBeNull();
    for (const l of listings.filter((x) => x.phone)) expect(l.phoneE164, l.phone!).toMatch(/^\+82\d{8,11}$/);
  });
});

describe('a Google reading', () => {
  it('is stored with the E.164 of an international number, or of a national one in its address country', () => {
    expect(stored(makeListing('7', { phone: '+30 21 0261 6578' })).phoneE164).toBe('+302102616578');
    const inGreece = makeListing('8', {
      phone: '21 0261 6578',
      addressParts: { street: null, district: null, city: 'Athens', postalCode: null, region: null, countryCode: 'GR' },
    });
    expect(stored(inGreece).phoneE164).toBe('+302102616578');
    expect(stored(makeListing('9', { phone: '21 0261 6578' })).phoneE164 ?? null).toBeNull();
  });
});
