/**
 * Issue 11 in the store: a listing's identity is `{provider}:{providerId}` for every site, the
 * store refuses one whose key does not follow from its id, merges keep the id and the Korean
 * sites' fields by the usual "more complete wins" rule, and (issue 14) collect while browsing
 * keeps sponsored places, flagged, while sweeps keep leaving them out.
 */
import { describe, expect, it } from 'vitest';
import { auditProblem } from '../../utils/domain/audit-page';
import type { PageAudit } from '../../utils/domain/page-audit';
import { listingFromPlace } from '../../utils/listing/from-provider-place';
import { mergeListingFields } from '../../utils/listing/merge-fields';
import type { Listing } from '../../utils/domain/listing';
import type { ProviderPlace } from '../../utils/domain/place';
import { leaseNextCell } from '../../utils/queue';
import { openStore } from '../../utils/store';
import { listingProblem, listingsByKey, organicByKey } from '../../utils/store/listing-merge';
import { freshFactory, makeCells, makeListing, makeSweep, RESULT } from './store-fixtures';

function naverPlace(id: string, over: Partial<ProviderPlace> = {}): Listing {
  return listingFromPlace(
    {
      provider: 'naver',
      providerId: id,
      key: `naver:${id}`,
      name: '한옥카페',
      category: '카페',
      categoryPath: ['카페'],
      address: '서울 종로구 계동 1',
      roadAddress: '서울 종로구 계동길 1',
      phone: '02-765-4321',
      virtualPhone: null,
      website: null,
      bookingUrl: null,
      rating: 4.6,
      reviews: 88,
      lat: 37.58,
      lng: 126.98,
      url: `https://map.naver.com/p/entry/place/${id}`,
      sponsored: false,
      ...over,
    },
    'card',
  );
}

const kakao = (id: string, over: Partial<Listing> = {}): Listing => ({
  ...naverPlace(id),
  key: `kakao:${id}`,
  provider: 'kakao',
  providerId: id,
  url: `https://place.map.kakao.com/${id}`,
  ...over,
});

describe('listingProblem: identity by provider', () => {
  it('accepts Google (key from the CID, providerId = CID), Naver and Kakao (key from the id, no CID)', () => {
    expect(listingProblem(makeListing('18446744073709551615'))).toBeNull();
    expect(listingProblem(naverPlace('1234567890'))).toBeNull();
    expect(listingProblem(kakao('27338592'))).toBeNull();
  });

  it.each<[string, Record<string, unknown>]>([
    ['a Google place whose providerId is not its CID', { ...makeListing('10'), providerId: '11' }],
    ['a Google place without providerId', { ...makeListing('10'), providerId: undefined }],
    ['a Google place without a CID', { ...makeListing('10'), cid: null }],
    ['a Naver place with a CID', { ...naverPlace('5'), cid: '5' }],
    ['a Naver key that is not naver:{id}', { ...naverPlace('5'), key: 'naver:6' }],
    ['a Naver key under another provider', { ...naverPlace('5'), key: 'kakao:5' }],
    ['a Kakao id that is not digits', kakao('12a', { key: 'kakao:12a' })],
    ['a Kakao id too long', kakao('1'.repeat(21), { key: `kakao:${'1'.repeat(21)}` })],
    ['an empty Naver id', { ...naverPlace('5'), providerId: '', key: 'naver:' }],
    ['an unknown provider', { ...naverPlace('5'), provider: 'bing', key: 'bing:5' }],
    ['a road address that is not text', { ...naverPlace('5'), roadAddress: 5 }],
    ['a booking URL that is not text', { ...naverPlace('5'), bookingUrl: { href: 'x' } }],
  ])('refuses %s', (_, listing) => {
    expect(listingProblem(listing)).not.toBeNull();
  });
});

describe('the page audit names places of any provider', () => {
  const audit = (firstKeys: string[]): PageAudit =>
    ({
      pageKind: 'results',
      verdict: 'ok',
      cardsVisible: 3,
      extracted: 3,
      sponsored: 0,
      networkItems: null,
      networkMatched: null,
      networkShortfall: false,
      firstKeys,
    }) as PageAudit;

  it('accepts google, naver and kakao keys, and refuses anything else', () => {
    expect(auditProblem(audit(['google:1', 'naver:1234567890', 'kakao:27338592']))).toBeNull();
    expect(auditProblem(audit(['bing:1']))).toMatch(/place keys/);
    expect(auditProblem(audit(['naver:12a']))).toMatch(/place keys/);
    expect(auditProblem(audit(['naver:<img src=x>']))).toMatch(/place keys/);
  });
});

