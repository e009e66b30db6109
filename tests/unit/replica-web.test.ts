// The replica web of business sites (issue 23): deterministic, each case at its share, the truth
// borne out by the bytes served, flat memory over 10,000 sites, HTTPS and HTTP on one port.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, DEFAULT_WEB_SHARES, EMAIL_WRITINGS, FATES, type SiteTruth, type Web } from '../replica/web/sites';
import { startWebReplica, type WebReplica } from '../replica/web/server';

const SEED = 23;
const MANY = 2_000;

function get(web: Web, url: string) {
  const u = new URL(url);
  const answer = web.answer({ scheme: u.protocol === 'http:' ? 'http' : 'https', host: u.hostname, path: `${u.pathname}${u.search}` });
  if (answer?.kind !== 'body') throw new Error(`${url}: no plain answer`);
  return answer;
}

/** A page's HTML as a reader decodes it, in the charset the truth names. */
function pageHtml(web: Web, truth: SiteTruth, url: string): string {
  const answer = get(web, url);
  expect(answer.status, url).toBe(200);
  return new TextDecoder(truth.charset!.encoding, { fatal: true }).decode(answer.body);
}

function decodeEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const hrefsOf = (html: string): string[] => [...html.matchAll(/href="([^"]*)"/g)].map((m) => decodeEntities(m[1]!));
const textOf = (html: string): string => decodeEntities(html.replace(/<script[\s\S]*?<\/script>/g, ' ').replace(/<[^>]+>/g, ' '));
const cloudflareDecoded = (html: string): string[] =>
  [...html.matchAll(/data-cfemail="([0-9a-f]+)"/g)].map((m) => {
    const bytes = m[1]!.match(/../g)!.map((h) => parseInt(h, 16));
    return String.fromCharCode(...bytes.slice(1).map((b) => b ^ bytes[0]!));
  });
/** Everything a thorough reader could recover from a page's source, scripts aside. */
const recoverable = (html: string): string =>
  [
    decodeEntities(html),
    ...cloudflareDecoded(html),
    decodeEntities(html)
      .replace(/\s*[[(]at[\])]\s*/g, '@')
      .replace(/\s*[[(]dot[\])]\s*/g, '.'),
  ].join('\n');

function truths(web: Web): SiteTruth[] {
  return web.hosts.map((h) => web.siteTruth(h));
}

/** Observed share within 4.5 standard errors of the set one (plus a hair for tiny shares). */
function expectShare(label: string, hits: number, total: number, share: number): void {
  const observed = hits / total;
  const tolerance = 4.5 * Math.sqrt((share * (1 - share)) / total) + 0.003;
  expect(Math.abs(observed - share), `${label}: ${hits}/${total} = ${observed.toFixed(4)}, set ${share}`).toBeLessThanOrEqual(tolerance);
}

