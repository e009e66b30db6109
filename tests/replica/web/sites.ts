/**
 * The replica web: the businesses' own websites the contacts pass reads (issue 23), generated
 * from (seed, host) alone, on demand. Nothing is held per site beyond a small cache, so 10,000
 * sites cost what one does; the same seed and host give the same site on every run and in any
 * order. Each site carries its truth (`SiteTruth`): what a careful person, honouring robots.txt
 * and following links from the home page, would note down from its pages.
 *
 * This file decides what each site is (the spec and its truth); ./pages.ts writes its bytes;
 * ./server.ts serves them. It shares nothing with the product's contact reader on purpose:
 * the replica is the independent truth the reader is measured against.
 */
import { createRng, deriveSeed, type Rng } from '../prng';
import { renderAnswer, robotsDisallows } from './pages';

/** What happens when a reader opens the site's website URL. */
export type Fate =
  | 'ok'
  /** robots.txt disallows everything for every agent: nothing may be read. */
  | 'robots-disallowed'
  | '404'
  | '500'
  /** Every page hangs until the client gives up (robots.txt answers 404). */
  | 'timeout'
  /** The website URL redirects back to itself, directly or through one other URL. */
  | 'redirect-loop'
  /** 6 to 8 redirects before the home page: past a reader's 5. */
  | 'too-many-redirects'
  /** A 50 MB HTML home page, streamed. */
  | 'huge'
  /** The home page is application/pdf. */
  | 'pdf'
  /** The listing's website is the business's Instagram profile: nothing of this server's to fetch. */
  | 'instagram';

export const FATES: readonly Fate[] = ['ok', 'robots-disallowed', '404', '500', 'timeout', 'redirect-loop', 'too-many-redirects', 'huge', 'pdf', 'instagram'];

export type Encoding = 'utf-8' | 'euc-kr';
/** Where a page says its charset: the Content-Type header, a `<meta>`, or nowhere. */
export type CharsetDeclaration = 'header' | 'meta' | 'none';
export interface Charset {
  encoding: Encoding;
  declared: CharsetDeclaration;
}

/** robots.txt: absent (404), allowing all, disallowing only another bot, /admin/, the contact page, or everything. */
export type RobotsKind = 'absent' | 'allow-all' | 'other-bot' | 'disallow-admin' | 'disallow-contact' | 'disallow-all';

/** How an e-mail is written where a reader finds it. */
export type EmailWriting =
  | 'mailto'
  /** A mailto: href with `?subject=` (sometimes `&body=`). */
  | 'mailto-subject'
  | 'text'
  /** `info [at] cafe [dot] kr`, `info[at]cafe.kr` */
  | 'at-brackets'
  /** `info(at)cafe.kr`, `info (at) cafe (dot) kr` */
  | 'at-parens'
  /** Every character an HTML numeric entity, in text or in a mailto: href. */
  | 'entities'
  /** Cloudflare's e-mail obfuscation: `data-cfemail` hex, first byte the XOR key. */
  | 'cloudflare';

export const EMAIL_WRITINGS: readonly EmailWriting[] = ['mailto', 'mailto-subject', 'text', 'at-brackets', 'at-parens', 'entities', 'cloudflare'];

/**
 * Why an e-mail on the site is not one a reader can find: drawn only in an image, assembled by a
 * script at run time, only inside a PDF, only on pages robots.txt disallows, or behind more
 * redirects than a reader follows.
 */
export type HiddenReason = 'image' | 'script' | 'pdf' | 'robots' | 'unreachable';

export type Network = 'instagram' | 'facebook' | 'x' | 'youtube' | 'tiktok' | 'linkedin' | 'kakao_channel' | 'naver_blog';
export const NETWORKS: readonly Network[] = ['instagram', 'facebook', 'x', 'youtube', 'tiktok', 'linkedin', 'kakao_channel', 'naver_blog'];

export type PageRole = 'home' | 'about' | 'contact' | 'extra';

/** Things that look like e-mails and are not. */
export type TrapKind = 'retina-image' | 'placeholder' | 'sentry';

/** Planted hostile content: a name that is a spreadsheet formula, a `<script>` in the title, an e-mail whose local part starts with `=`. */
export type Hostile = 'name-formula' | 'title-script' | 'email-formula';

export interface EmailOccurrence {
  /** The page's URL (after redirects). A footer e-mail is on every page; it is named on the home page. */
  page: string;
  writing: EmailWriting;
  /** Whether the address is written with its domain in capitals (`info@CAFE.KR`); the truth is lower-cased. */
  upperDomain: boolean;
}

export interface FindableEmail {
  /** Local part as written, domain lower-cased (every generated address is lower case; `upperDomain` says where a page shouts it). */
  address: string;
  /** Links from the home page to the shallowest page it is on: 0 home, 1 a page the home links, 2 one more. */
  depth: 0 | 1 | 2;
  occurrences: EmailOccurrence[];
}

export interface HiddenEmail {
  address: string;
  reason: HiddenReason;
}

export interface PhoneShown {
  /** As the page writes it. */
  written: string;
  e164: string;
}

export interface TruthPage {
  url: string;
  role: PageRole;
  depth: 0 | 1 | 2;
  /** Whether robots.txt lets any agent fetch it. */
  allowed: boolean;
}

