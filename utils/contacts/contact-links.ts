/**
 * Which of a home page's links the contacts pass also reads (issue 23: at most 3 pages of the same
 * site whose link words or path suggest contact details). Ranked by what the words promise: a
 * contact page, an imprint or directions hold the address and phone; an "about" page often does.
 * The words a person reads weigh more than the path a CMS generated.
 */
import type { PageLink } from './types';

/** Pages that exist to say how to reach the business. */
const CONTACT_WORDS = [
  'contact',
  'kontakt',
  'impressum',
  'imprint',
  'contacto',
  'contato',
  'contatti',
  'nous contacter',
  'get in touch',
  '문의',
  '연락처',
  '오시는 길',
  '찾아오시는 길',
  '고객센터',
  '고객지원',
  // Clinics, academies and offices name their contact page so; not 상담사례 or 상담후기 (stories).
  '온라인상담',
  '상담문의',
  '상담신청',
  '상담예약',
  '상담안내',
  '연락하기',
  'お問い合わせ',
  '問い合わせ',
  'お問合せ',
  '問合せ',
  'アクセス',
  '联系我们',
  '聯絡我們',
  '聯繫我們',
];
/** Pages that often say it too. */
const ABOUT_WORDS = [
  'about',
  'company',
  'location',
  'a propos',
  'quienes somos',
  'sobre nos',
  'uber uns',
  'ueber uns',
  '회사소개',
  '소개',
  '매장안내',
  '위치',
  '会社概要',
  '会社案内',
  '企業情報',
  '关于我们',
  '關於我們',
];

/** Documents, images, archives and media: not pages to read. */
const FILE_EXTENSIONS = new Set(
  'pdf hwp hwpx doc docx xls xlsx ppt pptx jpg jpeg png gif webp svg bmp ico zip rar 7z gz tar mp3 mp4 mov avi wmv exe dmg apk'.split(' '),
);
const INDEX_PAGE = /\/(?:index|default|main)\.(?:html?|php|aspx?|jsp)$/i;

export function pickContactPages(links: PageLink[], home: string, max = 3): string[] {
  const homeUrl = parse(home);
  if (!homeUrl) return [];
  const site = siteHost(homeUrl);
  const seen = new Set<string>([pageKey(homeUrl)]);
  const ranked: { href: string; score: number }[] = [];
  for (const link of links) {
    const url = parse(link.href);
    // A link with a user name or password is never asked (and never put in a record).
    if (!url || url.username || url.password || siteHost(url) !== site || isFile(url)) continue;
    const key = pageKey(url);
    if (seen.has(key)) continue;
    seen.add(key);
    const score = Math.max(wordsScore(link.text, 4, 2), wordsScore(pathWords(url), 3, 1));
    if (score > 0) ranked.push({ href: link.href, score });
  }
  // Array.prototype.sort is stable: equal scores keep the page's order.
  return ranked
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((page) => page.href);
}

function parse(href: string): URL | null {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

const siteHost = (url: URL) => url.hostname.replace(/^www\./, '');

/** One key for one page: `www.`, the scheme, a trailing slash, `/index.html` and the fragment make no difference. */
function pageKey(url: URL): string {
  const path = url.pathname.replace(INDEX_PAGE, '/').replace(/\/+$/, '');
  return `${siteHost(url)}${path}${url.search}`;
}

function isFile(url: URL): boolean {
  const extension = url.pathname.match(/\.([a-z0-9]{1,5})$/i)?.[1]?.toLowerCase();
  return extension !== undefined && FILE_EXTENSIONS.has(extension);
}

/** A path as words: `/company/contact-us.html` → `company contact us html`; `%EB%AC%B8%EC%9D%98` → `문의`. */
function pathWords(url: URL): string {
  let path = url.pathname + url.search;
  try {
    path = decodeURIComponent(path);
  } catch {
    // An invalid escape: the path as it is still has its ASCII words.
  }
  return path.replace(/[-_/.+=?&]+/g, ' ');
}

function wordsScore(text: string, contactScore: number, aboutScore: number): number {
  const words = fold(text);
  if (CONTACT_WORDS.some((word) => hasWord(words, word))) return contactScore;
  if (ABOUT_WORDS.some((word) => hasWord(words, word))) return aboutScore;
  return 0;
}

/** Compatibility forms, case and accents folded: `À propos` → `a propos`, `Über uns` → `uber uns`. */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * A Latin word must start a word (`contact` in `contact-us`, `contacts`, `contactez`, not in
 * `nocontactless`); Korean, Japanese and Chinese words are matched anywhere and without spaces,
 * which those languages place freely (`오시는길`, `오시는 길`).
 */
function hasWord(words: string, word: string): boolean {
  if (/^[a-z ]+$/.test(word)) return new RegExp(`(?:^|[^a-z])${word}`).test(words);
  return words.replace(/ /g, '').includes(fold(word).replace(/ /g, ''));
}