describe("mergeListingFields: identity and the Korean sites' fields", () => {
  it('keeps the stored providerId and cid', () => {
    const merged = mergeListingFields(makeListing('10'), makeListing('10'));
    expect([merged.provider, merged.providerId, merged.cid]).toEqual(['google', '10', '10']);
    const korean = mergeListingFields(naverPlace('77'), naverPlace('77', { name: '한옥카페 본점' }));
    expect([korean.key, korean.provider, korean.providerId, korean.cid]).toEqual(['naver:77', 'naver', '77', null]);
  });

  it('a fuller road or lot address is never replaced by a shorter later one; a null never erases; booking links fill in', () => {
    const full = naverPlace('77', {
      roadAddress: '서울 종로구 계동길 1 한옥빌딩 2층',
      address: '서울 종로구 계동 1-5',
      bookingUrl: 'https://booking.naver.com/booking/6/bizes/1',
    });
    const short = naverPlace('77', { roadAddress: '계동길 1', address: null, bookingUrl: null });
    const merged = mergeListingFields(full, short);
    expect(merged).toMatchObject({
      roadAddress: '서울 종로구 계동길 1 한옥빌딩 2층',
      lotAddress: '서울 종로구 계동 1-5',
      bookingUrl: 'https://booking.naver.com/booking/6/bizes/1',
    });
    // And the other way round: the fuller one, arriving later, wins.
    expect(mergeListingFields(short, full)).toMatchObject({ roadAddress: '서울 종로구 계동길 1 한옥빌딩 2층', lotAddress: '서울 종로구 계동 1-5' });
    expect(merged.sources).toMatchObject({ roadAddress: 'card', bookingUrl: 'card' });
  });

  it('a different address (the place moved) is the newer reading', () => {
    const moved = mergeListingFields(naverPlace('77', { roadAddress: '서울 종로구 계동길 1' }), naverPlace('77', { roadAddress: '서울 중구 세종대로 9' }));
    expect(moved.roadAddress).toBe('서울 중구 세종대로 9');
  });

  it('leaves Google listings without the Korean fields as they were shaped', () => {
    const merged = mergeListingFields(makeListing('10'), makeListing('10', { phone: '+33 1' }));
    expect('roadAddress' in merged || 'lotAddress' in merged || 'bookingUrl' in merged).toBe(false);
  });
});

describe('sponsored places (issue 14)', () => {
  const ad = (cid: string, over: Partial<Listing> = {}) => makeListing(cid, { sponsored: true, website: 'https://shop.example/?gclid=ad', ...over });

  it('merge: sponsored only while every reading was an ad; an ad never turns an organic place sponsored', () => {
    expect(mergeListingFields(undefined, ad('1')).sponsored).toBe(true);
    expect(mergeListingFields(ad('1'), ad('1')).sponsored).toBe(true);
    expect(mergeListingFields(ad('1'), makeListing('1')).sponsored).toBe(false);
    expect(mergeListingFields(makeListing('1'), ad('1')).sponsored).toBe(false);
  });

  it("merge: an ad's link never replaces the website an organic reading gave", () => {
    const organic = makeListing('1', { website: 'https://shop.example/' });
    expect(mergeListingFields(organic, ad('1')).website).toBe('https://shop.example/');
    // With nothing better known, the ad's (already unwrapped) link is what there is.
    expect(mergeListingFields(makeListing('1', { website: null }), ad('1')).website).toBe('https://shop.example/?gclid=ad');
  });

  it('a batch: browsing keeps ads flagged, folded with an organic copy of the same place; sweeps drop them', () => {
    const batch = [ad('1'), ad('2'), makeListing('1', { website: 'https://one.example/' }), kakao('3', { sponsored: true })];
    const kept = listingsByKey(batch);
    expect(kept.map((l) => [l.key, l.sponsored])).toEqual([
      ['google:1', false],
      ['google:2', true],
      ['kakao:3', true],
    ]);
    expect(kept[0]!.website).toBe('https://one.example/');
    expect(organicByKey(batch).map((l) => l.key)).toEqual(['google:1']);
  });

  it('the store: Browsing keeps an ad flagged, a later organic sighting clears it, a later ad does not set it, a sweep stores no ads', async () => {
    const store = await openStore({ factory: freshFactory(), name: 'ads' });
    expect(await store.commitBrowsing([ad('1'), makeListing('2'), ad('7'), naverPlace('9', { sponsored: true })], 10)).toEqual({ added: 4, seen: 0 });
    expect(await store.getListing('google:1')).toMatchObject({ sponsored: true, collections: ['browsing'] });
    expect(await store.getListing('naver:9')).toMatchObject({ sponsored: true, provider: 'naver', providerId: '9', cid: null });

    await store.commitBrowsing([ad('2'), makeListing('1')], 20);
    expect((await store.getListing('google:1'))!.sponsored).toBe(false);
    expect((await store.getListing('google:2'))!.sponsored).toBe(false);

    // A sweep: its cell's ads are left out; an organic result clears a browsing ad's flag.
    await store.createSweep(makeSweep('s1'), makeCells('s1', 1));
    const cell = (await leaseNextCell(store, { sweepId: 's1', holder: 'tab:1', now: 30, leaseMs: 60_000 }))!;
    await store.commitCell({
      sweepId: 's1',
      cellId: cell.id,
      holder: 'tab:1',
      now: 30,
      keyword: cell.keyword,
      listings: [ad('5'), makeListing('7')],
      outcome: { status: 'done', result: RESULT },
    });
    expect(await store.getListing('google:5')).toBeUndefined();
    expect(await store.countListings('s1')).toBe(1);
    expect(await store.getListing('google:7')).toMatchObject({ sponsored: false, collections: ['browsing', 's1'] });
    expect(await store.getListing('naver:9')).toMatchObject({ sponsored: true });
    store.close();
  });
});