export interface SiteTruth {
  host: string;
  /** The URL the listing names as the business's website. */
  website: string;
  fate: Fate;
  language: 'ko' | 'en';
  /** The business name as a reader sees it (hostile ones included). */
  name: string;
  hostile: Hostile | null;
  /** The HTML pages' charset; null when the site serves no readable HTML. */
  charset: Charset | null;
  robots: RobotsKind | null;
  /** Redirects from the website URL to the home page (0..5 on a readable site). */
  redirects: number;
  /** The home page's URL after redirects; null when no home page is reachable. */
  home: string | null;
  /** Every HTML page of the site with its depth; empty when none is reachable. */
  pages: TruthPage[];
  /** E-mails a reader honouring robots.txt finds on the pages, each once. */
  emails: FindableEmail[];
  /** E-mails the site holds that such a reader cannot find, and why. */
  hiddenEmails: HiddenEmail[];
  /** Strings on the pages that look like e-mails and are not (`logo@2x.png`, placeholders, Sentry DSNs). */
  traps: string[];
  /** One profile per network, as a person notes it: canonical https URL, no tracking, no trailing slash. */
  socials: Partial<Record<Network, string>>;
  /** Social links that are not the business's profile (share buttons, a post, a video). */
  nonProfileLinks: string[];
  /** The session cookie (`name=value`) the site's pages set, or null. */
  cookie: string | null;
  /** The contact page, if the site has one, with its depth and whether robots.txt allows it. */
  contactPage: { url: string; depth: 1 | 2; allowed: boolean } | null;
  phones: PhoneShown[];
}

export interface WebShares {
  /** Share of sites per fate; the rest are `ok`. */
  fates: Record<Exclude<Fate, 'ok'>, number>;
  /** Sites written in Korean (the rest in English). */
  korean: number;
  /** Of Korean sites: EUC-KR pages (the rest UTF-8; English sites are always UTF-8). */
  eucKr: number;
  /** Weights of where a site declares its charset. */
  declared: Record<CharsetDeclaration, number>;
  /** Of `ok` sites: 1–5 redirects before the home page. */
  redirectChain: number;
  about: number;
  contactPage: number;
  /** Of sites with an about and a contact page: the contact page linked only from the about page. */
  deepContact: number;
  /** Of `ok` sites with a contact page: robots.txt disallows it. */
  robotsContact: number;
  /** Weights of 0, 1, 2, 3 findable-to-be e-mails per site. */
  emailCount: readonly [number, number, number, number];
  /** Weights of how each e-mail occurrence is written. */
  writing: Record<EmailWriting, number>;
  /** Of e-mails: written a second time elsewhere on the site. */
  secondOccurrence: number;
  /** Sites with an extra e-mail only in an image / only written by a script. */
  imageOnly: number;
  scriptOnly: number;
  /** Per trap kind: sites carrying it. */
  traps: number;
  /** Sites linking social profiles. */
  socials: number;
  /** Of social links: the written URL carries tracking or a non-canonical form. */
  tracking: number;
  /** Sites with share buttons and other non-profile social links. */
  shareButtons: number;
  /** Sites with one planted hostile content. */
  hostile: number;
}

export const DEFAULT_WEB_SHARES: Readonly<WebShares> = {
  fates: {
    'robots-disallowed': 0.03,
    '404': 0.03,
    '500': 0.03,
    timeout: 0.02,
    'redirect-loop': 0.02,
    'too-many-redirects': 0.01,
    huge: 0.01,
    pdf: 0.02,
    instagram: 0.05,
  },
  korean: 0.8,
  eucKr: 0.25,
  declared: { header: 0.5, meta: 0.4, none: 0.1 },
  redirectChain: 0.15,
  about: 0.6,
  contactPage: 0.6,
  deepContact: 0.3,
  robotsContact: 0.05,
  emailCount: [0.2, 0.5, 0.25, 0.05],
  writing: { mailto: 0.3, 'mailto-subject': 0.1, text: 0.25, 'at-brackets': 0.08, 'at-parens': 0.07, entities: 0.1, cloudflare: 0.1 },
  secondOccurrence: 0.25,
  imageOnly: 0.05,
  scriptOnly: 0.05,
  traps: 0.15,
  socials: 0.7,
  tracking: 0.4,
  shareButtons: 0.2,
  hostile: 0.03,
};

/** A request as the server sees it. */
export interface WebRequest {
  scheme: 'http' | 'https';
  host: string;
  /** Path and query, as sent. */
  path: string;
}

export type AnswerHeaders = Record<string, string>;

/** What the server does with a request: answer it, stream a huge body, or hang. */
export type WebAnswer =
  | { kind: 'body'; status: number; headers: AnswerHeaders; body: Uint8Array<ArrayBuffer> }
  /** `start`, then `chunk` repeated up to `totalBytes` in all (the last one cut), produced as the client reads. */
  | { kind: 'stream'; status: number; headers: AnswerHeaders; start: Uint8Array; chunk: Uint8Array; totalBytes: number }
  /** Nothing more until the client aborts: `headers` null sends nothing at all, else headers and `start`. */
  | { kind: 'hang'; headers: AnswerHeaders | null; start: Uint8Array };

