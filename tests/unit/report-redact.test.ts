/**
 * The page report's redaction (issue 41, utils/report/redact.ts): on every real HTML capture in
 * ../shared/real-pages (SOURCES.md there says what each is), no name, address, phone, e-mail,
 * review text or id of the original survives anywhere in the output, the readers' hooks and the
 * sites' interface words do, and the DOM is the same DOM. Then the placeholders' shape, the
 * determinism and hostile input, on small pages of our own (these run without ../shared).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_INTERFACE_WORDS, interfaceWordsFor, type InterfaceWords, type ReportSite } from '../../utils/report/interface-words';
import { placeholderText, type RedactedCapture, redactDocument, redactHtml } from '../../utils/report/redact';
import { readRealPage, realPageParser, realPagesDescribe } from '../helpers/real-pages';

const realDescribe = realPagesDescribe('report-redact.test.ts');
const parse = realPageParser();

const clean = (s: string | null | undefined): string =>
  (s ?? '')
    .replace(/[\uE000-\uF8FF]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
const texts = (doc: Document, selector: string): string[] => Array.from(doc.querySelectorAll(selector), (el) => clean(el.textContent));
const attrs = (doc: Document, selector: string, name: string): string[] => Array.from(doc.querySelectorAll(selector), (el) => clean(el.getAttribute(name)));

/** `"key":"value"` pairs of the page's embedded JSON, also inside a JSON string (`\"key\":\"value\"`), decoded. */
function jsonValues(html: string, keys: readonly string[]): string[] {
  const out: string[] = [];
  const k = keys.join('|');
  for (const m of html.matchAll(new RegExp(`"(?:${k})":"((?:[^"\\\\]|\\\\.){1,300})"`, 'g'))) {
    try {
      out.push(JSON.parse(`"${m[1]}"`) as string);
    } catch {
      // not JSON-escaped: skip
    }
  }
  for (const m of html.matchAll(new RegExp(`\\\\"(?:${k})\\\\":\\\\"((?:[^"\\\\]|\\\\[^"]){1,300})\\\\"`, 'g'))) {
    try {
      out.push(JSON.parse(JSON.parse(`"${m[1]}"`) as string) as string);
    } catch {
      out.push(m[1]!);
    }
  }
  return out;
}

/** Ids anywhere in the page: feature ids, place ids, runs of 6+ digits, e-mails. */
function idsIn(html: string): string[] {
  const found = [
    ...(html.match(/0x[0-9a-f]{4,16}:0x[0-9a-f]{4,16}/gi) ?? []),
    ...(html.match(/ChIJ[\w-]{10,}/g) ?? []),
    ...(html.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? []),
  ];
  // A round number ("1000000", "000000") is no one's id; it is also what a stand-in looks like.
  for (const run of html.match(/(?<!\d)\d{6,}(?!\d)/g) ?? []) if (!/^[01]0+\d{0,3}$/.test(run)) found.push(run);
  return found;
}

interface Capture {
  site: ReportSite;
  file: string;
  url: string;
  /** The place's names, addresses, phones and review texts, read off the original. */
  secrets: (doc: Document, html: string) => string[];
  /** What the readers rely on, as it must appear in the output. */
  kept: string[];
}

