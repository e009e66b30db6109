/**
 * The bytes of the replica web: a site spec (./sites.ts) and a request in, the server's answer
 * out. HTML is written in the site's charset (real EUC-KR bytes where the site is EUC-KR) and
 * declared where the spec says: the Content-Type header, a `<meta>`, or nowhere.
 */
import { escapeHtml } from '../pages';
import { encodeEucKr } from './euc-kr';
import type { AnswerHeaders, EmailBit, SiteSpec, SocialLink, SpecPage, WebAnswer, WebRequest } from './sites';

/** The huge page: 50 MB. */
const HUGE_BYTES = 50 * 1024 * 1024;
const HUGE_CHUNK_BYTES = 64 * 1024;
const TRANSPARENT_PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'));
const CF_DECODER_SRC = '/cdn-cgi/scripts/5c5dd728/cloudflare-static/email-decode.min.js';

const utf8 = new TextEncoder();

const TEXT = {
  ko: {
    home: '홈',
    email: '이메일',
    mailUs: '이메일 문의',
    subject: '문의드립니다',
    body: '안녕하세요',
    inquiry: '문의는',
    sendTo: '로 보내주세요',
    tel: '전화',
    addressLabel: '주소',
    registration: '사업자등록번호',
    welcome: (name: string) => `${name}에 오신 것을 환영합니다. 정성을 다해 모시겠습니다.`,
    filler: '저희 매장은 매일 아침 문을 엽니다. 예약은 전화로 부탁드립니다.',
    share: '공유하기',
    imageAlt: '이메일 주소',
    newsletter: '뉴스레터 구독',
  },
  en: {
    home: 'Home',
    email: 'E-mail',
    mailUs: 'Email us',
    subject: 'Enquiry',
    body: 'Hello',
    inquiry: 'Write to',
    sendTo: '.',
    tel: 'Tel.',
    addressLabel: 'Address',
    registration: 'Business registration',
    welcome: (name: string) => `Welcome to ${name}. We open every morning.`,
    filler: 'Reservations by phone, please. Parking is available behind the building.',
    share: 'Share',
    imageAlt: 'Our e-mail address',
    newsletter: 'Newsletter',
  },
};
type Texts = (typeof TEXT)['ko'];

export function renderAnswer(spec: SiteSpec, request: WebRequest): WebAnswer {
  const path = request.path || '/';
  const robots = path === '/robots.txt';
  switch (spec.fate) {
    case 'instagram':
    case '404':
      return errorPage(404);
    case '500':
      return errorPage(500);
    case 'timeout':
      return robots ? errorPage(404) : hang(spec);
    case 'redirect-loop':
      return robots ? errorPage(404) : loop(spec, request);
    case 'huge':
      return path === '/' ? huge(spec) : errorPage(404);
    case 'pdf':
      return path === '/' ? pdf(spec) : errorPage(404);
    default:
      break;
  }
  if (robots) return robotsTxt(spec);
  const redirect = spec.redirects.get(`${request.scheme}://${spec.host}${path}`) ?? spec.redirects.get(path);
  if (redirect) return redirectTo(redirect.status, redirect.location);
  if (path.startsWith('/img/') && /\.(png|jpg)$/.test(path))
    return { kind: 'body', status: 200, headers: { 'content-type': path.endsWith('.png') ? 'image/png' : 'image/jpeg' }, body: TRANSPARENT_PNG };
  const page = spec.pages.find((p) => p.path === path);
  if (page) return html(spec, 200, pageHtml(spec, page));
  if (path === '/cdn-cgi/l/email-protection') return html(spec, 200, shell(spec, 'Email Protection', '<p>You are unable to access this email address.</p>'));
  return errorPage(404);
}

function errorPage(status: 404 | 500): WebAnswer {
  const title = status === 404 ? '404 Not Found' : '500 Internal Server Error';
  return {
    kind: 'body',
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: utf8.encode(`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`),
  };
}

function redirectTo(status: number, location: string): WebAnswer {
  return {
    kind: 'body',
    status,
    headers: { location, 'content-type': 'text/html; charset=utf-8' },
    body: utf8.encode(`<a href="${escapeHtml(location)}">Moved</a>`),
  };
}

function hang(spec: SiteSpec): WebAnswer {
  if (spec.hang === 'silent') return { kind: 'hang', headers: null, start: new Uint8Array(0) };
  return {
    kind: 'hang',
    headers: { 'content-type': 'text/html; charset=utf-8' },
    start: utf8.encode(`<!DOCTYPE html><html><head><title>${escapeHtml(spec.name)}</title></head><body><p>`),
  };
}

