/**
 * One line of a place list (issue 40): every link form of each site → the product's own key,
 * share links kept to be opened, bare ids with their site, and the hostile or mistaken lines a
 * list pasted from anywhere holds, each refused with its reason.
 *
 * Ids are real, from ../shared/real-pages (SOURCES.md) and ../shared/naver-kakao-notes.md:
 * Google's from the Amsterdam feed capture's card hrefs (The Pantry, Omelegg City Centre) and the
 * Athens tbm=map capture (feature id and ChIJ of its first result); Naver's from the allSearch
 * capture (1178829266), the pcmap Apollo capture (1446535451 동암상회), the m.map capture
 * (m.place…/place/1717860225/home) and the m.place list (/restaurant/20246834?entry=pll); Kakao's
 * from the REST capture's place_url (http://place.map.kakao.com/8252248) and notes B1 (27388604).
 * The share tokens are made up: no capture holds a share link.
 */
import { describe, expect, it } from 'vitest';
import { placeKey } from '../../utils/domain/place';
import { featureIdToCid, keyFromCid } from '../../utils/providers/google/ids';
import { kakaoKey } from '../../utils/providers/kakao/ids';
import { naverKey } from '../../utils/providers/naver/ids';
import { placePageUrl } from '../../utils/providers/registry';
import { NOT_A_PLACE, placeFromLandingUrl, readLine } from '../../utils/input';
import type { LineVerdict } from '../../utils/input';

const PANTRY = { featureId: '0x47c609e91734d71b:0xb13072d0007a87d1', placeId: 'ChIJG9c0F-kJxkcR0Yd6ANByMLE', cid: '12767831181282150353' };
const OMELEGG = { featureId: '0x47c609b9cbb65535:0x4fa7e5d9f684a3f5', placeId: 'ChIJNVW2y7kJxkcR9aOE9tnlp08', cid: '5739808974413538293' };
const ATHENS = { featureId: '0x14a1a32f316b15a1:0x169c54b46dcc3a93', placeId: 'ChIJoRVrMS-joRQRkzrMbbRUnBY', cid: '1629270299114224275' };
/** The Pantry's card href in the 2025-11 Amsterdam capture, as the page wrote it (with `&amp;` undone). */
const PANTRY_HREF = `https://www.google.com/maps/place/The+Pantry/data=!4m7!3m6!1s${PANTRY.featureId}!8m2!3d52.3634845!4d4.8849427!16s%2Fg%2F1tfxfwsp!19s${PANTRY.placeId}?authuser=0&hl=en&rclk=1`;

function keyOf(v: LineVerdict): string {
  if (v.kind !== 'place') throw new Error(`expected a place, got ${JSON.stringify(v)}`);
  return v.place.key;
}

function reasonOf(v: LineVerdict): string {
  if (v.kind !== 'bad') throw new Error(`expected a bad line, got ${JSON.stringify(v)}`);
  return v.reason;
}

