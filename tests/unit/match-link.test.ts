import { describe, expect, it } from 'vitest';
import { linkBusinesses } from '../../utils/match/link';
import { assignSitePair, pairId } from '../../utils/match/assign';
import type { MatchPlace } from '../../utils/match/types';
import type { ProviderId } from '../../utils/domain/place';
import { phoneToE164 } from '../../utils/listing/phone';

const SITES: ProviderId[] = ['google', 'naver', 'kakao'];
const BASE = { lat: 37.5665, lng: 126.978 };
/** A point `north` and `east` metres from BASE. */
const at = (north: number, east: number) => ({ lat: BASE.lat + north / 111_320, lng: BASE.lng + east / (111_320 * Math.cos((BASE.lat * Math.PI) / 180)) });

function place(provider: ProviderId, id: string, name: string, where: { lat: number; lng: number }, more: Partial<MatchPlace> = {}): MatchPlace {
  return { key: `${provider}:${id}`, provider, name, category: null, address: null, ...where, ...more };
}
const run = (places: MatchPlace[], decisions: Parameters<typeof linkBusinesses>[1]['decisions'] = []) =>
  linkBusinesses(places, { sites: SITES, toE164: (_s, d) => phoneToE164(d, 'KR'), decisions });
const membersOf = (r: ReturnType<typeof run>) => r.businesses.map((b) => b.members.join(' ')).sort();