function loop(spec: SiteSpec, request: WebRequest): WebAnswer {
  const path = request.path || '/';
  switch (spec.loop) {
    case 'self':
      return path === '/' ? redirectTo(302, '/') : errorPage(404);
    case 'pair':
      return path === '/' ? redirectTo(302, '/index.html') : path === '/index.html' ? redirectTo(302, '/') : errorPage(404);
    case 'scheme':
      return redirectTo(301, `${request.scheme === 'http' ? 'https' : 'http'}://${spec.host}${path}`);
  }
}

function huge(spec: SiteSpec): WebAnswer {
  // The address is in the first kilobyte; 50 MB of text follow it.
  const start = utf8.encode(
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(spec.name)}</title></head><body>\n<p>E-mail: ${escapeHtml(spec.hugeEmail ?? '')}</p>\n`,
  );
  const line = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.</p>\n';
  const chunk = utf8.encode(line.repeat(Math.ceil(HUGE_CHUNK_BYTES / line.length)).slice(0, HUGE_CHUNK_BYTES));
  const headers: AnswerHeaders = { 'content-type': 'text/html; charset=utf-8' };
  if (spec.hugeLength) headers['content-length'] = String(HUGE_BYTES);
  return { kind: 'stream', status: 200, headers, start, chunk, totalBytes: HUGE_BYTES };
}

function pdf(spec: SiteSpec): WebAnswer {
  const text = `(Brochure - contact: ${spec.pdfEmail ?? ''}) Tj`;
  const content = `BT /F1 18 Tf 72 760 Td ${text} ET`;
  const body = [
    '%PDF-1.4',
    '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
    '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj',
    `4 0 obj<</Length ${content.length}>>stream`,
    content,
    'endstream endobj',
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj',
    'trailer<</Root 1 0 R>>',
    '%%EOF',
  ].join('\n');
  return { kind: 'body', status: 200, headers: { 'content-type': 'application/pdf' }, body: utf8.encode(body) };
}

/** The site's Disallow prefixes for the agent `*` (the truth judges pages by the same rules robots.txt states). */
export function robotsDisallows(spec: Pick<SiteSpec, 'robots' | 'pages'>): string[] {
  switch (spec.robots) {
    case 'disallow-all':
      return ['/'];
    case 'disallow-admin':
      return ['/admin/'];
    case 'disallow-contact':
      return spec.pages.filter((p) => p.role === 'contact').map((p) => p.path);
    default:
      return [];
  }
}

function robotsTxt(spec: SiteSpec): WebAnswer {
  if (spec.robots === 'absent') return errorPage(404);
  const lines: string[] = [];
  if (spec.robots === 'other-bot') lines.push('User-agent: SemrushBot', 'Disallow: /', '', 'User-agent: *', 'Allow: /');
  else {
    lines.push('User-agent: *');
    const rules = robotsDisallows(spec);
    if (rules.length === 0) lines.push('Disallow:');
    for (const rule of rules) lines.push(`Disallow: ${rule}`);
  }
  if (spec.robots === 'disallow-admin') lines.push('', `Sitemap: ${new URL(spec.home).origin}/sitemap.xml`);
  return { kind: 'body', status: 200, headers: { 'content-type': 'text/plain' }, body: utf8.encode(`${lines.join('\n')}\n`) };
}

function html(spec: SiteSpec, status: number, text: string): WebAnswer {
  const { encoding, declared } = spec.charset;
  const headers: AnswerHeaders = { 'content-type': declared === 'header' ? `text/html; charset=${spec.charsetLabel}` : 'text/html' };
  if (spec.cookie) headers['set-cookie'] = `${spec.cookie}; path=/; HttpOnly`;
  return {
    kind: 'body',
    status,
    headers,
    body: encoding === 'euc-kr' ? encodeEucKr(text) : utf8.encode(text),
  };
}

function metaCharset(spec: SiteSpec): string {
  if (spec.charset.declared !== 'meta') return '';
  return spec.metaStyle === 'charset'
    ? `<meta charset="${spec.charsetLabel}">`
    : `<meta http-equiv="Content-Type" content="text/html; charset=${spec.charsetLabel}">`;
}

function textsOf(spec: SiteSpec): Texts {
  return spec.korean ? TEXT.ko : TEXT.en;
}

/** A page with no site furniture (the Cloudflare interstitial). */
function shell(spec: SiteSpec, title: string, body: string): string {
  return `<!DOCTYPE html>\n<html><head>${metaCharset(spec)}<title>${escapeHtml(title)}</title></head><body>${body}</body></html>\n`;
}

function pageHtml(spec: SiteSpec, page: SpecPage): string {
  const t = textsOf(spec);
  const name = escapeHtml(spec.name);
  const titleText = `${name}${page.role === 'home' ? '' : ` - ${escapeHtml(page.heading)}`}`;
  // Inside <title> a `<script>` is text (RCDATA): hostile to whoever pastes the title into HTML.
  const title = spec.hostile === 'title-script' ? `<script>alert(document.cookie)</script>${titleText}` : titleText;
  const retina = spec.traps.find((trap) => trap.kind === 'retina-image');
  const placeholder = spec.traps.find((trap) => trap.kind === 'placeholder');
  const sentry = spec.traps.find((trap) => trap.kind === 'sentry');
  const bits = [...page.emails, ...spec.footerEmails];
  const body: string[] = [`<h1>${page.role === 'home' ? name : escapeHtml(page.heading)}</h1>`];
  body.push(`<p>${escapeHtml(page.role === 'home' ? t.welcome(spec.name) : t.filler)}</p>`);
  for (const bit of page.emails) body.push(`<p class="email">${emailHtml(bit, t)}</p>`);
  for (const link of page.bodyLinks) body.push(`<p><a href="${escapeHtml(link.path)}">${escapeHtml(link.text)}</a></p>`);
  page.imageEmails.forEach((_, i) => {
    body.push(`<p><img src="/img/mail-${i + 1}.png" alt="${escapeHtml(t.imageAlt)}"></p>`);
  });
  page.scriptEmails.forEach((address, i) => {
    body.push(scriptEmail(address, `em-${i + 1}`));
  });
  if (page.role === 'home' && spec.nonProfileLinks.length > 0) {
    body.push(
      `<div class="share"><span>${escapeHtml(t.share)}</span> ${spec.nonProfileLinks.map((href, i) => `<a href="${escapeHtml(href)}" target="_blank">${i + 1}</a>`).join(' ')}</div>`,
    );
  }
  if (page.role === 'contact') body.push(`<p>${escapeHtml(t.addressLabel)}: ${escapeHtml(spec.address)}</p>`);

  const nav = [`<a href="/">${escapeHtml(t.home)}</a>`, ...spec.nav.map((l) => `<a href="${escapeHtml(l.path)}">${escapeHtml(l.text)}</a>`)].join('\n');
  const phones = spec.phones.map((p) => (p.linked ? `<a href="tel:${p.e164}">${escapeHtml(p.written)}</a>` : escapeHtml(p.written))).join(' / ');
  const footer = [
    `<p>${name} | ${escapeHtml(t.addressLabel)}: ${escapeHtml(spec.address)} | ${escapeHtml(t.registration)}: 123-45-67890</p>`,
    phones ? `<p>${escapeHtml(t.tel)} ${phones}</p>` : '',
    ...spec.footerEmails.map((bit) => `<p class="email">${emailHtml(bit, t)}</p>`),
    spec.footerSocials.length > 0 ? `<p class="sns">${spec.footerSocials.map((l) => socialHtml(l, 'footer')).join(' ')}</p>` : '',
    placeholder
      ? `<form class="newsletter"><label>${escapeHtml(t.newsletter)} <input type="email" name="email" placeholder="${escapeHtml(placeholder.text)}"></label></form>`
      : '',
    `<p>Copyright (c) ${name}. All rights reserved.</p>`,
  ].filter((line) => line !== '');
  const logo = retina ? `<img src="/img/${retina.text}" srcset="/img/${retina.text} 2x" alt="${name}">` : `<img src="/img/logo.png" alt="${name}">`;
  const head = [
    metaCharset(spec),
    `<title>${title}</title>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    sentry ? `<script>window.__SENTRY__={"dsn":"https://${sentry.text}/${sentry.text.length}","release":"1.0.0"};</script>` : '',
  ].filter((line) => line !== '');
  const cloudflare = bits.some((b) => b.writing === 'cloudflare') ? `\n<script data-cfasync="false" src="${CF_DECODER_SRC}"></script>` : '';
  return `<!DOCTYPE html>
<html lang="${spec.korean ? 'ko' : 'en'}">
<head>
${head.join('\n')}
</head>
<body>
<header>
<a href="/" class="logo">${logo}</a>
<nav>
${nav}
</nav>
${spec.headerSocials.length > 0 ? `<div class="sns">${spec.headerSocials.map((l) => socialHtml(l, 'header')).join('')}</div>` : ''}
</header>
<main>
${body.join('\n')}
</main>
<footer>
${footer.join('\n')}
</footer>${cloudflare}
</body>
</html>
`;
}