describe('the replica web generator', () => {
  it('is deterministic: same seed and host, same site, in any order and any company', () => {
    const a = buildWeb(SEED, 300);
    const b = buildWeb(SEED, 300);
    expect(b.hosts).toEqual(a.hosts);
    const some = a.hosts.filter((_, i) => i % 7 === 0);
    const c = buildWeb(SEED, [...some].reverse());
    for (const host of some) {
      expect(c.siteTruth(host)).toEqual(a.siteTruth(host));
      const home = a.siteTruth(host).home;
      if (home && a.siteTruth(host).fate === 'ok') expect(get(c, home).body).toEqual(get(b, home).body);
    }
    const other = buildWeb(SEED + 1, a.hosts);
    const same = a.hosts.filter((h) => JSON.stringify(other.siteTruth(h)) === JSON.stringify(a.siteTruth(h))).length;
    expect(same).toBeLessThan(a.hosts.length / 10);
  });

  it('refuses platform hosts and keeps the scheme of a URL it is given', () => {
    expect(() => buildWeb(SEED, ['www.instagram.com'])).toThrow(/platform/);
    expect(() => buildWeb(SEED, ['blog.naver.com'])).toThrow(/platform/);
    const web = buildWeb(SEED, ['http://www.harudal7.co.kr/', 'https://bomsoop9.com/']);
    expect(web.hosts).toEqual(['www.harudal7.co.kr', 'bomsoop9.com']);
    expect(web.siteTruth('www.harudal7.co.kr').website).toMatch(/^(http:\/\/www\.harudal7\.co\.kr\/|https:\/\/www\.instagram\.com\/)/);
    expect(web.answer({ scheme: 'https', host: 'elsewhere.com', path: '/' })).toBeNull();
  });

  it(`has each case at its set share over ${MANY} hosts`, () => {
    const web = buildWeb(SEED, MANY);
    const all = truths(web);
    const s = DEFAULT_WEB_SHARES;
    for (const fate of FATES) {
      if (fate === 'ok') continue;
      expectShare(`fate ${fate}`, all.filter((t) => t.fate === fate).length, all.length, s.fates[fate]);
    }
    for (const t of all.filter((x) => x.fate === 'instagram')) {
      expect(t.website).toMatch(/^https:\/\/www\.instagram\.com\/[a-z0-9_]+\/$/);
      expect(t.socials).toEqual({ instagram: t.website.slice(0, -1) });
      expect(t.emails).toEqual([]);
    }
    const withPages = all.filter((t) => t.fate === 'ok' || t.fate === 'robots-disallowed');
    const korean = withPages.filter((t) => t.language === 'ko');
    expectShare('Korean', korean.length, withPages.length, s.korean);
    expectShare('EUC-KR of Korean', korean.filter((t) => t.charset!.encoding === 'euc-kr').length, korean.length, s.eucKr);
    for (const declared of ['header', 'meta', 'none'] as const)
      expectShare(`declared ${declared}`, withPages.filter((t) => t.charset!.declared === declared).length, withPages.length, s.declared[declared]);

    const ok = all.filter((t) => t.fate === 'ok');
    expectShare('redirect chain', ok.filter((t) => t.redirects > 0).length, ok.length, s.redirectChain);
    expect(Math.max(...ok.map((t) => t.redirects))).toBe(5);
    expect(Math.min(...all.filter((t) => t.fate === 'too-many-redirects').map((t) => t.redirects))).toBeGreaterThanOrEqual(6);
    expectShare('contact page', withPages.filter((t) => t.contactPage).length, withPages.length, s.contactPage);
    const both = withPages.filter((t) => t.contactPage && t.pages.some((p) => p.role === 'about'));
    expectShare('contact two links deep', both.filter((t) => t.contactPage!.depth === 2).length, both.length, s.deepContact);
    const withContact = ok.filter((t) => t.contactPage);
    expectShare('robots disallows the contact page', withContact.filter((t) => t.robots === 'disallow-contact').length, withContact.length, s.robotsContact);

    const occurrences = ok.flatMap((t) => t.emails.flatMap((e) => e.occurrences));
    const robotsHidden = ok.filter((t) => t.hiddenEmails.some((h) => h.reason === 'robots')).length;
    expect(robotsHidden).toBeGreaterThan(0);
    for (const writing of EMAIL_WRITINGS)
      expectShare(`written as ${writing}`, occurrences.filter((o) => o.writing === writing).length, occurrences.length, s.writing[writing]);
    expectShare('an e-mail only in an image', withPages.filter((t) => t.hiddenEmails.some((h) => h.reason === 'image')).length, withPages.length, s.imageOnly);
    expectShare(
      'an e-mail only written by script',
      withPages.filter((t) => t.hiddenEmails.some((h) => h.reason === 'script')).length,
      withPages.length,
      s.scriptOnly,
    );
    const deepOnly = ok.filter((t) => t.emails.some((e) => e.depth === 2)).length;
    expect(deepOnly, 'sites with an e-mail only two links deep').toBeGreaterThan(ok.length * 0.02);
    expectShare('hostile content', all.filter((t) => t.hostile !== null).length, all.length, s.hostile);
    expectShare('social profiles', ok.filter((t) => Object.keys(t.socials).length > 0).length, ok.length, s.socials);
    expectShare('share buttons', ok.filter((t) => t.nonProfileLinks.length > 0).length, ok.length, s.shareButtons);
    expectShare('a logo@2x trap', ok.filter((t) => t.traps.some((x) => /@\dx\./.test(x))).length, ok.length, s.traps);
    expectShare('a Sentry trap', ok.filter((t) => t.traps.some((x) => x.includes('sentry'))).length, ok.length, s.traps);
  });
});