const CAPTURES: Capture[] = [
  {
    site: 'google',
    file: 'gmaps_search_feed_restaurants-amsterdam_en_2025-11.html',
    url: 'https://www.google.com/maps/search/restaurants+in+Amsterdam+Centrum',
    secrets: (doc) => [
      ...attrs(doc, 'a.hfpxzc[aria-label]', 'aria-label'),
      ...texts(doc, '.qBF1Pd, h1.DUwDvf, .Io6YTe, .wiI7pd, .d4r55'),
      ...texts(doc, '.W4Efsd span').filter((t) => /\d/.test(t) && /[A-Za-z]{4}/.test(t)),
      ...attrs(doc, '[data-item-id^="phone:tel:"]', 'data-item-id').map((v) => v.slice('phone:tel:'.length)),
      ...attrs(doc, '[data-bundle-id]', 'data-bundle-id'),
    ],
    kept: [
      'aria-label="Results for ',
      'role="feed"',
      'class="Nv2PK',
      'class="hfpxzc"',
      'DUwDvf',
      'Io6YTe',
      'data-item-id="address"',
      'data-item-id="authority"',
      'data-item-id="phone:tel:+',
      'aria-label="Sponsored"',
      'stars 0,000 Reviews"',
      '"Directions"',
      '>Reviews<',
      'APP_INITIALIZATION_STATE',
      '/maps/place/',
    ],
  },
  {
    site: 'google',
    file: 'gmaps_place_page_tipsy-sticks-nicosia_en_2023-04.html',
    url: 'https://www.google.com/maps/place/Tipsy+Sticks',
    secrets: (doc) => [
      ...texts(doc, 'h1.DUwDvf, .Io6YTe, .wiI7pd, .d4r55'),
      ...attrs(doc, '[data-item-id^="phone:tel:"]', 'data-item-id').map((v) => v.slice('phone:tel:'.length)),
      'Tipsy Sticks',
    ],
    kept: ['DUwDvf', 'Io6YTe', 'F7nice', 'data-item-id="address"', 'data-item-id="phone:tel:', 'role="main"', 'APP_INITIALIZATION_STATE'],
  },
  {
    site: 'google',
    file: 'gmaps_place_page_RAW-no-js_achus-nest-kochi_en-IN_2026-07.html',
    url: 'https://www.google.com/maps/place/Achus+Nest',
    secrets: () => ['Achus Nest', 'Edappally', 'Padivattom', 'Oberon', '682024', '0x3b080d01273a820d:0xb486b938a6f7c697'],
    kept: ['APP_INITIALIZATION_STATE', '<title> Google Maps </title>', 'lang="en-IN"'],
  },
  {
    site: 'naver',
    file: 'naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html',
    url: 'https://m.place.naver.com/restaurant/list?query=x',
    secrets: (doc, html) => [
      ...texts(doc, 'li.UEzoS span.TYaxT, li.UEzoS span.KCMnt'),
      ...jsonValues(html, ['name', 'phone', 'virtualPhone', 'address', 'roadAddress', 'commonAddress', 'fullAddress', 'microReview', 'description']),
      '사당맛집',
    ],
    kept: [
      'id="_list_scroll_container"',
      'class="UEzoS',
      'TYaxT',
      'place_bluelink',
      '>광고<',
      '>별점<',
      '>저장<',
      '>리뷰 ',
      '__APOLLO_STATE__',
      '"__typename":"RestaurantListSummary"',
      '/restaurant/',
    ],
  },
  {
    site: 'naver',
    file: 'naver_mmap_search_songdo-chigwa_ko_2026-02.html',
    url: 'https://m.map.naver.com/search?query=x',
    secrets: (doc, html) => [
      ...texts(doc, 'strong[class*="_item_name"], button[class*="_item_address"]'),
      ...attrs(doc, '[data-title]', 'data-title'),
      ...attrs(doc, '[data-mail-body]', 'data-mail-body').flatMap((v) => v.split(/\n| {2,}/)),
      ...jsonValues(html, ['name', 'tel', 'virtualTel', 'address', 'roadAddress']),
      '송도 치과',
    ],
    kept: ['_list_item_sis14_40', '_item_name_sis14_275', '>길찾기<', '>공유<', '>주소보기<', '__RQ_STREAMING_STATE__', 'https://m.place.naver.com/place/'],
  },
];