const NETWORK_LABEL: Record<SocialLink['network'], string> = {
  instagram: 'Instagram',
  facebook: 'Facebook',
  x: 'X',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  linkedin: 'LinkedIn',
  kakao_channel: 'KakaoTalk',
  naver_blog: 'Blog',
};

/** Header links are icons with a label only for screen readers; footer links are words. */
function socialHtml(link: SocialLink, where: 'header' | 'footer'): string {
  const label = NETWORK_LABEL[link.network];
  const href = escapeHtml(link.written);
  return where === 'header'
    ? `<a href="${href}" target="_blank" rel="noopener" aria-label="${label}"><img src="/img/sns-${link.network}.png" alt=""></a>`
    : `<a href="${href}" target="_blank">${label}</a>`;
}

function split(address: string): { local: string; domain: string } {
  const at = address.lastIndexOf('@');
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/** Every character as a numeric entity, decimal or hex by turns the variant decides. */
function entities(text: string, variant: number): string {
  return [...text].map((ch, i) => ((variant + i) % 3 === 0 ? `&#x${ch.codePointAt(0)!.toString(16)};` : `&#${ch.codePointAt(0)};`)).join('');
}

/** Cloudflare's `data-cfemail`: the key byte, then each byte XOR the key, in hex. */
function cloudflareHex(address: string, key: number): string {
  const hex2 = (n: number): string => n.toString(16).padStart(2, '0');
  return hex2(key) + [...utf8.encode(address)].map((b) => hex2(b ^ key)).join('');
}

function emailHtml(bit: EmailBit, t: Texts): string {
  const a = escapeHtml(bit.address);
  const { local, domain } = split(bit.address);
  const v = bit.variant;
  const label = `${escapeHtml(t.email)}: `;
  switch (bit.writing) {
    case 'mailto':
      return [
        `${label}<a href="mailto:${a}">${a}</a>`,
        `<a href="mailto:${a}">${escapeHtml(t.mailUs)}</a>`,
        `<a class="btn-mail" href="mailto:${a}" title="${escapeHtml(t.mailUs)}">E-mail</a>`,
      ][v % 3]!;
    case 'mailto-subject':
      return v % 2 === 0
        ? `${label}<a href="mailto:${a}?subject=${encodeURIComponent(t.subject)}">${a}</a>`
        : `<a href="mailto:${a}?subject=${encodeURIComponent(t.subject)}&amp;body=${encodeURIComponent(t.body)}">${escapeHtml(t.mailUs)}</a>`;
    case 'text': {
      const shown = escapeHtml(bit.upperDomain ? `${local}@${domain.toUpperCase()}` : bit.address);
      return [`E-mail: ${shown}`, `${label}${shown}`, `${escapeHtml(t.inquiry)} ${shown}${escapeHtml(t.sendTo)}`][v % 3]!;
    }
    case 'at-brackets':
      return label + escapeHtml(v % 2 === 0 ? `${local} [at] ${domain.split('.').join(' [dot] ')}` : `${local}[at]${domain}`);
    case 'at-parens':
      return label + escapeHtml(v % 2 === 0 ? `${local}(at)${domain}` : `${local} (at) ${domain.split('.').join(' (dot) ')}`);
    case 'entities':
      return v % 2 === 0
        ? `${label}${entities(bit.address, v)}`
        : `${label}<a href="${entities(`mailto:${bit.address}`, v)}">${entities(bit.address, v + 1)}</a>`;
    case 'cloudflare': {
      const hex = cloudflareHex(bit.address, bit.key);
      return v % 2 === 0
        ? `${label}<a href="/cdn-cgi/l/email-protection#${hex}" class="__cf_email__" data-cfemail="${hex}">[email&#160;protected]</a>`
        : `${label}<a href="/cdn-cgi/l/email-protection#${hex}"><span class="__cf_email__" data-cfemail="${hex}">[email&#160;protected]</span></a>`;
    }
  }
}

/** An address a script assembles at run time: neither it nor an obfuscation of it is in the HTML. */
function scriptEmail(address: string, id: string): string {
  const { local, domain } = split(address);
  const parts = JSON.stringify(domain.split('.').reverse());
  return `<p><span id="${id}"></span><script>(function(){var u=${JSON.stringify(local)};var d=${parts}.reverse().join('.');document.getElementById('${id}').innerHTML='<a href="mai'+'lto:'+u+'&#64;'+d+'">'+u+'&#64;'+d+'</a>';})();</script></p>`;
}
