import { describe, expect, it } from 'vitest';
import { decodeCloudflareEmail, findEmails, mailtoAddresses, normaliseEmail } from '../../utils/contacts/emails';
import { findPhones, telPhone } from '../../utils/contacts/phones';

// E-mail addresses and phones in a business page's text (issue 23).

const emailsIn = (text: string) => findEmails(text).map((found) => `${found.email} ${found.how}`);

describe('findEmails', () => {
  it.each([
    ['Mail: Info@Cafe.CO.KR.', 'Info@cafe.co.kr text'],
    ['(owner.kim+shop@mail.cafe.kr)', 'owner.kim+shop@mail.cafe.kr text'],
    ["'info@cafe.kr'", 'info@cafe.kr text'],
    ['문의info@cafe.kr으로 보내주세요', 'info@cafe.kr text'],
    ['info@cafe.com.전화 02', 'info@cafe.com text'],
    ['info [at] cafe [dot] com', 'info@cafe.com obfuscated'],
    ['info(at)cafe(dot)co(dot)kr', 'info@cafe.co.kr obfuscated'],
    ['info {at} cafe.com', 'info@cafe.com obfuscated'],
    ['info [ AT ] cafe.com', 'info@cafe.com obfuscated'],
    ['info[@]cafe[.]kr', 'info@cafe.kr obfuscated'],
    ['info at cafe dot com', 'info@cafe.com obfuscated'],
    ['info AT cafe DOT co DOT kr', 'info@cafe.co.kr obfuscated'],
    ['info＠cafe.kr', 'info@cafe.kr obfuscated'],
    ['info@cafe dot kr', 'info@cafe.kr obfuscated'],
    ['info@카페.kr', 'info@카페.kr text'],
    ['info@xn--9t4b11yi5a.kr', 'info@xn--9t4b11yi5a.kr text'],
  ])('%s', (text, expected) => {
    expect(emailsIn(text)).toEqual([expected]);
  });

  it.each([
    ['meet at noon'],
    ['find us at cafe.com'],
    ['we are at cafe.kr today'],
    ['open at 9 at night'],
    ['logo@2x.png and image@3x.jpg, bg@2x.webp, icon@2x'],
    ['info @ cafe.com'],
    ['a@b@c.com'],
    ['=cmd@x.com'],
    ['+cmd@x.com -cmd@x.com'],
    ['!x@y.com #x@y.com'],
    ['.info@cafe.kr'],
    ['info..kim@cafe.kr'],
    [`info@cafe.c0m info@cafe.k info@cafe.${'a'.repeat(25)}`],
    ['info@cafe'],
    ['info@-cafe.kr'],
    [`${'x'.repeat(65)}@cafe.kr`],
    ['you@example.com name@cafe.kr yourname@cafe.kr user@cafe.kr test@cafe.kr email@domain.com x@email.com'],
    ['key@o447951.ingest.sentry.io 605a7baede844d278b89dc95ae0a9123@sentry-next.wixpress.com a@sentry.wixpress.com b@wixpress.com'],
    ['noreply@cafe.kr no-reply@cafe.kr do-not-reply@cafe.kr no_reply+shop@cafe.kr'],
    ['x@cafe.test y@host.localhost'],
    // Issue 36: placeholder domains under any suffix or subdomain; TLDs that do not exist; a
    // profile's handle after a network's name; an agency's or host's credit.
    ['info@mail.example.com sales@example.co.kr hello@yourcompany.com admin@domain.co.kr contact@mycompany.kr'],
    ['jquery@3.6.min bootstrap@5.3.css@x lodash@4.17.min'],
    ['Instagram@cafe.seoul IG@cafe.official'],
    ['design by studio@webagency.co.kr'],
    ['Designed by Kim Studio: hello@kimstudio.kr'],
    ['Website by Pixel: team@pixel.co.kr'],
    ['홈페이지 제작 webmaster@builder.co.kr'],
    ['호스팅 제공 : support@host.co.kr'],
  ])('none in %s', (text) => {
    expect(emailsIn(text)).toEqual([]);
  });

  it("an address after a credit in another phrase is the business's; an IDN address is kept as written (issue 36)", () => {
    expect(emailsIn('Design by Studio | Contact: info@cafe.kr')).toEqual(['info@cafe.kr text']);
    // A business whose own trade is making or designing things (the skeptical review's cases).
    for (const [text, address] of [
      ['주문제작 문의: cake@bakery.kr', 'cake@bakery.kr'],
      ['상호: 하늘디자인  대표: 홍길동  이메일: info@haneul.kr', 'info@haneul.kr'],
      ['간판제작 전문 info@ooad.kr', 'info@ooad.kr'],
      ['영상제작 문의 studio@video.kr', 'studio@video.kr'],
      ['Made by hand in Seoul. Contact info@cafe.kr', 'info@cafe.kr'],
      ['Handmade by Jane — jane@shop.co.uk', 'jane@shop.co.uk'],
      ['blog@cafe.kr kakao@cafe.kr', 'blog@cafe.kr'],
      ['sales@email.co.kr', 'sales@email.co.kr'],
      ['sales@company.co.kr', 'sales@company.co.kr'],
    ] as const)
      expect(emailsIn(text)[0], text).toBe(`${address} text`);
    expect(emailsIn('디자인 카페 · 이메일 info@cafe.kr')).toEqual(['info@cafe.kr text']);
    expect(emailsIn('문의: info@카페.한국 으로')).toEqual(['info@카페.한국 text']);
    expect(normaliseEmail('info@xn--hq1bm8jm9l.xn--3e0b707e', 'as-address')).toBe('info@xn--hq1bm8jm9l.xn--3e0b707e');
    // A real address on a long suffix still reads, as does one on a new gTLD.
    expect(emailsIn('info@cafe.seoul.kr hello@cafe.coffee')).toEqual(['info@cafe.seoul.kr text', 'hello@cafe.coffee text']);
  });

  it('each address once, case-insensitively, in order of appearance', () => {
    expect(emailsIn('B@cafe.kr, a@cafe.kr, b@CAFE.kr, b [at] cafe [dot] kr')).toEqual(['B@cafe.kr text', 'a@cafe.kr text']);
  });

  it('megabytes of hostile text end quickly', () => {
    const started = performance.now();
    const text = `${' '.repeat(300_000)}at${'a.'.repeat(200_000)}${'@'.repeat(100_000)}${'x[at]'.repeat(50_000)}`;
    expect(findEmails(text)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('normaliseEmail, mailto: and Cloudflare', () => {
  it('keeps the local part as written and lower-cases the domain', () => {
    expect(normaliseEmail(' <Kim.Owner@Cafe.Co.KR>. ')).toBe('Kim.Owner@cafe.co.kr');
    expect(normaliseEmail('info@cafe..kr')).toBeNull();
    expect(normaliseEmail('info@cafe.kr@x')).toBeNull();
  });

  it('mailto: URLs: escapes decoded, the query dropped, lists and display names split', () => {
    expect(mailtoAddresses('mailto:a%40cafe.kr;b@cafe.kr,%20Desk%20%3Cc@cafe.kr%3E?subject=hi,there')).toEqual(['a@cafe.kr', 'b@cafe.kr', 'c@cafe.kr']);
    expect(mailtoAddresses('mailto:100%-real@cafe.kr')).toEqual(['100%-real@cafe.kr']);
    expect(mailtoAddresses('mailto:?subject=x')).toEqual([]);
  });

  it("Cloudflare's hex: the first byte is the key", () => {
    // "a@b.kr" XOR 0x42, written out: 61^42=23, 40^42=02, 62^42=20, 2e^42=6c, 6b^42=29, 72^42=30.
    expect(decodeCloudflareEmail('42230220' + '6c2930')).toBe('a@b.kr');
    expect(decodeCloudflareEmail('42')).toBeNull();
    expect(decodeCloudflareEmail('4223022')).toBeNull();
    expect(decodeCloudflareEmail('42zz')).toBeNull();
    expect(decodeCloudflareEmail('00ff')).toBeNull();
  });
});

describe('phones', () => {
  it('tel: links, without their RFC 3966 parameters; not numbers, none', () => {
    expect(telPhone('tel:+82-2-123-4567;ext=12')).toBe('+82-2-123-4567');
    expect(telPhone('TEL:02%20123%204567')).toBe('02 123 4567');
    expect(telPhone('tel:=1+2')).toBeNull();
    expect(telPhone('tel:112')).toBeNull();
    expect(telPhone('tel:1234567890123456')).toBeNull();
  });

  it('numbers in text in the shapes that are surely numbers', () => {
    const text = [
      'Tel 02-123-4567 · 010.1234.5678 · (031) 123-4567 · 1588-1234 · +82 2 1234 5678 · +82-10-1234-5678 · +821012345678',
      'London 020 7946 0958',
      'Tel/Fax 051-123-4567',
    ].join('\n');
    expect(findPhones(text)).toEqual([
      '02-123-4567',
      '010.1234.5678',
      '(031) 123-4567',
      '1588-1234',
      '+82 2 1234 5678',
      '+82-10-1234-5678',
      '+821012345678',
      '020 7946 0958',
      '051-123-4567',
    ]);
  });

  it('not dates, registration numbers, prices, versions, faxes or parts of longer numbers', () => {
    const text = [
      '2024-12-03 · 2024.12.03 · 사업자등록번호 123-45-67890 · 통신판매 2024-서울강남-01234',
      '12,000원 · v10.1234.5678 · 02-123-45678 · 9902-123-4567 · id=02-123-4567x',
      'FAX 02-123-4568 · F. 02-123-4569 · 팩스: 02-123-4570',
    ].join('\n');
    expect(findPhones(text)).toEqual([]);
  });
});