describe('the truth against the pages', () => {
  const web = buildWeb(SEED, 600);
  const ok = truths(web).filter((t) => t.fate === 'ok');

  it('finds every findable e-mail where and as the truth says', () => {
    let checked = 0;
    for (const t of ok) {
      for (const email of t.emails) {
        for (const o of email.occurrences) {
          const html = pageHtml(web, t, o.page);
          const text = textOf(html);
          switch (o.writing) {
            case 'mailto':
              expect(hrefsOf(html), o.page).toContain(`mailto:${email.address}`);
              break;
            case 'mailto-subject':
              expect(
                hrefsOf(html).some((h) => h.startsWith(`mailto:${email.address}?subject=`)),
                o.page,
              ).toBe(true);
              break;
            case 'text':
              expect(o.upperDomain ? text.toLowerCase() : text, o.page).toContain(o.upperDomain ? email.address.toLowerCase() : email.address);
              break;
            case 'at-brackets':
            case 'at-parens': {
              const mark = o.writing === 'at-brackets' ? '[at]' : '(at)';
              expect(text).toContain(mark);
              expect(recoverable(html)).toContain(email.address);
              break;
            }
            case 'entities':
              expect(decodeEntities(html)).toContain(email.address);
              break;
            case 'cloudflare':
              expect(cloudflareDecoded(html)).toContain(email.address);
              expect(html).toContain('[email&#160;protected]');
              break;
          }
          // An obfuscated address written nowhere else on the site is literally in no page's source.
          if (['entities', 'cloudflare', 'at-brackets', 'at-parens'].includes(o.writing) && email.occurrences.length === 1) {
            for (const p of t.pages) expect(pageHtml(web, t, p.url), `${o.writing} ${email.address} on ${p.url}`).not.toContain(email.address);
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('hides image-only, script-only and robots-blocked e-mails as it says', () => {
    let image = 0;
    let script = 0;
    let robots = 0;
    for (const t of ok) {
      const allowed = t.pages.filter((p) => p.allowed).map((p) => pageHtml(web, t, p.url));
      const everyPage = t.pages.map((p) => pageHtml(web, t, p.url));
      for (const hidden of t.hiddenEmails) {
        expect(t.emails.map((e) => e.address)).not.toContain(hidden.address);
        expect(
          allowed.some((html) => recoverable(html).includes(hidden.address)),
          `${hidden.reason} ${hidden.address} readable on ${t.host}`,
        ).toBe(false);
        if (hidden.reason === 'image') {
          expect(everyPage.some((html) => recoverable(html).includes(hidden.address))).toBe(false);
          expect(everyPage.some((html) => /<img src="\/img\/mail-\d\.png"/.test(html))).toBe(true);
          image++;
        } else if (hidden.reason === 'script') {
          expect(everyPage.some((html) => recoverable(html).includes(hidden.address))).toBe(false);
          const local = hidden.address.slice(0, hidden.address.lastIndexOf('@'));
          expect(everyPage.some((html) => /<script>\(function\(\)\{var u=/.test(html) && html.includes(JSON.stringify(local)))).toBe(true);
          script++;
        } else if (hidden.reason === 'robots') {
          const blocked = t.pages.filter((p) => !p.allowed).map((p) => pageHtml(web, t, p.url));
          expect(blocked.some((html) => recoverable(html).includes(hidden.address))).toBe(true);
          robots++;
        }
      }
    }
    expect(image).toBeGreaterThan(0);
    expect(script).toBeGreaterThan(0);
    expect(robots).toBeGreaterThan(0);
  });

  it('shows the traps, profiles, share links, phones and contact links it names', () => {
    const profileHost: Record<string, RegExp> = {
      instagram: /instagram\.com\//,
      facebook: /facebook\.com\//,
      x: /(twitter|x)\.com\//,
      youtube: /youtube\.com\//,
      tiktok: /tiktok\.com\/@/,
      linkedin: /linkedin\.com\/company\//,
      kakao_channel: /pf\.kakao\.com\/_/,
      naver_blog: /blog\.naver\.com\//,
    };
    let tracked = 0;
    for (const t of ok) {
      const home = pageHtml(web, t, t.home!);
      const hrefs = hrefsOf(home);
      for (const trap of t.traps) expect(home).toContain(trap);
      for (const link of t.nonProfileLinks) expect(hrefs).toContain(link);
      for (const phone of t.phones) expect(textOf(home)).toContain(phone.written);
      for (const [network, canonical] of Object.entries(t.socials)) {
        expect(canonical).toMatch(/^https:\/\/[^?#]*[^/]$|^https:\/\/www\.facebook\.com\/profile\.php\?id=\d+$/);
        expect(canonical).not.toMatch(/twitter\.com|utm_|igshid|fbclid/);
        const id = canonical.replace(/^https:\/\/[^/]+\//, '').replace(/^company\//, '');
        const written = hrefs.filter((h) => profileHost[network]!.test(h) && h.includes(id));
        expect(written.length, `${network} ${canonical} on ${t.home}`).toBeGreaterThan(0);
        if (written.some((h) => h !== canonical)) tracked++;
      }
      const contact = t.contactPage;
      if (contact) {
        const path = new URL(contact.url).pathname + new URL(contact.url).search;
        const about = t.pages.find((p) => p.role === 'about');
        expect(hrefs.includes(path), `${t.host} home links its contact page`).toBe(contact.depth === 1);
        if (contact.depth === 2) expect(hrefsOf(pageHtml(web, t, about!.url))).toContain(path);
      }
    }
    expect(tracked).toBeGreaterThan(20);
  });

  it('serves EUC-KR pages as real EUC-KR bytes that decode to the Korean truth, declared as the truth says', () => {
    const euckr = ok.filter((t) => t.charset!.encoding === 'euc-kr');
    expect(euckr.length).toBeGreaterThan(20);
    for (const t of [...euckr, ...ok.filter((x) => x.charset!.encoding === 'utf-8').slice(0, 50)]) {
      const answer = get(web, t.home!);
      const html = pageHtml(web, t, t.home!);
      expect(textOf(html)).toContain(t.name);
      if (t.charset!.encoding === 'euc-kr' && /[가-힣]/.test(t.name)) expect(() => new TextDecoder('utf-8', { fatal: true }).decode(answer.body)).toThrow();
      const header = answer.headers['content-type']!;
      const meta = /<meta[^>]*charset=/i.test(html.slice(0, 1024));
      expect(/charset=/i.test(header), `${t.host} header`).toBe(t.charset!.declared === 'header');
      expect(meta, `${t.host} meta`).toBe(t.charset!.declared === 'meta');
    }
  });

  it('writes robots.txt as the truth says', () => {
    for (const t of ok) {
      const answer = get(web, new URL('/robots.txt', t.home!).href);
      const body = new TextDecoder().decode(answer.body);
      if (t.robots === 'absent') expect(answer.status).toBe(404);
      else expect(answer.status).toBe(200);
      if (t.robots === 'disallow-contact') expect(body).toContain(`Disallow: ${new URL(t.contactPage!.url).pathname}`);
      if (t.robots === 'allow-all') expect(body).toMatch(/^User-agent: \*\nDisallow:\n$/);
      expect(t.pages.filter((p) => !p.allowed).every((p) => p.role === 'contact')).toBe(true);
    }
    const disallowed = truths(web).filter((t) => t.fate === 'robots-disallowed');
    expect(disallowed.length).toBeGreaterThan(0);
    for (const t of disallowed) {
      expect(new TextDecoder().decode(get(web, new URL('/robots.txt', t.website).href).body)).toBe('User-agent: *\nDisallow: /\n');
      expect(t.emails).toEqual([]);
      expect(t.socials).toEqual({});
    }
  });

  it('plants hostile content: formula names and e-mails, a script in the title', () => {
    const web = buildWeb(SEED, 3_000);
    const hostile = truths(web).filter((t) => t.hostile !== null && t.fate === 'ok');
    const kinds = new Set(hostile.map((t) => t.hostile));
    expect([...kinds].sort()).toEqual(['email-formula', 'name-formula', 'title-script']);
    for (const t of hostile) {
      const html = pageHtml(web, t, t.home!);
      if (t.hostile === 'name-formula') expect(t.name.startsWith('=')).toBe(true);
      if (t.hostile === 'email-formula') expect(t.emails.some((e) => e.address.startsWith('='))).toBe(true);
      if (t.hostile === 'title-script') expect(html).toMatch(/<title><script>alert\(document\.cookie\)<\/script>/);
    }
  });
});

it('keeps memory flat over 10,000 sites generated one after another', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const web = buildWeb(SEED, 10_000);
  gc();
  const before = process.memoryUsage().heapUsed;
  let bytes = 0;
  for (const host of web.hosts) {
    const answer = web.answer({ scheme: 'https', host, path: '/' });
    if (answer?.kind === 'body') bytes += answer.body.byteLength;
    web.siteTruth(host);
  }
  gc();
  const growth = process.memoryUsage().heapUsed - before;
  console.log(`replica web: 10,000 home answers (${(bytes / 1e6).toFixed(1)} MB served), heap growth ${(growth / 1e6).toFixed(2)} MB`);
  expect(bytes).toBeGreaterThan(5_000_000);
  expect(growth).toBeLessThan(16 * 1024 * 1024);
  // The web stays alive to the end, so whatever it held is counted above.
  expect(web.siteTruth(web.hosts[0]!).host).toBe(web.hosts[0]);
});

describe('the replica web server', () => {
  let replica: WebReplica;
  const pick = (fate: SiteTruth['fate'], extra: (t: SiteTruth) => boolean = () => true): string => {
    const host = replica.web.hosts.find((h) => replica.truth(h).fate === fate && extra(replica.truth(h)));
    if (!host) throw new Error(`no ${fate} site`);
    return host;
  };

  beforeAll(async () => {
    replica = await startWebReplica({ seed: SEED, hosts: 400 });
  });
  afterAll(() => replica.close());

  interface Got {
    status: number;
    headers: IncomingMessage['headers'];
    body: Buffer;
  }
  function request(scheme: 'http' | 'https', host: string, path: string, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<Got> {
    const send = scheme === 'https' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        { host: '127.0.0.1', port: replica.port, path, headers: { host, ...headers }, servername: host, rejectUnauthorized: false, signal },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('answers HTTPS and plain HTTP on one port, the same bytes as in-process fetch', async () => {
    const host = pick('ok', (t) => t.redirects === 0);
    const before = replica.requests().length;
    const overTls = await request('https', host, '/');
    const plain = await request('http', host, '/');
    expect(overTls.status).toBe(200);
    expect(plain.body.equals(overTls.body)).toBe(true);
    const inProcess = await replica.fetch(`https://${host}/`);
    expect(Buffer.from(await inProcess.arrayBuffer()).equals(overTls.body)).toBe(true);
    expect(
      replica
        .requests()
        .slice(before)
        .map((r) => [r.host, r.scheme, r.path, r.status, r.inProcess]),
    ).toEqual([
      [host, 'https', '/', 200, false],
      [host, 'http', '/', 200, false],
      [host, 'https', '/', 200, true],
    ]);
    expect(
      replica
        .requests()
        .slice(before)
        .every((r, i, all) => i === 0 || r.at >= all[i - 1]!.at),
    ).toBe(true);
    expect(replica.hostRules()).toContain(`MAP ${host} 127.0.0.1:${replica.port}`);
    expect(replica.hostRules().split(', ')).toHaveLength(replica.web.hosts.length);
  });

  it('sets the session cookie the truth names and logs a request that sends one back', async () => {
    const host = pick('ok', (t) => t.redirects === 0 && t.cookie !== null);
    const before = replica.requests().length;
    const home = await request('http', host, '/');
    expect(home.headers['set-cookie']).toEqual([`${replica.truth(host).cookie}; path=/; HttpOnly`]);
    await request('http', host, '/', undefined, { cookie: replica.truth(host).cookie! });
    expect(
      replica
        .requests()
        .slice(before)
        .map((r) => [r.host, r.cookie]),
    ).toEqual([
      [host, false],
      [host, true],
    ]);
  });

  it('follows a chain of up to 5 redirects to the home page; loops and 6+ chains never end well', async () => {
    const chained = pick('ok', (t) => t.redirects >= 3);
    const res = await replica.fetch(replica.truth(chained).website);
    expect(res.url).toBe(replica.truth(chained).home);
    expect(res.redirected).toBe(true);
    const first = await request(new URL(replica.truth(chained).website).protocol === 'http:' ? 'http' : 'https', chained, '/');
    expect([301, 302, 307, 308]).toContain(first.status);

    const looping = pick('redirect-loop');
    await expect(replica.fetch(replica.truth(looping).website)).rejects.toThrow(/redirect count/);
    const manual = await replica.fetch(replica.truth(looping).website, { redirect: 'manual' });
    expect(manual.status).toBeGreaterThanOrEqual(300);

    const long = pick('too-many-redirects');
    let url = replica.truth(long).website;
    let hops = 0;
    for (; hops < 10; hops++) {
      const r = await replica.fetch(url, { redirect: 'manual' });
      const location = r.headers.get('location');
      if (!location) break;
      url = new URL(location, url).href;
    }
    expect(hops).toBe(replica.truth(long).redirects);
    expect(hops).toBeGreaterThan(5);
  });

  it('hangs a timeout site until the client aborts, with nothing sent or after the headers, over a socket and in-process', async () => {
    const hosts = replica.web.hosts.filter((h) => replica.truth(h).fate === 'timeout');
    expect(hosts.length).toBeGreaterThan(2);
    const started = Date.now();
    const overSocket = await Promise.allSettled(hosts.map((h) => request('https', h, '/', AbortSignal.timeout(400))));
    expect(overSocket.map((r) => r.status)).toEqual(hosts.map(() => 'rejected'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    let nothingSent = 0;
    let stalledAfterHeaders = 0;
    for (const host of hosts) {
      const signal = AbortSignal.timeout(150);
      const headers = await replica.fetch(`https://${host}/`, { signal }).then(
        (r) => r,
        () => null,
      );
      if (headers === null) nothingSent++;
      else {
        expect(headers.status).toBe(200);
        await expect(headers.text()).rejects.toThrow(/abort|timeout/i);
        stalledAfterHeaders++;
      }
    }
    expect(nothingSent).toBeGreaterThan(0);
    expect(stalledAfterHeaders).toBeGreaterThan(0);
  });

  it('streams the 50 MB page without holding it, serves the PDF as application/pdf, 404 and 500 as such', async () => {
    const huge = pick('huge');
    const res = await replica.fetch(`https://${huge}/`);
    const reader = res.body!.getReader();
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
    }
    expect(total).toBe(50 * 1024 * 1024);
    const partial = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: replica.port, path: '/', headers: { host: huge }, servername: huge, rejectUnauthorized: false },
        (r) => {
          let got = 0;
          r.on('data', (c: Buffer) => {
            got += c.length;
            if (got > 3 * 1024 * 1024) {
              req.destroy();
              resolve(got);
            }
          });
        },
      );
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    expect(partial).toBeGreaterThan(3 * 1024 * 1024);

    const pdf = await request('https', pick('pdf'), '/');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await request('https', pick('404'), '/')).status).toBe(404);
    expect((await request('http', pick('500'), '/')).status).toBe(500);
  });
});
