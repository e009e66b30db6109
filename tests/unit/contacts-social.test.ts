import { describe, expect, it } from 'vitest';
import { socialNetworkOf, socialProfile } from '../../utils/contacts/social';
import { hostRefusal, websiteKind } from '../../utils/contacts/website-kind';

// Social profiles in a business's links, and what a listing's "website" is (issue 23).

describe('socialProfile', () => {
  it.each([
    ['https://www.instagram.com/Cafe_One/?utm_source=ig_web&igshid=x#top', 'instagram', 'https://www.instagram.com/cafe_one'],
    ['http://instagram.com/cafe.one/reels/', 'instagram', 'https://www.instagram.com/cafe.one'],
    ['https://instagr.am/_u/cafe_one', 'instagram', 'https://www.instagram.com/cafe_one'],
    ['https://m.facebook.com/CafeOne/?ref=page_internal', 'facebook', 'https://www.facebook.com/cafeone'],
    ['https://ko-kr.facebook.com/cafeone/about', 'facebook', 'https://www.facebook.com/cafeone'],
    ['https://www.facebook.com/profile.php?id=100012345678&sk=about&fbclid=x', 'facebook', 'https://www.facebook.com/profile.php?id=100012345678'],
    ['https://facebook.com/people/Cafe-One/100083123456789/', 'facebook', 'https://www.facebook.com/people/Cafe-One/100083123456789'],
    ['https://twitter.com/CafeOne?lang=ko', 'x', 'https://x.com/cafeone'],
    ['https://mobile.twitter.com/cafeone/media', 'x', 'https://x.com/cafeone'],
    ['https://x.com/cafe_one', 'x', 'https://x.com/cafe_one'],
    ['https://www.youtube.com/channel/UCabcDEF123_-xyzXYZ12345/videos?view=0', 'youtube', 'https://www.youtube.com/channel/UCabcDEF123_-xyzXYZ12345'],
    ['https://m.youtube.com/@CafeOne', 'youtube', 'https://www.youtube.com/@CafeOne'],
    ['https://youtube.com/c/CafeOne/featured', 'youtube', 'https://www.youtube.com/c/CafeOne'],
    ['https://www.youtube.com/user/cafeone', 'youtube', 'https://www.youtube.com/user/cafeone'],
    ['https://www.tiktok.com/@Cafe.One?lang=en', 'tiktok', 'https://www.tiktok.com/@cafe.one'],
    ['https://kr.linkedin.com/company/Cafe-One/about/', 'linkedin', 'https://www.linkedin.com/company/cafe-one'],
    ['https://www.linkedin.com/in/kim-owner/', 'linkedin', 'https://www.linkedin.com/in/kim-owner'],
    ['http://pf.kakao.com/_xkxaZxl/friend', 'kakao_channel', 'https://pf.kakao.com/_xkxaZxl'],
    ['https://m.blog.naver.com/cafeone', 'naver_blog', 'https://blog.naver.com/cafeone'],
    ['https://blog.naver.com/PostList.naver?blogId=CafeOne&categoryNo=0', 'naver_blog', 'https://blog.naver.com/cafeone'],
    ['https://cafe.naver.com/cafeone', 'naver_cafe', 'https://cafe.naver.com/cafeone'],
    ['https://m.cafe.naver.com/ca-fe/cafeone', 'naver_cafe', 'https://cafe.naver.com/cafeone'],
    ['https://m.smartstore.naver.com/cafeone?NaPm=ct%3Dx', 'naver_smartstore', 'https://smartstore.naver.com/cafeone'],
    ['https://band.us/band/12345678', 'band', 'https://band.us/band/12345678'],
    ['https://www.band.us/@CafeOne', 'band', 'https://band.us/@cafeone'],
  ])('%s', (url, network, normalised) => {
    expect(socialProfile(url)).toEqual({ network, url: normalised });
  });

  it.each([
    // The network's own pages, posts and buttons, not anyone's profile.
    'https://www.instagram.com/',
    'https://www.instagram.com/explore/tags/cafe/',
    'https://www.instagram.com/p/C1a2b3c4d5/',
    'https://www.instagram.com/reel/C1a2b3c4d5/',
    'https://www.instagram.com/cafe_one/p/C1a2b3c4d5/',
    'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fcafe.kr',
    'https://www.facebook.com/sharer.php?u=x',
    'https://www.facebook.com/plugins/page.php?href=https%3A%2F%2Fwww.facebook.com%2Fcafeone',
    'https://www.facebook.com/tr?id=123&ev=PageView&noscript=1',
    'https://www.facebook.com/profile.php',
    'https://www.facebook.com/cafeone/posts/pfbid0abc',
    'https://developers.facebook.com/cafeone',
    'https://twitter.com/intent/tweet?text=hi',
    'https://twitter.com/share?url=x',
    'https://x.com/cafeone/status/1790000000000000000',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/embed/dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ',
    'https://www.youtube.com/cafeone',
    'https://www.tiktok.com/@cafe.one/video/7300000000000000000',
    'https://www.tiktok.com/cafeone',
    'https://www.linkedin.com/shareArticle?url=x',
    'https://pf.kakao.com/',
    'https://pf.kakao.com/_xkxaZxl/12345678',
    'https://blog.naver.com/cafeone/223456789012',
    'https://blog.naver.com/PostView.naver?blogId=cafeone&logNo=223456789012',
    'https://blog.naver.com/PostList.naver?blogId=cafeone&logNo=223456789012',
    'https://cafe.naver.com/cafeone/1234',
    'https://cafe.naver.com/ArticleRead.nhn?clubid=1&articleid=2',
    'https://smartstore.naver.com/cafeone/products/1234567',
    'https://band.us/band/12345678/post/1',
    'https://cafe.kr/instagram.com/cafe_one',
    'ftp://instagram.com/cafe_one',
    'not a url',
  ])('not a profile: %s', (url) => {
    expect(socialProfile(url)).toBeNull();
  });

  it('knows the network of a page that is not a profile', () => {
    expect(socialNetworkOf('https://www.instagram.com/p/C1a2b3c4d5/')).toBe('instagram');
    expect(socialNetworkOf('https://cafe.kr/')).toBeNull();
  });
});

