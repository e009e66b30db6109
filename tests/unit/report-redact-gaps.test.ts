/**
 * The page report's redaction (issue 41, utils/report/redact.ts), the gaps a review found: content
 * that survived verbatim in styles, in attributes the redactor passed through, in scripts a regex
 * literal confused, and in the report's address. One test per gap, on small pages of our own; then
 * the redacted Amsterdam feed still read by the Google reader (needs ../shared/real-pages).
 */
import { describe, expect, it } from 'vitest';
import { extractFeed } from '../../utils/providers/google/feed';
import { GOOGLE_INTERFACE_WORDS, interfaceWordsFor } from '../../utils/report/interface-words';
import { redactDocument, redactHtml } from '../../utils/report/redact';
import { strippedUrl } from '../../utils/report/report';
import { readRealPage, realPageParser, realPagesDescribe } from '../helpers/real-pages';

const parse = realPageParser();
const url = 'https://www.google.com/maps';
const redacted = (body: string, head = ''): string =>
  redactHtml(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`, (h) => parse(h, url), { keep: GOOGLE_INTERFACE_WORDS }).html;
const redactedDoc = (body: string, head = ''): Document => parse(redacted(body, head), url);

describe('what the review found kept verbatim is redacted', () => {
  it('styles: the content of CSS strings is shaped, in a style element and in a style attribute; the rest of the CSS stays', () => {
    const out = redacted(
      '<div id="a" style="--who: \'Joe Smithers\'; color: red">x</div><div id="b" style="font-family: &quot;Roboto&quot;, Arial">y</div>',
      '<style>.x::after{content:"Joe Smithers Pizza"}.y{content:\'\\201C\'}.z{background:url("/maps/a.png")}/* Joe\'s */</style>',
    );
    expect(out).not.toMatch(/Smithers|Joe|Pizza/);
    expect(out).toContain('.x::after{content:"Aaa Aaaaaaaa Aaaaa"}');
    expect(out).toContain(".y{content:'\\201C'}");
    expect(out).toContain('.z{background:url("/maps/a.aaa")}/**/</style>');
    const doc = parse(out, url);
    expect(doc.getElementById('a')!.getAttribute('style')).toBe("--who: 'Aaa Aaaaaaaa'; color: red");
    expect(doc.getElementById('b')!.getAttribute('style')).toBe('font-family: "Aaaaaa", Arial');
  });

  it("data-* values: a name written as an identifier is shaped; the readers' data words and prefixes stay", () => {
    const doc = redactedDoc(
      '<div id="n" data-name="starbucks" data-owner="kimMinjun" data-k="joe_smithers-x"></div>' +
        '<div id="r" data-item-id="address"></div><div id="p" data-item-id="phone:tel:+31206200922"></div><div id="w" data-item-id="authority"></div>' +
        '<div id="i" data-item-id="place-info-links:"></div><div id="s" data-id="screenOutName"></div><li id="ad" data-laim-exp-id="undefined*e"></li>',
    );
    const n = doc.getElementById('n')!;
    expect([n.getAttribute('data-name'), n.getAttribute('data-owner'), n.getAttribute('data-k')]).toEqual(['aaaaaaaaa', 'aaaAaaaaa', 'aaa_aaaaaaaa-x']);
    expect(doc.getElementById('r')!.getAttribute('data-item-id')).toBe('address');
    expect(doc.getElementById('p')!.getAttribute('data-item-id')).toMatch(/^phone:tel:\+\d{11}$/);
    expect(doc.getElementById('p')!.getAttribute('data-item-id')).not.toContain('31206200922');
    expect(doc.getElementById('w')!.getAttribute('data-item-id')).toBe('authority');
    expect(doc.getElementById('i')!.getAttribute('data-item-id')).toBe('place-info-links:');
    expect(doc.getElementById('s')!.getAttribute('data-id')).toBe('screenOutName');
    expect(doc.getElementById('ad')!.getAttribute('data-laim-exp-id')).toBe('undefined*e');
  });

  it('class: a token that is an e-mail, a phone number or a long digit run is shaped, the other classes stay as written', () => {
    const doc = redactedDoc('<div id="c" class="Nv2PK joe.smithers@gmail.com THOPZb tel-010-1234-5678 u31206200922 hfpxzc"></div>');
    const cls = doc.getElementById('c')!.getAttribute('class')!;
    expect(cls).not.toMatch(/smithers|gmail|1234|5678|31206200922/);
    expect(cls.split(' ')).toHaveLength(6);
    expect(cls).toMatch(/^Nv2PK \S+@\S+ THOPZb \S+ \S+ hfpxzc$/);
  });

  it('unknown attributes are redacted by default; the attributes the readers read keep their values', () => {
    const doc = redactedDoc(
      '<form><input id="q" name="JoeSmithers" autocomplete="off" type="text"><input id="q2" name="q"></form>' +
        '<div id="u" foo="Smithers" owner-name="kim minjun" role="article" jsaction="pane.wfvdle46;focus:pane.focus" aria-controls="ydp1wd-haAclf" aria-hidden="true" aria-expanded="false" tabindex="-1" lang="en"></div>' +
        '<svg viewBox="0 0 24 24"><path id="v" d="M19 6.41L17.59 5 12 10.59z" fill="#fff"></path></svg>',
    );
    const q = doc.getElementById('q')!;
    expect(q.getAttribute('name')).toBe('AaaAaaaaaaa');
    expect([q.getAttribute('autocomplete'), q.getAttribute('type')]).toEqual(['off', 'text']);
    expect(doc.getElementById('q2')!.getAttribute('name')).toBe('q');
    const u = doc.getElementById('u')!;
    expect(u.getAttribute('foo')).toBe('Aaaaaaaa');
    expect(u.getAttribute('owner-name')).toBe('aaa aaaaaa');
    expect(u.getAttribute('jsaction')).toBe('pane.wfvdle46;focus:pane.focus');
    expect(u.getAttribute('aria-controls')).toBe('ydp1wd-haAclf');
    expect([
      u.getAttribute('role'),
      u.getAttribute('aria-hidden'),
      u.getAttribute('aria-expanded'),
      u.getAttribute('tabindex'),
      u.getAttribute('lang'),
    ]).toEqual(['article', 'true', 'false', '-1', 'en']);
    expect(doc.getElementById('v')!.getAttribute('d')).toBe('M19 6.41L17.59 5 12 10.59z');
    expect(doc.getElementById('v')!.getAttribute('fill')).toBe('#fff');
  });

  it('phone numbers written with spaces in attributes kept as code are redacted', () => {
    const out = redacted(
      '<div jsan="+82 10 1234 5678">x</div><div jsdata="tel:+1 555 123 4567">y</div><div id="k" jsan="010 9876 5432;7.ttNOre,5.display">z</div>',
    );
    expect(out).not.toMatch(/1234|5678|555 123|4567|9876|5432/);
    expect(out).toContain('jsdata="tel:+0 000 000 0000"');
    expect(out).toContain(';7.ttNOre,5.display"');
  });

  it('relative URLs: the words after place, search, dir, preview and contrib are free text', () => {
    const doc = redactedDoc(
      '<a id="a" href="/maps/preview/smithers">a</a><a id="b" href="/maps/search/joe-smithers-divorce-lawyer/@37.5,127.0,14z">b</a><a id="c" href="/maps/dir/home/smithers/@37.5,127.0,14z">c</a>' +
        '<a id="d" href="https://www.google.com/maps/contrib/smithers/reviews">d</a><a id="e" href="/maps/preview/place?authuser=0">e</a><a id="f" href="https://m.place.naver.com/place/1717860225/home">f</a>',
    );
    const href = (id: string) => doc.getElementById(id)!.getAttribute('href');
    expect(href('a')).toBe('/maps/preview/aaaaaaaa');
    expect(href('b')).toBe('/maps/search/aaa-aaaaaaaa-aaaaaaa-aaaaaa/@00.0,000.0,00z');
    expect(href('c')).toBe('/maps/dir/aaaa/aaaaaaaa/@00.0,000.0,00z');
    expect(href('d')).not.toContain('smithers');
    expect(href('e')).toBe('/maps/preview/place?authuser=');
    expect(href('f')).toBe('https://m.place.naver.com/place/1000000001/home');
  });

  it("scripts: a regex literal with a quote after } or ) cannot turn a string's content into code", () => {
    const scripts = [
      "function f(){}\n/'/.test(a);var n='Joe Smithers'",
      "if(a)/'/.test(b);var n='Joe Smithers'",
      'var x=(a)/2;b="x/y";c="Joe Smithers"',
      'var x=(a)/2+"Joe Smithers"/3',
      "var z=(a)/2;b='x/y';c='Smithers';",
      "var q=(a)/2;b='x/y';c='(Smithers)';",
    ];
    for (const src of scripts) {
      const out = redacted(`<script>${src}</script>`);
      expect(out, src).not.toMatch(/Smithers|Joe/);
    }
    // Valid code is kept as code.
    expect(redacted("<script>function f(){}\n/'/.test(a);var n='Joe Smithers'</script>")).toContain(
      "<script>function f(){}\n/'/.test(a);var n='Aaa Aaaaaaaa'</script>",
    );
    expect(redacted('<script>var a=(b+c)/2,d=e/f;if(g)h();</script>')).toContain('<script>var a=(b+c)/0,d=e/f;if(g)h();</script>');
  });

  it("the report's address shapes every word after search, place, dir and preview, keeps query keys without values and drops the fragment", () => {
    expect(strippedUrl('https://www.google.com/maps/search/joe-smithers-divorce-lawyer')).toBe(
      'https://www.google.com/maps/search/aaa-aaaaaaaa-aaaaaaa-aaaaaa',
    );
    expect(strippedUrl('https://www.google.com/maps/place/smithers/@37.5,127,17z/data=!3m1?hl=en&q=joe#x')).toBe(
      'https://www.google.com/maps/place/aaaaaaaa/@00.0,000,00z/data=!3m1?hl=&q=',
    );
    expect(strippedUrl('https://map.naver.com/p/search/smithers')).toBe('https://map.naver.com/p/search/aaaaaaaa');
    expect(strippedUrl('https://www.google.com/maps/dir/joe/smithers/')).toBe('https://www.google.com/maps/dir/aaa/aaaaaaaa/');
    expect(strippedUrl('https://m.place.naver.com/restaurant/list?query=x')).toBe('https://m.place.naver.com/restaurant/list?query=');
  });
});

const realDescribe = realPagesDescribe('report-redact-gaps.test.ts');

realDescribe('the redacted Amsterdam feed', () => {
  it('is still read by the Google reader: 99 cards, 98 listings', () => {
    const html = readRealPage('google', 'gmaps_search_feed_restaurants-amsterdam_en_2025-11.html');
    const red = redactDocument(parse(html, url), { keep: interfaceWordsFor('google') });
    const feed = extractFeed(parse(red.html, url));
    expect(feed.cardsVisible).toBe(99);
    expect(feed.listings).toHaveLength(98);
    expect(feed.feed?.getAttribute('aria-label')).toMatch(/^Results for /);
  });
});