describe('Google links and ids → google:{cid}, the key a sweep gives the place', () => {
  it('the captured ids agree with the product: feature id, ChIJ and CID are one place', () => {
    for (const p of [PANTRY, OMELEGG, ATHENS]) expect(featureIdToCid(p.featureId)).toBe(p.cid);
  });

  it.each([
    ['a card href from the capture (!1s feature id, !19s ChIJ)', PANTRY_HREF, PANTRY],
    [
      'the place link with its view (@lat,lng,zoom) and only !1s',
      `https://www.google.com/maps/place/Omelegg+City+Centre/@52.3760641,4.8998055,17z/data=!3m1!4b1!4m6!3m5!1s${OMELEGG.featureId}!8m2!3d52.3760641!4d4.8998055!16s%2Fg%2F11bvt4tqx3?entry=ttu`,
      OMELEGG,
    ],
    ['a country domain (www.google.co.kr)', `https://www.google.co.kr/maps/place/The+Pantry/data=!4m2!3m1!1s${PANTRY.featureId}?hl=ko`, PANTRY],
    ['no www (google.com/maps/place)', `https://google.com/maps/place/x/data=!4m2!3m1!1s${PANTRY.featureId}`, PANTRY],
    ['maps.google.com/maps/place', `https://maps.google.com/maps/place/x/data=!4m2!3m1!1s${PANTRY.featureId}`, PANTRY],
    ['!1s with its colon escaped (%3A)', `https://www.google.com/maps/place/x/data=!4m2!3m1!1s${PANTRY.featureId.replace(':', '%3A')}`, PANTRY],
    ['?cid=', `https://www.google.com/maps?cid=${PANTRY.cid}`, { ...PANTRY, featureId: null, placeId: null }],
    ['?cid= with hl', `https://www.google.com/maps?cid=${PANTRY.cid}&hl=ko`, { ...PANTRY, featureId: null, placeId: null }],
    ['maps.google.com/?cid=', `https://maps.google.com/?cid=${PANTRY.cid}`, { ...PANTRY, featureId: null, placeId: null }],
    ['maps.google.com/?cid= without a scheme', `maps.google.com/?cid=${PANTRY.cid}`, { ...PANTRY, featureId: null, placeId: null }],
    ['http://maps.google.com/maps?cid=', `http://maps.google.com/maps?cid=${PANTRY.cid}`, { ...PANTRY, featureId: null, placeId: null }],
    ['google.com/maps?q=…&ftid=0x…:0x…', `https://www.google.com/maps?q=The+Pantry,+Leidsegracht+46,+Amsterdam&ftid=${PANTRY.featureId}`, PANTRY],
    ['/maps/place/?q=place_id:ChIJ…', `https://www.google.com/maps/place/?q=place_id:${ATHENS.placeId}`, ATHENS],
    ['/maps/place/?q=place_id%3AChIJ…', `https://www.google.com/maps/place/?q=place_id%3A${ATHENS.placeId}`, ATHENS],
    ['/maps/search/?api=1&query_place_id=ChIJ… (Maps URLs)', `https://www.google.com/maps/search/?api=1&query=coffee&query_place_id=${ATHENS.placeId}`, ATHENS],
  ])('%s', (_form, line, ids) => {
    const v = readLine(line);
    expect(v.kind).toBe('place');
    if (v.kind !== 'place') return;
    expect(v.place).toEqual({
      provider: 'google',
      providerId: ids.cid,
      key: keyFromCid(ids.cid),
      cid: ids.cid,
      featureId: ids.featureId,
      placeId: ids.placeId,
      url: `https://www.google.com/maps?cid=${ids.cid}`,
      from: 'link',
    });
    expect(v.place.key).toBe(placeKey('google', ids.cid));
  });

  it.each([
    [`google:${ATHENS.featureId}`, ATHENS.cid],
    [`google:${ATHENS.placeId}`, ATHENS.cid],
    [`google:cid:${PANTRY.cid}`, PANTRY.cid],
    [`google:${PANTRY.cid}`, PANTRY.cid], // the product's own key, as an export or a script writes it
    [`Google: cid:0${ATHENS.cid}`, ATHENS.cid], // any case, spaces, a leading zero normalised
  ])('the bare id %s', (line, cid) => {
    const v = readLine(line);
    expect(keyOf(v)).toBe(`google:${cid}`);
    expect(v.kind === 'place' && v.place.from).toBe('id');
  });

  it('a place found from a list gets the place page the details pass loads for it', () => {
    const v = readLine(PANTRY_HREF);
    if (v.kind !== 'place') throw new Error('not read');
    expect(placePageUrl(v.place, 'en')).toBe(`https://www.google.com/maps/place/data=!4m2!3m1!1s${PANTRY.featureId}?hl=en`);
    const byCid = readLine(`https://www.google.com/maps?cid=${PANTRY.cid}`);
    if (byCid.kind !== 'place') throw new Error('not read');
    expect(placePageUrl(byCid.place)).toBe(`https://www.google.com/maps?cid=${PANTRY.cid}`);
  });

  it.each([
    ['https://www.google.com/maps/search/coffee/@52.37,4.89,15z', 'a Google search link, not a place'],
    ['https://www.google.com/maps?q=coffee+amsterdam', 'a Google search link, not a place'],
    [
      'https://www.google.com/maps/place/Eiffel+Tower/@48.8583701,2.2944813,17z',
      "a Google place link without the place's id (no !1s0x…:0x…, cid= or place_id): copy the link from the place's own page",
    ],
    [
      'https://www.google.com/maps/dir/Amsterdam/The+Pantry/data=!4m5!4m4!1m0!1m2!1m1!1s0x47c609e91734d71b:0xb13072d0007a87d1',
      'a Google directions link, not a place',
    ],
    ['https://www.google.com/maps/@52.3634845,4.8849427,17z', 'a Google map view, not a place'],
    ['https://www.google.com/search?q=the+pantry+amsterdam', 'a Google web search link, not a Maps place'],
    ['https://www.google.com/url?q=https://place.map.kakao.com/27388604', 'a Google redirect link: paste the link it leads to'],
    ['https://mail.google.com/maps?cid=12767831181282150353', 'a Google link that is not a Maps place (mail.google.com)'],
    ['https://www.google.com/maps?cid=12767831181282150353abc', 'a Google CID must be digits (a number below 2^64)'],
    ['https://www.google.com/maps?cid=99999999999999999999', 'a Google CID must be digits (a number below 2^64)'],
    ['https://www.google.com/maps?q=x&ftid=0x47c609e91734d71b', 'the ftid of a Google link must be a feature id, 0x…:0x…'],
    [`https://www.google.com/maps/place/x/data=!1s${PANTRY.featureId}!19s${ATHENS.placeId}`, "the link's place ids name different places"],
    [`https://www.google.com/maps/place/x/data=!1s${PANTRY.featureId}?cid=${ATHENS.cid}`, "the link's place ids name different places"],
    [`https://www.google.com/maps?q=x&ftid=${PANTRY.featureId}&cid=${ATHENS.cid}`, "the link's place ids name different places"],
    [
      `https://www.google.com/maps/place/x/data=!1s${PANTRY.featureId}!19s${ATHENS.placeId}?ftid=${PANTRY.featureId}`,
      "the link's place ids name different places",
    ],
    [
      'https://www.google.com/maps/place/?q=place_id:ChIJAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      "a Google place_id of a form that does not carry the place's CID: paste the place's link instead",
    ],
    ['google:ChIJAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', "a Google place_id of a form that does not carry the place's CID: paste the place's link instead"],
    ['google:0x47c609e91734d71b', 'a Google feature id is two hexadecimal numbers, 0x…:0x…'],
    ['google:cid:12ab', 'a Google CID must be digits (a number below 2^64)'],
    ['google:The Pantry', 'a Google id is a CID (digits), a feature id (0x…:0x…) or a ChIJ… place_id'],
  ])('refused: %s', (line, reason) => {
    expect(reasonOf(readLine(line))).toBe(reason);
  });
});