describe('websiteKind', () => {
  it.each([
    ['https://Cafe.CO.KR/Menu?x=1#top', 'https://cafe.co.kr/Menu?x=1'],
    ['www.cafe.co.kr', 'http://www.cafe.co.kr/'],
    ['  http://카페.kr/ ', 'http://xn--ob7b27g.kr/'],
    ['https://www.google.com/search?q=cafe', 'https://www.google.com/search?q=cafe'],
    ['https://blog.cafe.kr/', 'https://blog.cafe.kr/'],
  ])('a site: %s', (website, url) => {
    expect(websiteKind(website)).toEqual({ kind: 'site', url });
  });

  it('a social profile is recorded as the profile', () => {
    expect(websiteKind('https://www.instagram.com/cafe_one/')).toEqual({
      kind: 'social',
      profile: { network: 'instagram', url: 'https://www.instagram.com/cafe_one' },
    });
    expect(websiteKind('blog.naver.com/cafeone')).toEqual({ kind: 'social', profile: { network: 'naver_blog', url: 'https://blog.naver.com/cafeone' } });
  });

  it.each([
    ['https://map.naver.com/p/entry/place/1234567', 'Naver Map'],
    ['https://naver.me/xAbCdEf', 'Naver Map'],
    ['https://m.place.naver.com/restaurant/1234567/home', 'Naver Map'],
    ['https://booking.naver.com/booking/13/bizes/123', 'Naver Booking'],
    ['https://m.booking.naver.com/booking/13/bizes/123', 'Naver Booking'],
    ['http://place.map.kakao.com/12345', 'Kakao Map'],
    ['https://kko.to/AbCdEf', 'Kakao Map'],
    ['https://www.google.com/maps/place/Cafe/@37.5,127,17z', 'Google Maps'],
    ['https://www.google.co.kr/maps?cid=123', 'Google Maps'],
    ['https://maps.google.com/?cid=123', 'Google Maps'],
    ['https://goo.gl/maps/AbCdEf', 'Google Maps'],
    ['https://maps.app.goo.gl/AbCdEf', 'Google Maps'],
    ['https://linktr.ee/cafeone', 'Linktree'],
    ['https://litt.ly/cafeone', 'Litt.ly'],
    ['https://instabio.cc/cafeone', 'Instabio'],
    ['https://www.instagram.com/p/C1a2b3c4d5/', 'Instagram'],
  ])('a platform: %s', (website, platform) => {
    expect(websiteKind(website)).toEqual({ kind: 'platform', platform });
  });

  it.each([
    ['', 'not a URL'],
    ['http://', 'not a URL'],
    ['mailto:info@cafe.kr', 'not http(s)'],
    ['javascript:alert(1)', 'not http(s)'],
    ['ftp://cafe.kr/', 'not http(s)'],
    ['https://admin:pw@cafe.kr/', 'a URL with a user name or password'],
    ['http://localhost:8080/', 'a local or private host'],
    ['http://printer.local/', 'a local or private host'],
    ['http://router/', 'a local or private host'],
    ['http://192.168.0.1/', 'a local or private host'],
    ['http://0x7f.1/', 'a local or private host'],
    ['http://[::1]/', 'a local or private host'],
    ['http://nas.home.arpa/', 'a local or private host'],
    // Names under a public suffix that lead into the user's network (issue 36): wildcard DNS, routers' own names.
    ['http://127.0.0.1.nip.io/', 'a local or private host'],
    ['http://192-168-1-1.sslip.io/', 'a local or private host'],
    ['http://localtest.me/', 'a local or private host'],
    ['http://router.asus.com/', 'a local or private host'],
    ['http://fritz.box/', 'a local or private host'],
    ['https://www.routerlogin.net/', 'a local or private host'],
    // Names under no public suffix: a company's or a home network's own.
    ['http://intranet.corp/', 'a local or private host'],
    ['http://myrouter.home/', 'a local or private host'],
    ['http://co.kr/', 'a local or private host'],
  ])('never fetched: %j', (website, reason) => {
    expect(websiteKind(website)).toEqual({ kind: 'invalid', reason });
  });

  it.each([
    ['www.cafe.co.kr', 'http://www.cafe.co.kr/'],
    ['http://카페.한국/', 'http://xn--ob7b27g.xn--3e0b707e/'],
    ['https://shop.example-bakery.seoul.kr/about', 'https://shop.example-bakery.seoul.kr/about'],
    ['https://asus.com/', 'https://asus.com/'],
  ])('a business site under a public suffix is fetched: %j', (website, url) => {
    expect(websiteKind(website)).toEqual({ kind: 'site', url });
  });

  it('names every refused name by its reason and source', () => {
    expect(hostRefusal('10.0.0.1.nip.io')).toMatch(/nip\.io: wildcard DNS/);
    expect(hostRefusal('router.asus.com')).toMatch(/ASUS/);
    expect(hostRefusal('intranet.corp')).toMatch(/no public suffix/);
    expect(hostRefusal('www.cafe.co.kr')).toBeNull();
  });
});
