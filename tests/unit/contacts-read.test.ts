import { describe, expect, it } from 'vitest';
import { pickContactPages } from '../../utils/contacts/contact-links';
import { decodePage } from '../../utils/contacts/decode';
import { readPage } from '../../utils/contacts/read-page';

// The contacts pass's page readers (issue 23): a page's bytes to text, the text to contacts.

/**
 * EUC-KR bytes written by hand from the KS X 1001 table, so the tests do not trust the decoder
 * they test: 문 B9AE, 의 C0C7, 연 BFAC, 락 B6F4, 처 C3B3, 카 C4AB, 페 C6E4.
 */
const EUC_KR: Record<string, [number, number]> = {
  문: [0xb9, 0xae],
  의: [0xc0, 0xc7],
  연: [0xbf, 0xac],
  락: [0xb6, 0xf4],
  처: [0xc3, 0xb3],
  카: [0xc4, 0xab],
  페: [0xc6, 0xe4],
};
function eucKr(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) bytes.push(code);
    else if (EUC_KR[ch]) bytes.push(...EUC_KR[ch]);
    else throw new Error(`no hand-written EUC-KR bytes for ${ch}`);
  }
  return new Uint8Array(bytes);
}
const utf8 = (text: string) => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((part) => [...part]));

/** Cloudflare's encoding, written from its description: a key byte, then each byte XOR the key, in hex. */
function cfEncode(email: string, key: number): string {
  const hex = (b: number) => b.toString(16).padStart(2, '0');
  return hex(key) + [...utf8(email)].map((b) => hex(b ^ key)).join('');
}

describe('decodePage: the charset a browser would use', () => {
  it('hand-written EUC-KR bytes are what the WHATWG euc-kr decoder reads', () => {
    expect(decodePage(eucKr('문의 연락처 카페'), 'text/html; charset=euc-kr')).toEqual({ text: '문의 연락처 카페', charset: 'euc-kr' });
  });

  it('a byte order mark beats the Content-Type, which beats the <meta>', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    expect(decodePage(concat(bom, utf8('문의')), 'text/html; charset=euc-kr')).toEqual({ text: '문의', charset: 'utf-8' });
    const page = concat(utf8('<meta charset="utf-8">'), eucKr('문의'));
    expect(decodePage(page, 'text/html; charset="ks_c_5601-1987"')).toEqual({ text: '<meta charset="utf-8">문의', charset: 'euc-kr' });
  });

  it('Korean labels map to euc-kr: WHATWG ones and cp949, which the WHATWG table lacks', () => {
    for (const label of ['ks_c_5601-1987', 'KS_C_5601-1987', 'korean', 'windows-949', 'cp949', 'CP949']) {
      expect(decodePage(concat(utf8(`<meta charset="${label}">`), eucKr('문의')), null).charset).toBe('euc-kr');
    }
  });

  it('an unknown Content-Type label falls through to the <meta>', () => {
    expect(decodePage(concat(utf8('<meta charset=euc-kr>'), eucKr('카페')), 'text/html; charset=bogus').text).toBe('<meta charset=euc-kr>카페');
  });

  it('the http-equiv form counts only with http-equiv="Content-Type"', () => {
    const head = (attributes: string) => utf8(`<html><head><META ${attributes}>`);
    const cafe1252 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x21]); // "café!" in windows-1252, not valid UTF-8
    expect(decodePage(concat(head('http-equiv="Content-Type" content="text/html; charset=windows-1252"'), cafe1252), null)).toMatchObject({
      charset: 'windows-1252',
    });
    expect(decodePage(concat(head(`content='text/html;charset="euc-kr"' http-equiv=content-type`), eucKr('문의')), null).text).toMatch(/문의$/);
    // Without the pragma the content's charset is not a declaration: the bytes are sniffed instead.
    expect(decodePage(concat(head('content="text/html; charset=windows-1252"'), cafe1252), null).charset).toBe('euc-kr');
  });

  it('the prescan skips comments and reads only the first 1024 bytes', () => {
    const cafeUtf8 = utf8('café');
    expect(decodePage(concat(utf8('<!-- <meta charset="windows-1252"> -->'), cafeUtf8), null)).toMatchObject({ charset: 'utf-8' });
    expect(decodePage(concat(utf8(`<p>${'x'.repeat(1100)}</p><meta charset="windows-1252">`), cafeUtf8), null).charset).toBe('utf-8');
    expect(decodePage(concat(utf8(`<p>${'x'.repeat(900)}</p><meta charset="windows-1252">`), cafeUtf8), null).charset).toBe('windows-1252');
    // A `>` inside a quoted attribute of another tag does not end that tag early.
    expect(decodePage(concat(utf8('<div title="a > <meta charset=windows-1252>">'), cafeUtf8), null).charset).toBe('utf-8');
  });

  it('a page that says it is UTF-16 in ASCII is UTF-8', () => {
    expect(decodePage(concat(utf8('<meta charset="utf-16">'), utf8('문의')), null)).toEqual({ text: '<meta charset="utf-16">문의', charset: 'utf-8' });
  });

  it('nothing declared: UTF-8 when it decodes cleanly, else EUC-KR', () => {
    expect(decodePage(utf8('<p>문의</p>'), 'text/html')).toEqual({ text: '<p>문의</p>', charset: 'utf-8' });
    expect(decodePage(concat(utf8('<p>'), eucKr('문의'), utf8('</p>')), 'text/html')).toEqual({ text: '<p>문의</p>', charset: 'euc-kr' });
    // Cut by the size cap in the middle of a character: still UTF-8.
    const cut = utf8('<p>연락처</p>문').subarray(0, -1);
    expect(decodePage(cut, null).charset).toBe('utf-8');
  });
});