describe('Naver links and ids → naver:{place id}', () => {
  it.each([
    ['map.naver.com/p/entry/place (the canonical link)', 'https://map.naver.com/p/entry/place/1178829266', '1178829266'],
    [
      'the entry link with what the site adds',
      'https://map.naver.com/p/entry/place/1178829266?placePath=/home&from=map&fromPanelNum=1&additionalHeight=76&timestamp=202602220831&locale=ko&svcName=map_pcv5&searchType=place&lng=127.0841546&lat=37.5660654&c=15.00,0,0,0,dh',
      '1178829266',
    ],
    [
      'a search that opened a place',
      'https://map.naver.com/p/search/%EC%8C%80%EA%B5%AD%EC%88%98/place/1178829266?c=15.00,0,0,0,dh&placePath=%2Fhome&entry=pll',
      '1178829266',
    ],
    ['the older v5 entry link', 'https://map.naver.com/v5/entry/place/1178829266?c=14141300,4507203,15.00,0,0,0,dh', '1178829266'],
    ['pcmap.place.naver.com/{type}/{id}/home', 'https://pcmap.place.naver.com/restaurant/1446535451/home', '1446535451'],
    ['pcmap, another tab', 'https://pcmap.place.naver.com/restaurant/1446535451/review/visitor?entry=pll', '1446535451'],
    ['pcmap, a type the provider does not list', 'https://pcmap.place.naver.com/bakery/1446535451/home', '1446535451'],
    ['m.place.naver.com/{type}/{id}/home (the m.map capture)', 'https://m.place.naver.com/place/1717860225/home', '1717860225'],
    ['m.place.naver.com/{type}/{id}', 'https://m.place.naver.com/restaurant/20246834?entry=pll', '20246834'],
    ['place.naver.com/{type}/{id} without a scheme', 'place.naver.com/restaurant/20246834', '20246834'],
    ['http://', 'http://map.naver.com/p/entry/place/1178829266', '1178829266'],
  ])('%s', (_form, line, id) => {
    const v = readLine(line);
    expect(keyOf(v)).toBe(naverKey(id));
    if (v.kind !== 'place') return;
    expect(v.place).toMatchObject({
      provider: 'naver',
      providerId: id,
      cid: null,
      featureId: null,
      url: `https://map.naver.com/p/entry/place/${id}`,
      from: 'link',
    });
    expect(placePageUrl(v.place)).toBe(`https://pcmap.place.naver.com/place/${id}/home`);
  });

  it.each([
    ['naver:1178829266', '1178829266'],
    ['NAVER: 1446535451', '1446535451'],
    ['naver:s38742570', '38742570'], // the older s-prefixed form (notes A2)
  ])('the bare id %s', (line, id) => {
    expect(keyOf(readLine(line))).toBe(`naver:${id}`);
  });

  it.each([
    ['naver:abc', 'a Naver place id must be digits (5 to 12 of them, not starting with 0)'],
    ['naver:0123456', 'a Naver place id must be digits (5 to 12 of them, not starting with 0)'],
    ['naver:1234', 'a Naver place id must be digits (5 to 12 of them, not starting with 0)'],
    ['https://map.naver.com/p/entry/place/11788x29266', 'a Naver place id must be digits (5 to 12 of them, not starting with 0)'],
    ['https://pcmap.place.naver.com/restaurant/list?query=%EC%82%AC%EB%8B%B9%EB%A7%9B%EC%A7%91&x=126.98&y=37.48', 'a Naver search list, not a place'],
    ['https://map.naver.com/p/search/%EC%B9%B4%ED%8E%98?c=15.00,0,0,0,dh', 'a Naver search link, not a place'],
    ['https://map.naver.com/p?c=15.00,0,0,0,dh', 'a Naver map link that names no place'],
    ['https://blog.naver.com/place/1178829266', 'a Naver link that is not a map place (blog.naver.com)'],
    ['https://tivan.naver.com/d/abc==?fu=https%3A%2F%2Fm.place.naver.com%2Frestaurant%2F38628524', "a Naver ad link: open it and paste the place's own link"],
  ])('refused: %s', (line, reason) => {
    expect(reasonOf(readLine(line))).toBe(reason);
  });
});