export interface Web {
  readonly seed: number;
  readonly shares: Readonly<WebShares>;
  /** Every host the web serves (the site hosts, in the order given or generated). */
  readonly hosts: readonly string[];
  has(host: string): boolean;
  siteTruth(host: string): SiteTruth;
  /** The answer to one request; a host not in the web gets null (no such name). */
  answer(request: WebRequest): WebAnswer | null;
}

// ——— the site spec: what ./pages.ts renders ———

export interface EmailBit {
  address: string;
  writing: EmailWriting;
  /** Picks among a writing's forms. */
  variant: number;
  /** Cloudflare's XOR key (1..255). */
  key: number;
  upperDomain: boolean;
}

export interface NavLink {
  path: string;
  text: string;
}

export interface SocialLink {
  network: Network;
  written: string;
  canonical: string;
}

export interface SpecPage {
  path: string;
  role: PageRole;
  depth: 0 | 1 | 2;
  heading: string;
  /** Links in the page's body (the about page's link to a deep contact page). */
  bodyLinks: NavLink[];
  emails: EmailBit[];
  imageEmails: string[];
  scriptEmails: string[];
}

export interface SiteSpec {
  host: string;
  scheme: 'http' | 'https';
  website: string;
  fate: Fate;
  korean: boolean;
  name: string;
  hostile: Hostile | null;
  charset: Charset;
  /** The header's charset label when declared there (real Korean sites also say ks_c_5601-1987). */
  charsetLabel: string;
  robots: RobotsKind;
  /** Path (either scheme), or full URL (the http→https upgrade) → Location (absolute or relative, as sent) and status. */
  redirects: ReadonlyMap<string, { location: string; status: number }>;
  hops: number;
  /** The home page's URL after the redirects. */
  home: string;
  pages: SpecPage[];
  nav: NavLink[];
  headerSocials: SocialLink[];
  footerSocials: SocialLink[];
  footerEmails: EmailBit[];
  phones: (PhoneShown & { linked: boolean })[];
  nonProfileLinks: string[];
  traps: { kind: TrapKind; text: string }[];
  /** The hidden e-mail inside the PDF home page (fate pdf). */
  pdfEmail: string | null;
  /** The e-mail near the top of the huge home page (fate huge), in its first kilobyte: read to the bound, it is found. */
  hugeEmail: string | null;
  /** Street address for the footer. */
  address: string;
  /** `<meta charset>` or the older `<meta http-equiv="Content-Type">`, when declared by meta. */
  metaStyle: 'charset' | 'http-equiv';
  hang: 'silent' | 'stall';
  /** Whether the huge body declares its Content-Length. */
  hugeLength: boolean;
  /** How a redirect loop loops: 302 to itself, `/` ↔ `/index.html`, or http ↔ https. */
  loop: 'self' | 'pair' | 'scheme';
  /** The session cookie its pages set (PHP sites do), or null: a reader that sends it back kept cookies. */
  cookie: string | null;
}

const KO_PREFIX = ['하루', '봄날', '숲속', '달빛', '마루', '누리', '하나', '샘물', '온다', '별빛', '구름', '바람'];
const KO_KIND = ['카페', '베이커리', '치과', '한의원', '미용실', '꽃집', '공방', '식당', '약국', '서점'];
const EN_PREFIX = ['Haru', 'Bom', 'Soop', 'Dal', 'Maru', 'Nuri', 'Hana', 'Saem', 'Byeol', 'Baram'];
const EN_KIND = ['Cafe', 'Bakery', 'Dental Clinic', 'Studio', 'Florist', 'Bistro', 'Pharmacy', 'Books'];
const KO_CITY = ['서울특별시', '부산광역시', '경기도 성남시', '대구광역시'];
const KO_DISTRICT = ['마포구', '강남구', '종로구', '성동구', '해운대구', '수정구'];
const KO_ROAD = ['월드컵로', '테헤란로', '종로', '왕십리로', '해운대로'];
const EN_ROAD = ['Worldcup-ro', 'Teheran-ro', 'Jong-ro', 'Wangsimni-ro'];
const SLUG_PARTS = ['haru', 'bom', 'soop', 'dal', 'maru', 'nuri', 'hana', 'saem', 'onda', 'byeol', 'gureum', 'baram'];
const LOCALS = ['info', 'contact', 'hello', 'cafe', 'admin', 'sales', 'reservation', 'office', 'help', 'master'];
const FREE_MAIL = ['naver.com', 'gmail.com', 'daum.net', 'hanmail.net', 'nate.com'];

const ABOUT_PATHS = ['/about', '/about-us', '/sub/sub01_01.html', '/html/company.html', '/company.php', '/bbs/content.php?co_id=company'];
const CONTACT_PATHS = ['/contact', '/contact-us', '/sub/sub05_01.html', '/html/location.html', '/inquiry.php', '/bbs/content.php?co_id=contact'];
const ABOUT_TEXT = { ko: ['회사소개', '소개', '브랜드 소개', '매장 소개'], en: ['About', 'About us', 'Our story'] };
const CONTACT_TEXT = { ko: ['문의', '연락처', '오시는 길', '고객센터', '문의하기'], en: ['Contact', 'Contact us', 'Get in touch'] };
const EXTRAS = [
  { path: '/menu', ko: '메뉴', en: 'Menu' },
  { path: '/gallery', ko: '갤러리', en: 'Gallery' },
  { path: '/notice', ko: '공지사항', en: 'News' },
  { path: '/products', ko: '상품', en: 'Shop' },
];
const HOME_PATHS_AFTER_REDIRECT = ['/main/', '/kr/index.html', '/main/index.php', '/home'];
const REDIRECT_STATUSES = [301, 302, 307, 308];
/** Hosts of platforms, not of a business's own site: the web refuses them (fate `instagram` stands for them). */
const PLATFORM_HOSTS = [
  'instagram.com',
  'naver.com',
  'facebook.com',
  'kakao.com',
  'youtube.com',
  'twitter.com',
  'x.com',
  'tiktok.com',
  'linkedin.com',
  'google.com',
];