describe('linking one business across the three sites', () => {
  it('links a Latin brand on Google to its Hangul name on Naver and Kakao, 40–70 m apart, and says why', () => {
    const r = run([
      place('google', '1', 'Starbucks Gangnam', at(0, 0), {
        category: 'Coffee shop',
        phoneE164: '+8225551234',
        address: '12 Teheran-ro, Gangnam District, Seoul',
      }),
      place('naver', '2', '스타벅스 강남역점', at(40, 10), { category: '카페', phoneE164: '+8225551234', roadAddress: '서울 강남구 테헤란로 12 1층' }),
      place('kakao', '3', '스타벅스강남점', at(-30, 60), { category: '음식점 > 카페', roadAddress: '서울특별시 강남구 테헤란로 12' }),
    ]);
    expect(membersOf(r)).toEqual(['google:1 naver:2 kakao:3']);
    const gn = r.businesses[0]!.links.find((l) => l.a === 'google:1' && l.b === 'naver:2')!;
    expect(gn.reasons.map((x) => x.kind)).toEqual(['distance', 'name', 'phone', 'address', 'category']);
    expect(gn.reasons.find((x) => x.kind === 'address')!.detail).toBe('same teheranro 12');
  });

  it('leaves an unnamed branch between two named branches 30 m apart unmatched, and lists it', () => {
    const r = run([
      place('google', '1', 'Starbucks', at(0, 15), { category: 'Cafe' }),
      place('naver', '2', '스타벅스 명동점', at(0, 0), { category: '카페' }),
      place('naver', '3', '스타벅스 명동중앙점', at(0, 30), { category: '카페' }),
    ]);
    expect(r.businesses).toEqual([]);
    expect(r.ambiguities.length).toBe(1);
    expect(r.ambiguities[0]!.places).toEqual(expect.arrayContaining(['google:1', 'naver:2', 'naver:3']));
  });

  it('keeps two branches of one chain 30 m apart apart when every site names the branch', () => {
    const r = run([
      place('naver', '1', '스타벅스 명동점', at(0, 0), { category: '카페' }),
      place('naver', '2', '스타벅스 을지로입구점', at(0, 30), { category: '카페' }),
      place('kakao', '3', '스타벅스 명동', at(5, 5), { category: '카페' }),
      place('kakao', '4', '스타벅스 을지로입구', at(5, 35), { category: '카페' }),
    ]);
    expect(membersOf(r)).toEqual(['naver:1 kakao:3', 'naver:2 kakao:4']);
    expect(r.ambiguities).toEqual([]);
  });

  it('does not link two different businesses with one name in one building', () => {
    const r = run([
      place('naver', '1', '온다', at(0, 0), { category: '카페', phoneE164: '+8227770001', roadAddress: '서울 중구 세종대로 12' }),
      place('kakao', '2', '온다', at(3, 3), { category: '미용 > 헤어샵', phoneE164: '+8227770002', roadAddress: '서울 중구 세종대로 12' }),
    ]);
    expect(r.businesses).toEqual([]);
  });

  it("does not hold Naver's 0507 virtual number against the business's own", () => {
    const lone = (naverPhone: string) =>
      run([
        place('google', '1', 'Haru', at(0, 0), { category: 'Cafe', phoneE164: '+8227770001' }),
        place('naver', '2', '하루', at(120, 0), { category: '카페', phoneE164: naverPhone }),
      ]);
    expect(membersOf(lone('+825071234567'))).toEqual(['google:1 naver:2']);
    // The same pair with a second landline that differs is not linked: the phones speak against it.
    expect(lone('+8227770999').businesses).toEqual([]);
  });

  it("keeps the user's decisions: a confirmed pair is linked whatever its score, a broken one never", () => {
    const far = [place('google', '1', 'Cafe Onda', at(0, 0)), place('kakao', '2', '카페 나무', at(900, 0))];
    expect(run(far).businesses).toEqual([]);
    const confirmed = run(far, [{ id: pairId('google:1', 'kakao:2'), a: 'google:1', b: 'kakao:2', decision: 'confirmed', at: 1 }]);
    expect(membersOf(confirmed)).toEqual(['google:1 kakao:2']);
    expect(confirmed.businesses[0]!.links[0]!.by).toBe('user');

    const clear = [
      place('google', '1', 'Starbucks Jamsil', at(0, 0), { phoneE164: '+8224440001' }),
      place('naver', '2', '스타벅스 잠실점', at(20, 0), { phoneE164: '+8224440001' }),
    ];
    expect(run(clear).businesses.length).toBe(1);
    expect(run(clear, [{ id: pairId('google:1', 'naver:2'), a: 'google:1', b: 'naver:2', decision: 'broken', at: 1 }]).businesses).toEqual([]);
  });

  it('flags a group that would hold two listings of one site instead of linking it', () => {
    // Each pair of sites is clear on its own: Google 1 = Naver 2 (phone 1), Naver 2 = Kakao 3
    // (phone 2, which Naver lists too), Google 1 = Kakao 4 (phone 1). Together they would put
    // Kakao 3 and Kakao 4 in one business.
    const r = run([
      place('google', '1', '하루 카페', at(0, 0), { phoneE164: '+8221110001' }),
      place('naver', '2', '하루 카페', at(150, 0), { phoneE164: '+8221110001', otherPhones: ['02-1110-0002'] }),
      place('kakao', '3', '하루 카페', at(300, 0), { phoneE164: '+82211100002' }),
      place('kakao', '4', '하루 카페', at(-200, 0), { phoneE164: '+8221110001' }),
    ]);
    expect(r.businesses).toEqual([]);
    expect(r.ambiguities.map((a) => [a.why, [...a.places].sort()])).toEqual([['inconsistent', ['google:1', 'kakao:3', 'kakao:4', 'naver:2']]]);
  });

  it('never pairs two listings of the same site, and ignores places without a pin', () => {
    const r = run([
      place('google', '1', 'Onda', at(0, 0)),
      place('google', '2', 'Onda', at(1, 1)),
      { ...place('naver', '3', '온다', at(0, 0)), lat: null, lng: null },
    ]);
    expect(r.businesses).toEqual([]);
  });

  it("links Google's English name to the Korean one the other sites show when their own number agrees, whatever Google's road spelling", () => {
    // `Olympic-ro` is the road's official English name, which no syllable romanisation of 올림픽로 gives.
    const phoneE164 = '+8224101234';
    const r = run([
      place('google', '1', 'Seoul Table', at(0, 0), { category: 'Korean restaurant', address: '171 Olympic-ro, Songpa District, Seoul', phoneE164 }),
      place('naver', '2', '할매국밥', at(30, 20), { category: '음식점 > 한식', roadAddress: '서울 송파구 올림픽로 171', phoneE164 }),
      place('kakao', '3', '할매국밥', at(-20, 30), { category: '음식점 > 한식', roadAddress: '서울특별시 송파구 올림픽로 171' }),
    ]);
    expect(membersOf(r)).toEqual(['google:1 naver:2 kakao:3']);
    const gn = r.businesses[0]!.links.find((l) => l.a === 'google:1' && l.b === 'naver:2')!;
    expect(gn.reasons.find((x) => x.kind === 'name')!.points).toBe(0);
  });

  it('never links names in two scripts that share nothing on a building and a kind alone (issue 36: "Blue Bottle Coffee" and "커피빈 코엑스점")', () => {
    const road = { google: '513 Yeongdong-daero, Gangnam District, Seoul', korean: '서울 강남구 영동대로 513' };
    // Without numbers (5 m, one road address, both cafés) and with two different own numbers.
    for (const phones of [
      [undefined, undefined],
      ['+8225550001', '+8225550002'],
    ] as const) {
      const r = run([
        place('google', '1', 'Blue Bottle Coffee', at(0, 0), { category: 'Coffee shop', address: road.google, ...(phones[0] ? { phoneE164: phones[0] } : {}) }),
        place('naver', '2', '커피빈 코엑스점', at(3, 4), { category: '카페', roadAddress: road.korean, ...(phones[1] ? { phoneE164: phones[1] } : {}) }),
      ]);
      expect(membersOf(r), `phones ${phones.join(', ')}`).toEqual([]);
    }
  });

  it("two branches of one brand in one mall are two businesses, even with the chain's number on both (issue 36)", () => {
    const central = '+8215881234';
    const r = run([
      place('naver', '1', '스타벅스 코엑스몰점', at(0, 0), { category: '카페', roadAddress: '서울 강남구 영동대로 513', phoneE164: central }),
      place('kakao', '2', '스타벅스 코엑스별마당점', at(40, 30), { category: '카페', roadAddress: '서울 강남구 영동대로 513', phoneE164: central }),
      // Two more branches elsewhere list the same number: it is the chain's, no one's own.
      place('naver', '3', '스타벅스 삼성역점', at(600, 0), { category: '카페', phoneE164: central }),
      place('kakao', '4', '스타벅스 삼성역점', at(610, 10), { category: '카페', phoneE164: central }),
    ]);
    expect(membersOf(r)).toEqual(['naver:3 kakao:4']);
  });

  it('one branch spelt two ways is one business: a brand spelt otherwise, or a branch word in two scripts (the second review)', () => {
    const road = '서울 강남구 강남대로 396';
    for (const [x, y] of [
      ['맥도날드 강남점', '맥도널드 강남점'],
      ['파리바게뜨 강남점', '파리바게트 강남점'],
      ['스타벅스 코엑스몰점', '스타벅스 COEX몰점'],
      ['스타벅스 강남역점', '스타벅스 강남점'],
    ] as const) {
      const r = run([
        place('naver', '1', x, at(0, 0), { category: '카페', roadAddress: road, phoneE164: '+8225551234' }),
        place('kakao', '2', y, at(20, 10), { category: '카페', roadAddress: road, phoneE164: '+8225551234' }),
      ]);
      expect(membersOf(r), `${x} / ${y}`).toEqual(['naver:1 kakao:2']);
    }
  });

  it('a chain number taken out on one site is taken out on every site: a branch does not then differ from itself (the second review)', () => {
    const central = '+8215771234';
    const r = run([
      place('naver', '1', '본죽 을지로점', at(0, 0), { category: '음식점 > 죽', phoneE164: '+8227771111', otherPhones: ['1577-1234'] }),
      place('google', '1', 'Bonjuk Euljiro', at(30, 0), { category: 'Porridge restaurant', phoneE164: central }),
      place('naver', '2', '본죽 명동점', at(3000, 0), { category: '음식점 > 죽', phoneE164: central }),
    ]);
    expect(membersOf(r)).toEqual(['google:1 naver:1']);
  });

  it('names of nothing but marks or a branch word never agree (the second review: `점` and `…` scored as one name)', () => {
    for (const [x, y] of [
      ['점', '점'],
      ['…', '-'],
      ['', ''],
    ] as const) {
      const r = run([
        place('naver', '1', x, at(0, 0), { category: '카페', roadAddress: '서울 중구 세종대로 12' }),
        place('kakao', '2', y, at(5, 5), { category: '카페', roadAddress: '서울 중구 세종대로 12' }),
      ]);
      expect(membersOf(r), `${x} / ${y}`).toEqual([]);
    }
  });

  it('a numbered branch is never the unnumbered one, even with a shared number and one road address (issue 36: `…타워점` and `…타워2호점`)', () => {
    const phoneE164 = '+8225559999';
    const r = run([
      place('naver', '1', '진미식당 센터타워점', at(0, 0), { category: '음식점 > 한식', roadAddress: '서울 중구 세종대로 12', phoneE164 }),
      place('kakao', '2', '진미식당 센터타워2호점', at(10, 5), { category: '음식점 > 한식', roadAddress: '서울 중구 세종대로 12', phoneE164 }),
    ]);
    expect(membersOf(r)).toEqual([]);
  });

  it("reads Google's English road name as the Korean one however the sound changes (`Dongmak-ro` / `독막로`), and a lot address as no road (issue 36)", () => {
    const r = run([
      place('google', '1', 'Cafe Onion', at(0, 0), { category: 'Cafe', address: '24 Dongmak-ro, Mapo District, Seoul' }),
      place('naver', '2', '카페 어니언', at(40, 20), { category: '카페', roadAddress: '서울 마포구 독막로 24' }),
    ]);
    const link = r.businesses[0]?.links[0];
    expect(link?.reasons.find((x) => x.kind === 'address')?.points).toBe(2.5);
    // `충무로1가 24-11` is the lot 24-11 of the neighbourhood 충무로1가, not the building 1 of 충무로.
    const lot = run([
      place('naver', '1', '진미식당', at(0, 0), { category: '음식점 > 한식', roadAddress: '서울 중구 충무로1가 24-11' }),
      place('kakao', '2', '진미식당', at(60, 0), { category: '음식점 > 한식', roadAddress: '서울 중구 충무로 1' }),
    ]);
    const pair = lot.businesses[0]?.links[0];
    expect(pair?.reasons.some((x) => x.kind === 'address')).toBe(false);
  });

  it('a place closed for good is not linked to the new tenant at its address, even on one number (issue 36)', () => {
    const phoneE164 = '+8227771234';
    const road = '서울 마포구 독막로 24';
    const r = run([
      place('naver', '1', '하루카페', at(0, 0), { category: '카페', roadAddress: road, phoneE164, closed: 'permanently' }),
      place('kakao', '2', '소담커피', at(5, 5), { category: '카페', roadAddress: road, phoneE164 }),
    ]);
    expect(membersOf(r)).toEqual([]);
    // The same business, closed on one site and not yet on the other: its name says so.
    const same = run([
      place('naver', '1', '하루카페', at(0, 0), { category: '카페', roadAddress: road, phoneE164, closed: 'permanently' }),
      place('kakao', '2', '하루 카페', at(5, 5), { category: '카페', roadAddress: road, phoneE164 }),
    ]);
    expect(membersOf(same)).toEqual(['naver:1 kakao:2']);
  });

  it('the same name and kind 150 m apart on another road are two businesses (a test for the different-road penalty)', () => {
    const r = run([
      place('naver', '1', '하루커피', at(0, 0), { category: '카페', roadAddress: '서울 마포구 독막로 12' }),
      place('kakao', '2', '하루커피', at(150, 0), { category: '카페', roadAddress: '서울 마포구 와우산로 40' }),
    ]);
    expect(membersOf(r)).toEqual([]);
    // On one road, the same pair is one business.
    const same = run([
      place('naver', '1', '하루커피', at(0, 0), { category: '카페', roadAddress: '서울 마포구 독막로 12' }),
      place('kakao', '2', '하루커피', at(150, 0), { category: '카페', roadAddress: '서울 마포구 독막로 12' }),
    ]);
    expect(membersOf(same)).toEqual(['naver:1 kakao:2']);
  });

  it('keeps two Korean businesses of one building and kind apart when their names differ', () => {
    const r = run([
      place('naver', '1', '할매국밥', at(0, 0), { category: '음식점 > 한식', roadAddress: '서울 중구 세종대로 12' }),
      place('kakao', '2', '고향식당', at(10, 10), { category: '음식점 > 한식', roadAddress: '서울 중구 세종대로 12' }),
    ]);
    expect(r.businesses).toEqual([]);
  });

  it('reads `2호`, `2호점` and a Latin `2` as one second branch, not the first', () => {
    const r = run([
      place('google', '1', 'Noodle House 2', at(0, 0), { category: 'Noodle shop' }),
      place('naver', '2', '진미식당 2호', at(20, 0), { category: '국수' }),
      place('kakao', '3', '진미식당2호점', at(0, 20), { category: '음식점 > 국수' }),
      place('kakao', '4', '진미식당', at(-40, 0), { category: '음식점 > 국수' }),
    ]);
    expect(membersOf(r)).toEqual(['naver:2 kakao:3']);
  });

  const decide = (a: string, b: string, decision: 'confirmed' | 'broken') => ({ id: pairId(a, b), a, b, decision, at: 1 });

  it('lists confirmed links that put one site twice in a business instead of failing every later run', () => {
    const places = [place('google', '1', 'Onda', at(0, 0)), place('google', '9', 'Haru', at(0, 50)), place('naver', '2', '온다', at(10, 0))];
    const r = run(places, [decide('google:1', 'naver:2', 'confirmed'), decide('google:9', 'naver:2', 'confirmed')]);
    expect(r.businesses).toEqual([]);
    expect(r.ambiguities.map((a) => [a.why, [...a.places].sort()])).toEqual([['inconsistent', ['google:1', 'google:9', 'naver:2']]]);
  });

  it('a link the user broke holds even when the third site would join the two places again', () => {
    const cafe = (provider: 'google' | 'naver' | 'kakao', id: string, north: number) =>
      place(provider, id, provider === 'google' ? 'Starbucks Jamsil' : '스타벅스 잠실점', at(north, 0), { phoneE164: '+8224440001', category: '카페' });
    const places = [cafe('google', '1', 0), cafe('naver', '2', 20), cafe('kakao', '3', 40)];
    expect(membersOf(run(places))).toEqual(['google:1 naver:2 kakao:3']);
    const r = run(places, [decide('google:1', 'kakao:3', 'broken')]);
    for (const b of r.businesses) expect(b.members.includes('google:1') && b.members.includes('kakao:3')).toBe(false);
    expect(r.ambiguities.some((a) => a.places.includes('google:1') && a.places.includes('kakao:3'))).toBe(true);
  });

  it('keeps apart two unclear links that share their best rival: every place is linked or listed', () => {
    // The assignment takes g1–n1 and g2–n2 (10.5 in all, against 9 for g1–n2 and g2–n1); g1–n2,
    // the best single pair, is the rival of both. Each held-back link is its own ambiguity.
    const pair = (a: string, b: string, score: number) => ({ a, b, metres: 10, score, reasons: [] });
    const r = assignSitePair([pair('g:1', 'n:1', 5), pair('g:2', 'n:2', 5.5), pair('g:1', 'n:2', 6), pair('g:2', 'n:1', 3)], new Set(), new Set());
    expect(r.links).toEqual([]);
    expect(r.unclear.map((u) => pairId(u.link.a, u.link.b)).sort()).toEqual(['g:1|n:1', 'g:2|n:2']);
    expect([...new Set(r.unclear.flatMap((u) => u.candidates.flatMap((c) => [c.a, c.b])))].sort()).toEqual(['g:1', 'g:2', 'n:1', 'n:2']);
  });
});