describe('Kakao links and ids → kakao:{confirmid}', () => {
  it.each([
    ['place.map.kakao.com/{confirmid}', 'https://place.map.kakao.com/27388604', '27388604'],
    ["the REST API's http:// place_url (the capture)", 'http://place.map.kakao.com/8252248', '8252248'],
    ['the retired /main/v/{id}', 'https://place.map.kakao.com/main/v/27388604', '27388604'],
    ['http:// and /main/v/', 'http://place.map.kakao.com/main/v/18580965', '18580965'],
    ['with a fragment', 'https://place.map.kakao.com/27388604#comment', '27388604'],
    ['m.place.map.kakao.com', 'https://m.place.map.kakao.com/1249470554', '1249470554'],
    ['without a scheme', 'place.map.kakao.com/8094954', '8094954'],
    ['map.kakao.com/link/map/{id} (Kakao\'s "open this place" link)', 'https://map.kakao.com/link/map/27388604', '27388604'],
    ['map.kakao.com/?itemId={id}', 'https://map.kakao.com/?itemId=27388604', '27388604'],
  ])('%s', (_form, line, id) => {
    const v = readLine(line);
    expect(keyOf(v)).toBe(kakaoKey(id));
    if (v.kind !== 'place') return;
    expect(v.place).toMatchObject({ provider: 'kakao', providerId: id, url: `https://place.map.kakao.com/${id}` });
    expect(placePageUrl(v.place)).toBe(`https://place.map.kakao.com/${id}`);
  });

  it.each([
    ['kakao:27388604', '27388604'],
    ['Kakao : 8252248', '8252248'],
  ])('the bare id %s', (line, id) => {
    expect(keyOf(readLine(line))).toBe(`kakao:${id}`);
  });

  it.each([
    ['kakao:27388604a', 'a Kakao place id (confirmid) must be digits (4 to 12 of them, not starting with 0)'],
    ['https://place.map.kakao.com/abc', 'a Kakao place id (confirmid) must be digits (4 to 12 of them, not starting with 0)'],
    ['https://map.kakao.com/?q=%EC%B9%B4%ED%8E%98', 'a Kakao search link, not a place'],
    ['https://map.kakao.com/link/map/스타벅스,37.402056,127.108212', 'a Kakao map pin (name, latitude, longitude), not a place'],
    ['https://map.kakao.com/link/to/27388604', 'a Kakao directions link, not a place'],
    ['https://search.map.kakao.com/mapsearch/map.daum?q=cafe', 'a Kakao link that is not a map place (search.map.kakao.com)'],
  ])('refused: %s', (line, reason) => {
    expect(reasonOf(readLine(line))).toBe(reason);
  });
});