const SPEC_CACHE_SIZE = 64;

/**
 * A lazy, deterministic web. `hosts`: the sites' host names (a URL's scheme is kept as the
 * site's), or a count of hosts to generate. Platform hosts (instagram.com, blog.naver.com…) are
 * refused: they are not a business's own site.
 */
export function buildWeb(seed: number, hosts: readonly string[] | number, shares: Partial<WebShares> = {}): Web {
  const s = mergeShares(shares);
  const schemes = new Map<string, 'http' | 'https' | null>();
  if (typeof hosts === 'number') {
    if (!Number.isInteger(hosts) || hosts < 0) throw new Error(`buildWeb: host count must be a whole number, got ${hosts}`);
    for (let i = 0; i < hosts; i++) schemes.set(generatedHost(seed, i), null);
  } else {
    for (const entry of hosts) {
      const { host, scheme } = parseHostEntry(entry);
      schemes.set(host, scheme);
    }
  }
  const list = [...schemes.keys()];
  const cache = new Map<string, SiteSpec>();
  function spec(host: string): SiteSpec {
    const key = host.toLowerCase();
    const hit = cache.get(key);
    if (hit) {
      // Refresh its place in the LRU order.
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    if (!schemes.has(key)) throw new Error(`not a host of this web: ${host}`);
    const made = makeSpec(seed, key, schemes.get(key) ?? null, s);
    cache.set(key, made);
    if (cache.size > SPEC_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return made;
  }
  return {
    seed,
    shares: s,
    hosts: list,
    has: (host) => schemes.has(host.toLowerCase()),
    siteTruth: (host) => truthOf(spec(host)),
    answer: (request) => (schemes.has(request.host.toLowerCase()) ? renderAnswer(spec(request.host), request) : null),
  };
}

function mergeShares(partial: Partial<WebShares>): WebShares {
  const merged: WebShares = { ...DEFAULT_WEB_SHARES, ...partial, fates: { ...DEFAULT_WEB_SHARES.fates, ...partial.fates } };
  const fateTotal = Object.values(merged.fates).reduce((a, b) => a + b, 0);
  if (fateTotal > 1) throw new Error(`fate shares add up to ${fateTotal} > 1`);
  return merged;
}

function parseHostEntry(entry: string): { host: string; scheme: 'http' | 'https' | null } {
  let host = entry.trim().toLowerCase();
  let scheme: 'http' | 'https' | null = null;
  const url = /^(https?):\/\/([^/?#:]+)/.exec(host);
  if (url) {
    scheme = url[1] as 'http' | 'https';
    host = url[2]!;
  }
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(host)) throw new Error(`not a host name: ${entry}`);
  if (PLATFORM_HOSTS.some((p) => host === p || host.endsWith(`.${p}`)))
    throw new Error(`${host} is a platform, not a business's own site (fate 'instagram' stands for such websites)`);
  return { host, scheme };
}

function generatedHost(seed: number, index: number): string {
  const rng = createRng(deriveSeed(seed, `web host ${index}`));
  const name = `${rng.pick(SLUG_PARTS)}${rng.pick(SLUG_PARTS)}${index + 1}`;
  switch (rng.weighted([0.45, 0.3, 0.15, 0.1])) {
    case 0:
      return `www.${name}.co.kr`;
    case 1:
      return `${name}.com`;
    case 2:
      return `${name}.kr`;
    default:
      return `www.${name}.net`;
  }
}

function pickKey<K extends string>(rng: Rng, weights: Record<K, number>): K {
  const keys = Object.keys(weights) as K[];
  return keys[rng.weighted(keys.map((k) => weights[k]))]!;
}

/** One independent stream per aspect, so changing one share leaves the other draws as they were. */
function streams(seed: number, host: string): (aspect: string) => Rng {
  const siteSeed = deriveSeed(seed, `web site ${host}`);
  return (aspect) => createRng(deriveSeed(siteSeed, aspect));
}

function makeSpec(seed: number, host: string, givenScheme: 'http' | 'https' | null, s: WebShares): SiteSpec {
  const rng = streams(seed, host);
  const base = rng('base');
  const scheme = givenScheme ?? (host.endsWith('.co.kr') && base.chance(0.7) ? 'http' : 'https');
  const website = `${scheme}://${host}/`;
  const fate = drawFate(rng('fate'), s);
  const korean = base.chance(s.korean);
  const slug = host.replace(/^www\./, '').split('.')[0]!;
  const domain = host.replace(/^www\./, '');

  const hostileRng = rng('hostile');
  const hostile: Hostile | null = hostileRng.chance(s.hostile) ? hostileRng.pick(['name-formula', 'title-script', 'email-formula'] as const) : null;
  const plainName = korean ? `${base.pick(KO_PREFIX)} ${base.pick(KO_KIND)}` : `${base.pick(EN_PREFIX)} ${base.pick(EN_KIND)}`;
  const name = hostile === 'name-formula' ? `=HYPERLINK("http://evil.example/","${plainName}")` : plainName;

  const cs = rng('charset');
  const encoding: Encoding = korean && cs.chance(s.eucKr) ? 'euc-kr' : 'utf-8';
  const declared = pickKey(cs, s.declared);
  const charsetLabel = encoding === 'utf-8' ? cs.pick(['utf-8', 'UTF-8']) : cs.pick(['euc-kr', 'EUC-KR', 'ks_c_5601-1987']);

  // The pages: home, maybe about and contact (contact linked from home, or only from about), extras.
  const layout = rng('layout');
  const lang = korean && layout.chance(0.85) ? 'ko' : 'en';
  const hasAbout = layout.chance(s.about);
  const hasContact = layout.chance(s.contactPage);
  const deep = hasAbout && hasContact && layout.chance(s.deepContact);
  const style = layout.int(0, ABOUT_PATHS.length - 1);
  const extras = EXTRAS.filter(() => layout.chance(0.5));
  const aboutPath = ABOUT_PATHS[style]!;
  const contactPath = CONTACT_PATHS[layout.chance(0.7) ? style : layout.int(0, CONTACT_PATHS.length - 1)]!;
  const aboutText = layout.pick(ABOUT_TEXT[lang]);
  const contactText = layout.pick(CONTACT_TEXT[lang]);

  const chain = rng('redirects');
  let hops = 0;
  if (fate === 'ok' && chain.chance(s.redirectChain)) hops = chain.int(1, 5);
  if (fate === 'too-many-redirects') hops = chain.int(6, 8);
  const { redirects, home } = redirectChain(chain, website, hops);
  const homePath = new URL(home).pathname;

  const pages: SpecPage[] = [{ path: homePath, role: 'home', depth: 0, heading: name, bodyLinks: [], emails: [], imageEmails: [], scriptEmails: [] }];
  const nav: NavLink[] = extras.map((e) => ({ path: e.path, text: e[lang] }));
  for (const e of extras) pages.push({ path: e.path, role: 'extra', depth: 1, heading: e[lang], bodyLinks: [], emails: [], imageEmails: [], scriptEmails: [] });
  const about = hasAbout ? pushPage(pages, { path: aboutPath, role: 'about', depth: 1, heading: aboutText }) : null;
  if (about) nav.push({ path: aboutPath, text: aboutText });
  const contact = hasContact ? pushPage(pages, { path: contactPath, role: 'contact', depth: deep ? 2 : 1, heading: contactText }) : null;
  if (contact && !deep) nav.push({ path: contactPath, text: contactText });
  if (contact && deep) about!.bodyLinks.push({ path: contactPath, text: contactText });

  // E-mails: distinct addresses, each placed once or twice.
  const mail = rng('emails');
  const used = new Set<string>();
  const newAddress = (): string => {
    for (;;) {
      const local = mail.chance(0.8) ? mail.pick(LOCALS) : `${slug}${mail.int(1, 99)}`;
      const at = mail.chance(0.6) ? domain : mail.pick(FREE_MAIL);
      const address = `${hostile === 'email-formula' && used.size === 0 ? '=' : ''}${local}@${at}`;
      if (!used.has(address)) {
        used.add(address);
        return address;
      }
    }
  };
  const footerEmails: EmailBit[] = [];
  const placements: ((bit: EmailBit) => void)[] = [(b) => pages[0]!.emails.push(b), (b) => footerEmails.push(b)];
  const placementWeights = [0.3, 0.3];
  if (about) {
    placements.push((b) => about.emails.push(b));
    placementWeights.push(0.1);
  }
  if (contact) {
    placements.push((b) => contact.emails.push(b));
    placementWeights.push(0.3);
  }
  const count = mail.weighted(s.emailCount);
  // An e-mail whose local part starts with `=` must be on the site to be hostile.
  const emailCount = hostile === 'email-formula' ? Math.max(1, count) : count;
  for (let i = 0; i < emailCount; i++) {
    const address = newAddress();
    const first = mail.weighted(placementWeights);
    placements[first]!(emailBit(mail, address, s));
    if (mail.chance(s.secondOccurrence) && placements.length > 1) {
      let second = mail.weighted(placementWeights);
      if (second === first) second = (first + 1) % placements.length;
      placements[second]!(emailBit(mail, address, s));
    }
  }
  const hidden = rng('hidden');
  const hiddenPage = contact ?? pages[0]!;
  if (hidden.chance(s.imageOnly)) hiddenPage.imageEmails.push(newAddress());
  if (hidden.chance(s.scriptOnly)) hiddenPage.scriptEmails.push(newAddress());

  const social = rng('socials');
  const headerSocials: SocialLink[] = [];
  const footerSocials: SocialLink[] = [];
  if (social.chance(s.socials)) {
    const networks = NETWORKS.filter(() => social.chance(0.35));
    if (networks.length === 0) networks.push(social.pick(NETWORKS));
    for (const network of networks) {
      const id = profileId(social, network, slug);
      const where = social.int(0, 2); // header, footer, both
      if (where !== 1) headerSocials.push(socialLink(social, network, id, s.tracking));
      if (where !== 0) footerSocials.push(socialLink(social, network, id, s.tracking));
    }
  }
  const share = rng('share');
  const nonProfileLinks = share.chance(s.shareButtons) ? nonProfiles(share, website) : [];

  const trapRng = rng('traps');
  const traps: { kind: TrapKind; text: string }[] = [];
  if (trapRng.chance(s.traps)) traps.push({ kind: 'retina-image', text: trapRng.pick(['logo@2x.png', 'logo@3x.png', 'banner@2x.jpg']) });
  if (trapRng.chance(s.traps)) traps.push({ kind: 'placeholder', text: trapRng.pick(['example@example.com', 'you@example.com', 'your@email.com']) });
  if (trapRng.chance(s.traps)) traps.push({ kind: 'sentry', text: `${hex(trapRng, 32)}@sentry${trapRng.chance(0.5) ? '-next' : ''}.wixpress.com` });

  const phoneRng = rng('phones');
  const phones = Array.from({ length: phoneRng.weighted([0.2, 0.6, 0.2]) }, () => makePhone(phoneRng));

  const robotsRng = rng('robots');
  const robots: RobotsKind =
    fate === 'robots-disallowed'
      ? 'disallow-all'
      : contact && fate === 'ok' && robotsRng.chance(s.robotsContact)
        ? 'disallow-contact'
        : (['absent', 'allow-all', 'other-bot', 'disallow-admin'] as const)[robotsRng.weighted([0.4, 0.3, 0.15, 0.15])]!;

  const misc = rng('misc');
  return {
    host,
    scheme,
    website,
    fate,
    korean,
    name,
    hostile,
    charset: { encoding, declared },
    charsetLabel,
    robots,
    redirects,
    hops,
    home,
    pages,
    nav,
    headerSocials,
    footerSocials,
    footerEmails,
    phones,
    nonProfileLinks,
    traps,
    pdfEmail: fate === 'pdf' ? newAddress() : null,
    hugeEmail: fate === 'huge' ? newAddress() : null,
    address: korean
      ? `${misc.pick(KO_CITY)} ${misc.pick(KO_DISTRICT)} ${misc.pick(KO_ROAD)} ${misc.int(1, 300)}`
      : `${misc.int(1, 300)} ${misc.pick(EN_ROAD)}, Seoul`,
    metaStyle: cs.chance(0.5) ? 'charset' : 'http-equiv',
    hang: misc.chance(0.5) ? 'silent' : 'stall',
    hugeLength: misc.chance(0.5),
    loop: misc.pick(['self', 'pair', 'scheme'] as const),
    cookie: misc.chance(0.5) ? `PHPSESSID=${hex(misc, 26)}` : null,
  };
}

function pushPage(pages: SpecPage[], page: Pick<SpecPage, 'path' | 'role' | 'depth' | 'heading'>): SpecPage {
  const full: SpecPage = { ...page, bodyLinks: [], emails: [], imageEmails: [], scriptEmails: [] };
  pages.push(full);
  return full;
}

function drawFate(rng: Rng, s: WebShares): Fate {
  let r = rng.next();
  for (const fate of FATES) {
    if (fate === 'ok') continue;
    r -= s.fates[fate];
    if (r < 0) return fate;
  }
  return 'ok';
}

/** `hops` redirects from the website URL; the first may be the http→https upgrade. */
function redirectChain(rng: Rng, website: string, hops: number): { redirects: Map<string, { location: string; status: number }>; home: string } {
  const redirects = new Map<string, { location: string; status: number }>();
  if (hops === 0) return { redirects, home: website };
  const url = new URL(website);
  const finalPath = rng.pick(HOME_PATHS_AFTER_REDIRECT);
  let from = website;
  let origin = url.origin;
  for (let i = 1; i <= hops; i++) {
    let to: string;
    if (i === 1 && url.protocol === 'http:' && rng.chance(0.5)) {
      origin = `https://${url.host}`;
      to = `${origin}/`;
    } else {
      to = `${origin}${i === hops ? finalPath : `/r${i}.php`}`;
    }
    const relative = to.startsWith(new URL(from).origin) && rng.chance(0.4);
    // The upgrade answers only on http; every other hop answers on both schemes.
    const key = from.startsWith('http:') && to.startsWith('https:') ? from : new URL(from).pathname;
    redirects.set(key, { location: relative ? new URL(to).pathname : to, status: rng.pick(REDIRECT_STATUSES) });
    from = to;
  }
  return { redirects, home: from };
}

function emailBit(rng: Rng, address: string, s: WebShares): EmailBit {
  const writing = pickKey(rng, s.writing);
  return { address, writing, variant: rng.int(0, 999), key: rng.int(1, 255), upperDomain: writing === 'text' && rng.chance(0.15) };
}

function hex(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[rng.int(0, 15)];
  return out;
}

function alnum(rng: Rng, length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[rng.int(0, alphabet.length - 1)];
  return out;
}

function profileId(rng: Rng, network: Network, slug: string): string {
  switch (network) {
    case 'kakao_channel':
      return `_${alnum(rng, 6, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')}`;
    case 'youtube':
      return rng.chance(0.3) ? `channel/UC${alnum(rng, 22, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-')}` : `@${slug}`;
    case 'facebook':
      return rng.chance(0.15) ? `profile.php?id=1000${alnum(rng, 11, '0123456789')}` : `${slug}.official`;
    case 'instagram':
      return rng.chance(0.5) ? `${slug}_official` : slug;
    default:
      return `${slug}${rng.int(1, 99)}`;
  }
}

const CANONICAL: Record<Network, (id: string) => string> = {
  instagram: (id) => `https://www.instagram.com/${id}`,
  facebook: (id) => `https://www.facebook.com/${id}`,
  x: (id) => `https://x.com/${id}`,
  youtube: (id) => `https://www.youtube.com/${id}`,
  tiktok: (id) => `https://www.tiktok.com/@${id}`,
  linkedin: (id) => `https://www.linkedin.com/company/${id}`,
  kakao_channel: (id) => `https://pf.kakao.com/${id}`,
  naver_blog: (id) => `https://blog.naver.com/${id}`,
};

/** The forms a site writes a profile in: tracking parameters, other hosts, trailing slashes, sub-pages. */
const WRITTEN: Record<Network, ((id: string, rng: Rng) => string)[]> = {
  instagram: [
    (id, r) => `https://www.instagram.com/${id}/?igshid=${alnum(r, 12)}`,
    (id) => `http://instagram.com/${id}`,
    (id) => `https://www.instagram.com/${id}/?hl=ko`,
    (id) => `https://instagram.com/${id}?utm_source=ig_web_button_share_sheet&utm_medium=copy_link`,
  ],
  facebook: [
    (id, r) => `https://www.facebook.com/${id}${id.includes('?') ? '&' : '?'}fbclid=IwAR${alnum(r, 20)}`,
    (id) => (id.includes('?') ? `https://m.facebook.com/${id}` : `https://m.facebook.com/${id}/`),
    (id) => `https://facebook.com/${id}${id.includes('?') ? '&' : '?'}ref=page_internal`,
  ],
  x: [
    (id) => `https://twitter.com/${id}`,
    (id) => `https://x.com/${id}?s=20`,
    (id) => `https://mobile.twitter.com/${id}/`,
    (id) => `https://www.twitter.com/${id}?ref_src=twsrc%5Etfw`,
  ],
  youtube: [(id, r) => `https://youtube.com/${id}?si=${alnum(r, 16)}`, (id) => `https://m.youtube.com/${id}/`, (id) => `http://www.youtube.com/${id}/featured`],
  tiktok: [(id) => `https://www.tiktok.com/@${id}?lang=ko-KR`, (id, r) => `https://tiktok.com/@${id}?_t=8${alnum(r, 9)}&_r=1`],
  linkedin: [(id) => `https://kr.linkedin.com/company/${id}?trk=public_profile`, (id) => `http://linkedin.com/company/${id}/`],
  kakao_channel: [
    (id) => `http://pf.kakao.com/${id}/chat`,
    (id) => `https://pf.kakao.com/${id}?utm_source=homepage`,
    (id) => `https://pf.kakao.com/${id}/friend`,
  ],
  naver_blog: [(id) => `https://m.blog.naver.com/${id}`, (id) => `https://blog.naver.com/PostList.naver?blogId=${id}`, (id) => `http://blog.naver.com/${id}/`],
};

function socialLink(rng: Rng, network: Network, id: string, tracking: number): SocialLink {
  const canonical = CANONICAL[network](id);
  const written = rng.chance(tracking) ? rng.pick(WRITTEN[network])(id, rng) : canonical;
  return { network, written, canonical };
}

function nonProfiles(rng: Rng, website: string): string[] {
  const u = encodeURIComponent(website);
  const all = [
    `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent('추천합니다')}`,
    `https://twitter.com/share?url=${u}`,
    `https://story.kakao.com/share?url=${u}`,
    `https://share.naver.com/web/shareView?url=${u}`,
    `https://www.instagram.com/p/C${alnum(rng, 10, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/`,
    `https://www.youtube.com/watch?v=${alnum(rng, 11, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
  ];
  return all
    .filter(() => rng.chance(0.4))
    .concat(all[0]!)
    .filter((v, i, a) => a.indexOf(v) === i);
}

function makePhone(rng: Rng): PhoneShown & { linked: boolean } {
  const kind = rng.weighted([0.4, 0.25, 0.25, 0.1]);
  let area: string;
  let mid: string;
  if (kind === 3) {
    // A nationwide representative number: no area code.
    const rep = rng.pick(['1588', '1577', '1644', '1899']);
    const last = String(rng.int(0, 9999)).padStart(4, '0');
    return { written: `${rep}-${last}`, e164: `+82${rep}${last}`, linked: rng.chance(0.5) };
  }
  if (kind === 0) {
    area = '2';
    mid = String(rng.int(rng.chance(0.8) ? 1000 : 200, rng.chance(0.8) ? 9999 : 999));
  } else if (kind === 1) {
    area = rng.pick(['31', '32', '51', '53', '42', '62', '64']);
    mid = String(rng.int(200, 999));
  } else {
    area = '10';
    mid = String(rng.int(1000, 9999));
  }
  const last = String(rng.int(0, 9999)).padStart(4, '0');
  const written = [`0${area}-${mid}-${last}`, `0${area}.${mid}.${last}`, `(0${area}) ${mid}-${last}`, `+82-${area}-${mid}-${last}`][
    rng.weighted([0.6, 0.15, 0.15, 0.1])
  ]!;
  return { written, e164: `+82${area}${mid}${last}`, linked: rng.chance(0.5) };
}

// ——— the truth ———

function truthOf(spec: SiteSpec): SiteTruth {
  const base = {
    host: spec.host,
    website: spec.fate === 'instagram' ? `https://www.instagram.com/${spec.host.replace(/^www\./, '').split('.')[0]}/` : spec.website,
    fate: spec.fate,
    language: spec.korean ? ('ko' as const) : ('en' as const),
    name: spec.name,
    hostile: spec.hostile,
    traps: [] as string[],
    nonProfileLinks: [] as string[],
    cookie: spec.fate === 'ok' || spec.fate === 'robots-disallowed' || spec.fate === 'too-many-redirects' ? spec.cookie : null,
  };
  const allAddresses = (): string[] => {
    const seen = new Set<string>();
    for (const b of spec.footerEmails) seen.add(b.address);
    for (const p of spec.pages) for (const a of [...p.emails.map((b) => b.address), ...p.imageEmails, ...p.scriptEmails]) seen.add(a);
    return [...seen];
  };
  const empty = { charset: null, robots: null, redirects: 0, home: null, pages: [], emails: [], socials: {}, contactPage: null, phones: [] };
  switch (spec.fate) {
    case 'instagram':
      return { ...base, ...empty, socials: { instagram: base.website.replace(/\/$/, '') }, hiddenEmails: [] };
    case 'pdf':
      return { ...base, ...empty, hiddenEmails: spec.pdfEmail ? [{ address: spec.pdfEmail, reason: 'pdf' }] : [] };
    case 'huge':
      return {
        ...base,
        ...empty,
        home: `${new URL(spec.website).origin}/`,
        emails: spec.hugeEmail
          ? [{ address: spec.hugeEmail, depth: 0, occurrences: [{ page: `${new URL(spec.website).origin}/`, writing: 'text', upperDomain: false }] }]
          : [],
        hiddenEmails: [],
      };
    case 'too-many-redirects':
      return {
        ...base,
        ...empty,
        charset: spec.charset,
        robots: spec.robots,
        redirects: spec.hops,
        hiddenEmails: allAddresses().map((address) => ({ address, reason: 'unreachable' })),
      };
    case 'ok':
    case 'robots-disallowed':
      break;
    default:
      return { ...base, ...empty, hiddenEmails: [] };
  }

  const origin = new URL(spec.home).origin;
  const disallowed = robotsDisallows(spec);
  const allowed = (path: string): boolean => !disallowed.some((rule) => path.startsWith(rule));
  const urlOf = (path: string): string => `${origin}${path}`;
  const found = new Map<string, FindableEmail>();
  const note = (bit: EmailBit, page: SpecPage): void => {
    const address = bit.address;
    const occurrence: EmailOccurrence = { page: urlOf(page.path), writing: bit.writing, upperDomain: bit.upperDomain };
    const known = found.get(address);
    if (known) {
      known.occurrences.push(occurrence);
      known.depth = Math.min(known.depth, page.depth) as 0 | 1 | 2;
    } else found.set(address, { address, depth: page.depth, occurrences: [occurrence] });
  };
  const home = spec.pages[0]!;
  // Disallow-all forbids the home page too: then nothing on the site is a reader's to note.
  const readable = allowed(home.path);
  if (readable) for (const bit of spec.footerEmails) note(bit, home);
  for (const page of spec.pages) if (allowed(page.path)) for (const bit of page.emails) note(bit, page);

  const hiddenEmails: HiddenEmail[] = [];
  const hide = (address: string, reason: HiddenReason): void => {
    if (!found.has(address) && !hiddenEmails.some((h) => h.address === address)) hiddenEmails.push({ address, reason });
  };
  for (const bit of spec.footerEmails) hide(bit.address, 'robots');
  for (const page of spec.pages) {
    for (const address of page.imageEmails) hide(address, 'image');
    for (const address of page.scriptEmails) hide(address, 'script');
    for (const bit of page.emails) hide(bit.address, 'robots');
  }

  const socials: Partial<Record<Network, string>> = {};
  if (readable) for (const link of [...spec.headerSocials, ...spec.footerSocials]) socials[link.network] = link.canonical;
  const contact = spec.pages.find((p) => p.role === 'contact');
  return {
    ...base,
    charset: spec.charset,
    robots: spec.robots,
    redirects: spec.hops,
    home: spec.home,
    pages: spec.pages.map((p) => ({ url: urlOf(p.path), role: p.role, depth: p.depth, allowed: allowed(p.path) })),
    emails: [...found.values()],
    hiddenEmails,
    traps: readable ? spec.traps.map((t) => t.text) : [],
    socials,
    nonProfileLinks: readable ? spec.nonProfileLinks : [],
    contactPage: contact ? { url: urlOf(contact.path), depth: contact.depth === 2 ? 2 : 1, allowed: allowed(contact.path) } : null,
    phones: readable ? spec.phones.map(({ written, e164 }) => ({ written, e164 })) : [],
  };
}