const PAGE = 'https://cafe.example.kr/home/index.html';

describe('readPage: what a page gives the contacts pass', () => {
  it('mailto links: percent-escapes decoded, the query dropped, several addresses split', () => {
    const reading = readPage(
      `<a href="mailto:Info%40Cafe.CO.KR?subject=Hello%20there">write</a>
       <a href=" MAILTO:owner@cafe.kr, Booking Desk <booking@cafe.kr>?cc=x@cafe.kr">both</a>`,
      PAGE,
    );
    expect(reading.emails).toEqual([
      { email: 'Info@cafe.co.kr', page: PAGE, how: 'mailto' },
      { email: 'owner@cafe.kr', page: PAGE, how: 'mailto' },
      { email: 'booking@cafe.kr', page: PAGE, how: 'mailto' },
    ]);
  });

  it('nothing a page hides from people: hidden, aria-hidden, display:none or visibility:hidden (spam traps; issue 36)', () => {
    const reading = readPage(
      `<p>info@cafe.kr</p>
       <div hidden>trap1@cafe.kr</div>
       <span aria-hidden="true"><a href="mailto:trap2@cafe.kr">x</a></span>
       <div style="color:red; display: none !important">trap3@cafe.kr <b>trap4@cafe.kr</b></div>
       <p style="visibility:hidden"><span data-cfemail="2a5e584b5a1e6a494b4c4f04414f">x</span></p>
       <div aria-hidden="false">shown@cafe.kr<br hidden></div>
       <p>after@cafe.kr</p>`,
      PAGE,
    );
    expect(reading.emails.map((e) => e.email)).toEqual(['info@cafe.kr', 'shown@cafe.kr', 'after@cafe.kr']);
  });

  it("Cloudflare's data-cfemail on any element and its email-protection links", () => {
    const reading = readPage(
      `<span class="__cf_email__" data-cfemail="${cfEncode('hello@cafe.kr', 0x5a)}">[email&#160;protected]</span>
       <a href="/cdn-cgi/l/email-protection#${cfEncode('owner@cafe.kr', 0x13)}">mail us</a>
       <a href="https://cafe.example.kr/cdn-cgi/l/email-protection#${cfEncode('Hello@cafe.kr', 0x77)}">again</a>
       <a href="/cdn-cgi/l/email-protection#${cfEncode('desk@cafe.kr', 0x08)}?subject=Booking">book</a>
       <b data-cfemail="zz12">broken</b>`,
      PAGE,
    );
    expect(reading.emails.map((e) => [e.email, e.how])).toEqual([
      ['hello@cafe.kr', 'cfemail'],
      ['owner@cafe.kr', 'cfemail'],
      ['desk@cafe.kr', 'cfemail'],
    ]);
    expect(reading.links).toEqual([]);
  });

  it('page text, entities decoded and obfuscations undone; an address in the text and a mailto is one, the mailto', () => {
    const reading = readPage(
      `<p>Write to info&#64;cafe.kr or sales [at] cafe [dot] kr.</p>
       <p>Owner: <a href="mailto:owner@cafe.kr">owner@cafe.kr</a></p>
       <p>kim<span>@</span>cafe.kr</p>`,
      PAGE,
    );
    expect(reading.emails.map((e) => [e.email, e.how])).toEqual([
      ['owner@cafe.kr', 'mailto'],
      ['info@cafe.kr', 'text'],
      ['sales@cafe.kr', 'obfuscated'],
      ['kim@cafe.kr', 'text'],
    ]);
  });

  it('blocks separate text: cells side by side do not run into one address', () => {
    const reading = readPage('<table><tr><td>info@cafe.kr</td><td>Tel</td></tr></table><div>a@cafe.kr</div><div>b</div>', PAGE);
    expect(reading.emails.map((e) => e.email)).toEqual(['info@cafe.kr', 'a@cafe.kr']);
  });

  it('what a script writes, styles and templates are not read; <noscript> is', () => {
    const reading = readPage(
      `<script>document.write('<a href="mailto:js@cafe.kr">js@cafe.kr</a>')</script>
       <style>/* css@cafe.kr */</style>
       <template><p>tpl@cafe.kr</p><a href="mailto:tpl2@cafe.kr">x</a></template>
       <noscript><p>nojs@cafe.kr</p></noscript>
       <p>after@cafe.kr</p>`,
      PAGE,
    );
    expect(reading.emails.map((e) => e.email)).toEqual(['nojs@cafe.kr', 'after@cafe.kr']);
  });

  it('hostile text is no address; an address the page gives as one (mailto, Cloudflare) is kept as written, for the export to neutralise', () => {
    const reading = readPage(
      `<p>=cmd|' /C calc'!A0@evil.com</p><p>=HYPERLINK@x.com</p><a href="mailto:=cmd@x.com">x</a>
       <a href="mailto:+sum@x.com">y</a><span data-cfemail="${cfEncode('=1+1@x.com', 0x21)}"></span>
       <a href="mailto:=cmd|' /C calc'!A0@evil.com">z</a>`,
      PAGE,
    );
    // RFC 5322's dot-atom allows = and + in a local part, not quotes, spaces or `|' /C`.
    expect(reading.emails.map((e) => [e.email, e.how])).toEqual([
      ['=cmd@x.com', 'mailto'],
      ['+sum@x.com', 'mailto'],
      ['=1+1@x.com', 'cfemail'],
    ]);
  });

  it('links: absolute against <base href>, fragment dropped, only http(s), with the words a person sees', () => {
    const reading = readPage(
      `<head><base href="https://cafe.example.kr/ko/"></head>
       <a href="contact.html#form">  Contact
         us </a>
       <a href="/about"><img src="a.png" alt="About the cafe"></a>
       <a href="https://other.kr/x" aria-label="Partner"></a>
       <a href="javascript:void(0)">menu</a><a href="tel:02-123-4567">call</a>
       <a href="ftp://cafe.example.kr/file">ftp</a><a>no href</a>`,
      PAGE,
    );
    expect(reading.links).toEqual([
      { href: 'https://cafe.example.kr/ko/contact.html', text: 'Contact us' },
      { href: 'https://cafe.example.kr/about', text: 'About the cafe' },
      { href: 'https://other.kr/x', text: 'Partner' },
    ]);
  });

  it('without <base href> links resolve against the page itself', () => {
    expect(readPage('<a href="../contact">c</a>', PAGE).links).toEqual([{ href: 'https://cafe.example.kr/contact', text: 'c' }]);
  });

  it('a meta refresh target, resolved; none when it only reloads; one inside <noscript> is not followed', () => {
    expect(readPage(`<meta http-equiv="Refresh" content="0; URL='/new/home'">`, PAGE).refreshTo).toBe('https://cafe.example.kr/new/home');
    expect(readPage(`<meta http-equiv="refresh" content="3;url=https://moved.kr/#top">`, PAGE).refreshTo).toBe('https://moved.kr/');
    expect(readPage(`<meta http-equiv="refresh" content="30">`, PAGE).refreshTo).toBeNull();
    expect(readPage(`<noscript><meta http-equiv="refresh" content="0; url=/nojs.html"></noscript>`, PAGE).refreshTo).toBeNull();
    expect(readPage(`<meta http-equiv="refresh" content="0; url=javascript:alert(1)">`, PAGE).refreshTo).toBeNull();
  });

  it("social profiles: each network's in page order (the first is the one kept, the rest told apart across the pass), tracking parameters dropped; share buttons are not profiles", () => {
    const reading = readPage(
      `<header><a href="https://www.instagram.com/Cafe_One/?utm_source=site&igshid=abc">ig</a>
        <a href="https://www.facebook.com/sharer/sharer.php?u=https://cafe.example.kr">share</a></header>
       <main><a href="https://m.facebook.com/cafeone?ref=footer">fb</a></main>
       <footer><a href="https://instagram.com/web_agency">made by</a><a href="https://pf.kakao.com/_xkxaZxl/chat">talk</a></footer>`,
      PAGE,
    );
    expect(reading.socials).toEqual([
      { network: 'instagram', url: 'https://www.instagram.com/cafe_one', page: PAGE },
      { network: 'facebook', url: 'https://www.facebook.com/cafeone', page: PAGE },
      { network: 'instagram', url: 'https://www.instagram.com/web_agency', page: PAGE },
      { network: 'kakao_channel', url: 'https://pf.kakao.com/_xkxaZxl', page: PAGE },
    ]);
  });

  it('phones from tel: links and from text, each once by its digits; a fax is not a phone', () => {
    const reading = readPage(
      `<a href="tel:+82-2-123-4567;ext=1">call</a><a href="tel:javascript">x</a>
       <p>T. 02-123-4567 F. 02-123-4568</p><p>대표전화 1588-1234 · 사업자등록번호 123-45-67890 · 2024-12-03</p>
       <p>+82 2 123 4567</p>`,
      PAGE,
    );
    expect(reading.phones).toEqual(['+82-2-123-4567', '02-123-4567', '1588-1234']);
  });

  it('a hostile 2 MB page: read in bounded time, link words capped', () => {
    const started = performance.now();
    const html = `<a href="mailto:${'a,'.repeat(300_000)}"></a><a href="/contact">${'y'.repeat(700_000)}${'<b>x</b>'.repeat(50_000)}</a>${'<a href="/x">'.repeat(30_000)}<p>${'x@'.repeat(200_000)}</p>`;
    const reading = readPage(html, PAGE);
    expect(reading.links).toHaveLength(30_001);
    expect(reading.links[0]!.text).toHaveLength(200);
    expect(reading.emails).toEqual([]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('an EUC-KR home page: its 문의 link is the contact page the pass reads next', () => {
    const bytes = concat(
      utf8('<html><head><meta http-equiv="Content-Type" content="text/html; charset=euc-kr"></head><body><a href="/board/list.php?id=qna">'),
      eucKr('문의'),
      utf8('</a><a href="/menu.html">menu</a><p>'),
      eucKr('연락처'),
      utf8(': cafe&#64;cafe.kr</p></body></html>'),
    );
    const { text } = decodePage(bytes, 'text/html');
    const reading = readPage(text, 'http://www.cafe.kr/');
    expect(reading.emails).toEqual([{ email: 'cafe@cafe.kr', page: 'http://www.cafe.kr/', how: 'text' }]);
    expect(pickContactPages(reading.links, 'http://www.cafe.kr/')).toEqual(['http://www.cafe.kr/board/list.php?id=qna']);
  });
});

describe("the page's own structured data and frames", () => {
  it('reads schema.org email, telephone and sameAs from JSON-LD, and no other script', () => {
    const reading = readPage(
      `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"CafeOrCoffeeShop","email":"mailto:hello@bean.kr","telephone":"+82 2-123-4567","sameAs":["https://www.instagram.com/bean_kr/?hl=ko","https://example.org/not-a-profile"]}]}</script>
       <script type="application/ld+json">{ not json </script>
       <script>var a = "hidden@bean.kr";</script>`,
      PAGE,
    );
    expect(reading.emails.map((e) => [e.email, e.how])).toEqual([['hello@bean.kr', 'structured']]);
    expect(reading.phones).toEqual(['+82 2-123-4567']);
    expect(reading.socials.map((p) => p.url)).toEqual(['https://www.instagram.com/bean_kr']);
  });

  it('names the frames of a frameset page, absolute', () => {
    const reading = readPage(`<frameset rows="0,*"><frame src="/top.html"><frame src="main.html"></frameset>`, 'https://old.co.kr/index.html');
    expect(reading.frames).toEqual(['https://old.co.kr/top.html', 'https://old.co.kr/main.html']);
  });
});