describe('share links: kept to be opened, on their own service only', () => {
  it.each([
    ['https://maps.app.goo.gl/6bWq3nHkRZr9tXcY7', 'google', 'https://maps.app.goo.gl/6bWq3nHkRZr9tXcY7'],
    ['https://maps.app.goo.gl/6bWq3nHkRZr9tXcY7?g_st=ic', 'google', 'https://maps.app.goo.gl/6bWq3nHkRZr9tXcY7'],
    ['maps.app.goo.gl/6bWq3nHkRZr9tXcY7', 'google', 'https://maps.app.goo.gl/6bWq3nHkRZr9tXcY7'],
    ['https://goo.gl/maps/Xk2rB7wQpZ5', 'google', 'https://goo.gl/maps/Xk2rB7wQpZ5'],
    ['https://naver.me/5Hd3kQpX', 'naver', 'https://naver.me/5Hd3kQpX'],
    ['http://naver.me/5Hd3kQpX#x', 'naver', 'https://naver.me/5Hd3kQpX'],
    ['https://kko.to/Q3bLk9ZxY2', 'kakao', 'https://kko.to/Q3bLk9ZxY2'],
    ['https://kko.kakao.com/Q3bLk9ZxY2', 'kakao', 'https://kko.kakao.com/Q3bLk9ZxY2'],
  ])('%s', (line, provider, url) => {
    expect(readLine(line)).toEqual({ kind: 'share', share: { provider, url } });
  });

  it.each([
    ['https://goo.gl/AbCdEf', 'a goo.gl link that is not a Google Maps share'],
    ['https://naver.me/', 'a naver.me link without its share code'],
    ['https://kko.to/a/b/c', 'a kko.to link without its share code'],
    ['https://g.co/kgs/Ab12Cd', "a Google search share link (g.co), not a Maps place: open it and paste the place's Maps link"],
  ])('refused: %s', (line, reason) => {
    expect(reasonOf(readLine(line))).toBe(reason);
  });

  it('the page a share lands on is read like a link, and held to the share’s site', () => {
    expect(keyOf(placeFromLandingUrl('naver', 'https://map.naver.com/p/entry/place/1178829266?c=15.00,0,0,0,dh&placePath=%2Fhome'))).toBe('naver:1178829266');
    expect(keyOf(placeFromLandingUrl('google', `https://www.google.com/maps/place/The+Pantry/@52.36,4.88,17z/data=!4m6!3m5!1s${PANTRY.featureId}!8m2`))).toBe(
      `google:${PANTRY.cid}`,
    );
    expect(keyOf(placeFromLandingUrl('kakao', 'https://place.map.kakao.com/27388604'))).toBe('kakao:27388604');
    expect(reasonOf(placeFromLandingUrl('kakao', 'https://map.naver.com/p/entry/place/1178829266'))).toBe('the Kakao share link led to a Naver page');
    expect(reasonOf(placeFromLandingUrl('google', 'https://maps.app.goo.gl/6bWq3nHkRZr9tXcY7'))).toBe('the share link led to another share link');
    expect(reasonOf(placeFromLandingUrl('google', 'https://www.google.com/maps/search/coffee/@52.37,4.89,15z'))).toBe(
      'the share link led to no place page (a Google search link, not a place)',
    );
    expect(reasonOf(placeFromLandingUrl('google', 'https://consent.google.com/ml?continue=https://maps.app.goo.gl/x'))).toMatch(
      /^the share link led to no place page/,
    );
    expect(reasonOf(placeFromLandingUrl('naver', 'about:blank'))).toBe('the share link led to no web page');
  });
});