function isInterface(words: InterfaceWords, s: string): boolean {
  const norm = s.replace(/\s+/g, ' ').trim().toLowerCase();
  return words.phrases.some((p) => p.toLowerCase() === norm);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `secret` survives in `out`: a digit string as a whole number (a stand-in may contain
 * it), a short Latin word as a whole word ("Pay" is no leak in the key "hasNPay"), the rest anywhere.
 */
function survives(out: string, secret: string): boolean {
  if (/^\+?[\d\s().-]+$/.test(secret)) {
    const digits = secret.replace(/\D/g, '');
    return new RegExp(`(?<!\\d)${digits}(?!\\d)`).test(out.replace(/(?<=\d)[\s().-](?=\d)/g, ''));
  }
  if (secret.length < 6 && /^[\x20-\x7e]+$/.test(secret)) return new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(secret)}(?![A-Za-z0-9])`).test(out);
  return out.includes(secret);
}

function elementsOf(doc: Document): string[] {
  return Array.from(doc.querySelectorAll('*'), (el) => `${el.localName}|${el.getAttribute('role') ?? ''}|${el.getAttribute('class') ?? ''}`).sort();
}

realDescribe('redacting the real captures', () => {
  for (const capture of CAPTURES) {
    describe(`${capture.site}/${capture.file}`, () => {
      let html: string;
      let original: Document;
      let red: RedactedCapture;
      let ms: number;
      beforeAll(() => {
        html = readRealPage(capture.site, capture.file);
        original = parse(html, capture.url);
        const t0 = performance.now();
        red = redactDocument(original, { keep: interfaceWordsFor(capture.site) });
        ms = performance.now() - t0;
        console.info(
          `${capture.file}: ${Buffer.byteLength(html)} → ${Buffer.byteLength(red.html)} bytes, text nodes kept ${red.stats.textNodes.kept} / partly ${red.stats.textNodes.partly} / redacted ${red.stats.textNodes.redacted}, ${red.stats.ids} ids, ${ms.toFixed(0)} ms`,
        );
      });

      it('keeps no name, address, phone, e-mail, review text or id of the original', () => {
        const words = interfaceWordsFor(capture.site);
        const secrets = [...new Set([...capture.secrets(original, html), ...idsIn(html)])]
          .map((s) => s.trim())
          .filter((s) => s.length >= 3 && !isInterface(words, s) && (/\p{L}/u.test(s) || s.replace(/\D/g, '').length >= 6));
        // The lists are read off the page: an empty one would prove nothing.
        expect(secrets.length).toBeGreaterThan(15);
        const leaks = secrets.filter((s) => survives(red.html, s));
        expect(leaks).toEqual([]);
      });

      it("keeps the readers' hooks and the site's interface words", () => {
        const missing = capture.kept.filter((k) => !red.html.includes(k));
        expect(missing).toEqual([]);
        expect(red.stats.textNodes.kept + red.stats.textNodes.partly).toBeGreaterThan(0);
        expect(red.stats.textNodes.redacted).toBeGreaterThan(0);
      });

      it('is the same DOM: every element, its tag, role and classes', () => {
        const again = parse(red.html, capture.url);
        expect(again.querySelectorAll('*').length).toBe(original.querySelectorAll('*').length);
        expect(elementsOf(again)).toEqual(elementsOf(original));
        expect(red.stats.elements).toBe(original.querySelectorAll('*').length);
        if (original.doctype) expect(red.html.startsWith('<!DOCTYPE html>')).toBe(true);
      });
    });
  }

  it('gives the same bytes for the same page', () => {
    const html = readRealPage('naver', 'naver_mplace_restaurant_list_sadang-matjip_ko_2025-03.html');
    const url = 'https://m.place.naver.com/restaurant/list';
    const a = redactHtml(html, (h) => parse(h, url), { keep: interfaceWordsFor('naver') });
    const b = redactHtml(html, (h) => parse(h, url), { keep: interfaceWordsFor('naver') });
    expect(a.html).toBe(b.html);
    expect(a.stats).toEqual(b.stats);
  });
});

describe('placeholders keep the shape of what they replace', () => {
  const page = (body: string): string => `<!DOCTYPE html><html><head></head><body>${body}</body></html>`;
  const redact = (body: string, keep: InterfaceWords = GOOGLE_INTERFACE_WORDS): Document =>
    parse(redactHtml(page(body), (h) => parse(h, 'https://www.google.com/maps'), { keep }).html, 'https://www.google.com/maps');
  const nonDigits = (s: string): string => s.replace(/\d/g, '#');

  it('a phone keeps its length and where its digits are', () => {
    const out = redact('<p>+82 2-123-4567</p><p>0507-1467-3650</p><p>+31206200922</p>');
    const [a, b, c] = texts(out, 'p');
    expect(a).toHaveLength('+82 2-123-4567'.length);
    expect(nonDigits(a!)).toBe(nonDigits('+82 2-123-4567'));
    expect(a).not.toBe('+82 2-123-4567');
    expect(nonDigits(b!)).toBe('####-####-####');
    expect(b).not.toContain('1467');
    expect(nonDigits(c!)).toBe('+###########');
    expect(c).not.toContain('31206200922');
  });

  it('a time range, a rating and a count keep theirs; the words beside them stay', () => {
    const out = redact('<p>09:00–22:00</p><p>4.7</p><p>(8,713)</p><span role="img" aria-label="4.5 stars 1,234 Reviews"></span><p>· Opens 12 PM</p>');
    expect(texts(out, 'p')).toEqual(['00:00–00:00', '0.0', '(0,000)', '· Opens 00 PM']);
    expect(out.querySelector('[role="img"]')!.getAttribute('aria-label')).toBe('0.0 stars 0,000 Reviews');
  });

  it('Hangul stays Hangul, Latin stays Latin, and their case', () => {
    const out = redact('<p>카페 모모 강남점</p><p>The Pantry</p><p>Κυπριακόν</p><p>서울 서초구 방배천로2길 29-2</p>', interfaceWordsFor('naver'));
    const [ko, en, el, addr] = texts(out, 'p');
    expect(ko).toBe('가가 가가 가가가');
    expect(en).toBe('Aaa Aaaaaa');
    expect(el).toMatch(/^Α[α]+$/);
    expect(addr).toBe('가가 가가가 가가가가0가 00-0');
  });

  it("an interface word is kept, a name that only contains one is not; Google's card label is a name", () => {
    const out = redact(
      '<div role="feed" aria-label="Results for cafe in Seoul"><a class="hfpxzc" aria-label="Open Kitchen" href="/maps/place/Open+Kitchen/data=!4m7!3m6!1s0x47c609e91734d71b:0xb13072d0007a87d1!8m2!3d52.3!4d4.8?authuser=0&hl=en">x</a><span>Open</span><span>Sponsored</span><div>You\'ve reached the end of the list.</div></div>',
    );
    expect(out.querySelector('[role="feed"]')!.getAttribute('aria-label')).toBe('Results for aaaa aa Aaaaa');
    const link = out.querySelector('a.hfpxzc')!;
    expect(link.getAttribute('aria-label')).toBe('Aaaa Aaaaaaa');
    expect(link.getAttribute('href')).toBe('/maps/place/Aaaa+Aaaaaaa/data=!4m7!3m6!1s0x0000000000000001:0x0000000000000002!8m2!3d00.0!4d0.0?authuser=&hl=');
    expect(texts(out, 'span')).toEqual(['Open', 'Sponsored']);
    expect(texts(out, '[role="feed"] > div')).toEqual(["You've reached the end of the list."]);
  });

  it('the same id gets the same stand-in everywhere, two ids never one', () => {
    const out = redact(
      '<a href="https://m.place.naver.com/place/1717860225/home" data-cid="1717860225">1</a><a href="https://m.place.naver.com/place/1331477563/home" data-cid="1331477563">2</a><script>var s={"PlaceSummary:1717860225":{"id":"1717860225","tel":"0507-1467-3650"}}</script>',
      interfaceWordsFor('naver'),
    );
    const [a, b] = Array.from(out.querySelectorAll('a'));
    const idA = /place\/(\d+)\/home/.exec(a!.getAttribute('href')!)![1]!;
    const idB = /place\/(\d+)\/home/.exec(b!.getAttribute('href')!)![1]!;
    expect(idA).toHaveLength(10);
    expect(idA).not.toBe(idB);
    expect(a!.getAttribute('data-cid')).toBe(idA);
    const script = out.querySelector('script')!.textContent!;
    expect(script).toBe(`var s={"PlaceSummary:${idA}":{"id":"${idA}","tel":"0000-0000-0000"}}`);
  });

  it("a URL keeps the site's host and path words, loses a business's host and words, query values and fragment", () => {
    const out = redact(
      '<a id="w" href="https://www.instagram.com/cafemomo/?hl=en&igsh=abc#top">w</a><a id="s" href="https://www.google.com/maps/search/cafe/@37.5665,126.978,17z?entry=ttu">s</a><a id="t" href="tel:+82-2-598-9229">t</a><a id="m" href="mailto:info@cafe-momo.kr?subject=Hi">m</a><a id="k" href="https://m.place.naver.com/place/1717860225/home?entry=pll#x">k</a>',
    );
    const href = (id: string) => out.getElementById(id)!.getAttribute('href');
    expect(href('w')).toBe('https://aaa.aaaaaaaaa.aaa/aaaaaaaa/?hl=&igsh=');
    expect(href('s')).toBe('https://www.google.com/maps/search/aaaa/@00.0000,000.000,00z?entry=');
    expect(href('t')).toBe('tel:+00-0-000-0000');
    expect(href('m')).toBe('mailto:aaaa@aaaa-aaaa.aa?subject=');
    expect(href('k')).toBe('https://m.place.naver.com/place/1000000001/home?entry=');
  });

  it('placeholderText alone', () => {
    expect(placeholderText('Tipsy Sticks, 22 783333 (4.5★)')).toBe('Aaaaa Aaaaaa, 00 100001 (0.0★)');
  });
});

describe('hostile input stays inert, escaped HTML', () => {
  const url = 'https://www.google.com/maps';

  it('a formula, markup written as text, a javascript: link, quotes in attributes', () => {
    const input =
      '<!DOCTYPE html><html><head><title>x</title></head><body>' +
      '<p id="f">=HYPERLINK("http://evil.example/?q=1","click")</p>' +
      '<p id="t">&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;</p>' +
      '<a id="j" href="javascript:alert(document.cookie)">go</a>' +
      '<a id="k" href=" JaVa&#10;ScRiPt:alert(1)">go</a>' +
      '<a id="d" href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">go</a>' +
      '<div id="q" title="a&quot;b&lt;c&gt;d" data-x="\'&quot;><script>alert(3)</script>"></div>' +
      '<textarea id="ta">&lt;/textarea&gt;&lt;script&gt;alert(4)&lt;/script&gt;</textarea>' +
      '</body></html>';
    const red = redactHtml(input, (h) => parse(h, url), { keep: GOOGLE_INTERFACE_WORDS });
    const doc = parse(red.html, url);
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    expect(doc.getElementById('f')!.textContent).toBe('=AAAAAAAAA("aaaa://aaaa.aaaaaaa/?a=0","aaaaa")');
    expect(doc.getElementById('t')!.textContent).toBe('<aaaaaa>aaaaa(0)</aaaaaa><aaa aaa=a aaaaaaa=aaaaa(0)>');
    expect(doc.getElementById('j')!.getAttribute('href')).toBe('about:blank');
    expect(doc.getElementById('k')!.getAttribute('href')).toBe('about:blank');
    expect(doc.getElementById('d')!.getAttribute('href')).toBe('data:text/html;base64,');
    expect(doc.getElementById('q')!.getAttribute('title')).toBe('a"a<a>a');
    expect(doc.getElementById('ta')!.textContent).toBe('</aaaaaaaa><aaaaaa>aaaaa(0)</aaaaaa>');
    expect(red.html).not.toMatch(/javascript:|HYPERLINK|evil/i);
    expect(red.html).not.toContain('<script>');
  });

  it('a script whose text would close it, built by the DOM rather than parsed', () => {
    const doc = parse('<!DOCTYPE html><html><head></head><body><p>x</p></body></html>', url);
    const script = doc.createElement('script');
    script.textContent = 'x</script><img src=x onerror=alert(1)><script>y';
    doc.body.appendChild(script);
    const again = parse(redactDocument(doc, { keep: GOOGLE_INTERFACE_WORDS }).html, url);
    expect(again.querySelectorAll('script')).toHaveLength(1);
    expect(again.querySelectorAll('img')).toHaveLength(0);
  });

  it('comments are dropped, e-mails in code do not survive', () => {
    const input =
      '<!DOCTYPE html><html><head><script>/* robert@broofa.com */ var a = "mail info@cafe-momo.kr"; // 02-598-9229\n</script></head><body><!-- owner: 010-1234-5678 --><p>x</p></body></html>';
    const red = redactHtml(input, (h) => parse(h, url), { keep: GOOGLE_INTERFACE_WORDS });
    expect(red.html).not.toMatch(/broofa|cafe-momo|598|1234|owner/);
    expect(red.stats.commentsDropped).toBe(1);
    expect(red.html).toContain('var a = "aaaa aaaa@aaaa-aaaa.aa";');
  });
});