describe('hostile and mistaken lines are never a place', () => {
  const lookalike = (reason: string) => `${NOT_A_PLACE} (the link goes to ${reason})`;
  it.each([
    // Look-alike hosts: a suffix or a prefix is not the site.
    [`https://google.com.evil.example/maps/place/x/data=!4m2!3m1!1s${PANTRY.featureId}`, lookalike('google.com.evil.example')],
    [`google.com.evil.example/maps/place/x/data=!4m2!3m1!1s${PANTRY.featureId}`, lookalike('google.com.evil.example')],
    [`https://www.google.com.evil.example/maps?cid=${PANTRY.cid}`, lookalike('www.google.com.evil.example')],
    [`https://www.google.com%2eevil.example/maps?cid=${PANTRY.cid}`, lookalike('www.google.com.evil.example')],
    [`https://evilgoogle.com/maps?cid=${PANTRY.cid}`, lookalike('evilgoogle.com')],
    [`https://www.gооgle.com/maps?cid=${PANTRY.cid}`, lookalike('www.xn--ggle-55da.com')], // Cyrillic о
    ['https://map.naver.com.evil.example/p/entry/place/1178829266', lookalike('map.naver.com.evil.example')],
    ['https://evilnaver.com/p/entry/place/1178829266', lookalike('evilnaver.com')],
    ['https://place.map.kakao.com.evil.example/27388604', lookalike('place.map.kakao.com.evil.example')],
    ['https://naver.me.evil.example/5Hd3kQpX', lookalike('naver.me.evil.example')],
    ['https://maps.app.goo.gl.evil.example/6bWq3nHkRZr9tXcY7', lookalike('maps.app.goo.gl.evil.example')],
    ['https://evil.example/?u=https://place.map.kakao.com/27388604', lookalike('evil.example')],
    // A name before the host: the browser goes to the host after the @.
    [`https://google.com@evil.example/maps?cid=${PANTRY.cid}`, 'a link with a name before its host (…@evil.example) is not read: it hides where the link goes'],
    ['https://place.map.kakao.com:x@evil.example/27388604', 'a link with a name before its host (…@evil.example) is not read: it hides where the link goes'],
    ['https://maps.app.goo.gl@evil.example/6bWq3nHkRZr9tXcY7', 'a link with a name before its host (…@evil.example) is not read: it hides where the link goes'],
    ['https://x@place.map.kakao.com/27388604', 'a link with a name before its host (…@place.map.kakao.com) is not read: it hides where the link goes'],
    ['https://place.map.kakao.com:8443/27388604', "a link with a port (:8443) is not a map site's own link"],
    // Other schemes.
    ['javascript:alert(document.cookie)', 'a javascript: link, not a web link'],
    ['JaVaScRiPt:location="https://place.map.kakao.com/27388604"', 'a javascript: link, not a web link'],
    ['data:text/html,<script>alert(1)</script>', 'a data: link, not a web link'],
    ['file:///etc/passwd', 'a file: link, not a web link'],
    ['ftp://place.map.kakao.com/27388604', 'a ftp: link, not a web link'],
    ['chrome-extension://kiaoalgfnmommbapmfobekncgcknbolb/dashboard.html', 'a chrome-extension: link, not a web link'],
    // Spreadsheet formulas, HTML, text around a link.
    [`=HYPERLINK("https://www.google.com/maps?cid=${PANTRY.cid}")`, 'a spreadsheet formula, not a link: paste the link itself'],
    ['=1+2', 'a spreadsheet formula, not a link: paste the link itself'],
    ['<a href="https://place.map.kakao.com/27388604">카페</a>', 'HTML, not a link: paste the link itself'],
    ['<img src=x onerror=alert(1)>', 'HTML, not a link: paste the link itself'],
    ['[카카오맵] 스타벅스 강남점 https://kko.to/Q3bLk9ZxY2', 'a link must be alone on its line, with nothing before or after it'],
    ['https://place.map.kakao.com/27388604 https://place.map.kakao.com/8252248', 'a link must be alone on its line, with nothing before or after it'],
    ['https://www.goo\tgle.com/maps?cid=1', 'a link must be alone on its line, with nothing before or after it'],
    ['스타벅스 강남점', NOT_A_PLACE],
    ['+82 2-1234-5678', NOT_A_PLACE],
    ['27388604', 'a bare id needs its site: write naver:{id}, kakao:{id} or google:cid:{cid}'],
    ['//place.map.kakao.com/27388604', NOT_A_PLACE],
    ['https://', 'not a valid link'],
  ])('%s', (line, reason) => {
    expect(reasonOf(readLine(line))).toBe(reason);
  });

  it('a very long line is refused by its length before it is parsed', () => {
    const head = 'https://place.map.kakao.com/27388604?';
    const line = `${head}${'a'.repeat(5_000 - head.length)}`;
    expect(line).toHaveLength(5_000);
    expect(reasonOf(readLine(line))).toBe('line is 5,000 characters long (a place link is at most 4,096)');
  });

  it('invisible characters around a copied link are dropped; inside it they spoil it', () => {
    expect(keyOf(readLine('\u200bhttps://place.map.kakao.com/27388604\ufeff '))).toBe('kakao:27388604');
    expect(readLine('https://place.map.kakao.com/2738\u202e8604').kind).toBe('bad');
  });

  it('http and https of a site name the same place; a share is opened as https', () => {
    expect(keyOf(readLine(`http://www.google.com/maps?cid=${PANTRY.cid}`))).toBe(keyOf(readLine(`https://www.google.com/maps?cid=${PANTRY.cid}`)));
    const share = readLine('http://kko.to/Q3bLk9ZxY2');
    expect(share.kind === 'share' && share.share.url).toBe('https://kko.to/Q3bLk9ZxY2');
  });

  it('a row whose site column disagrees with its link or id is refused', () => {
    expect(reasonOf(readLine('https://place.map.kakao.com/27388604', 'naver'))).toBe("the row's site is naver, but this is a Kakao link");
    expect(reasonOf(readLine('kakao:27388604', 'google'))).toBe("the row's site is google, but the id says kakao");
    expect(keyOf(readLine('27388604', 'kakao'))).toBe('kakao:27388604');
    expect(keyOf(readLine(ATHENS.featureId, 'google'))).toBe(`google:${ATHENS.cid}`);
  });
});
