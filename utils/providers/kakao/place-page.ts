import { confirmIdFromPlaceUrl } from './ids';
import { clean, kakaoPlaceShown } from './shown';
import type { ProviderPlace } from '../../domain/place';

/**
 * A place page, `place.map.kakao.com/{confirmid}`. The live page is an app shell whose markup
 * the notes do not give [?]: the id is the URL's, the name the page's heading (or its og:title),
 * the rest read where the page shows it under the classes the replica uses, the hours under their
 * heading's words; nothing is guessed.
 */
export function readPlacePage(doc: Document, url: string): ProviderPlace | null {
  const id = confirmIdFromPlaceUrl(url);
  if (!id) return null;
  const text = (sel: string) => clean(doc.querySelector(sel)?.textContent);
  const og = clean(doc.querySelector('meta[property="og:title"]')?.getAttribute('content'))?.replace(/\s*\|\s*카카오맵\s*$/, '') ?? null;
  const name = text('.tit_place') ?? og;
  if (!name) return null;
  const category = text('.info_cate');
  const road = text('.txt_address');
  const jibun = text('.txt_addrnum')?.replace(/^지번\s*/, '') ?? null;
  const ratingText = text('.num_star');
  const rating = ratingText && /^\d(\.\d+)?$/.test(ratingText) && Number(ratingText) <= 5 ? Number(ratingText) : null;
  const countText = text('.num_rate');
  const reviews = countText && /^[\d,]+$/.test(countText) ? Number(countText.replace(/,/g, '')) : null;
  const homepage = doc.querySelector('a.link_homepage')?.getAttribute('href') ?? null;
  let website: string | null = null;
  try {
    const u = homepage ? new URL(homepage) : null;
    website = u && (u.protocol === 'http:' || u.protocol === 'https:') ? u.href : null;
  } catch {
    website = null;
  }
  return kakaoPlaceShown(id, { name, category, road, jibun, phone: text('.txt_contact'), website, rating, reviews, hours: hoursShown(doc) });
}

/** A line that says days and times: what a week's line is, not an address, a phone or a review. */
const WEEK_LINE = /(매일|평일|주말|[월화수목금토일](요일)?|공휴일)[^\n]*\d{1,2}:\d{2}|휴무|휴일/;
const HEADING = 'strong, h2, h3, h4, h5, dt, span, div';

/**
 * The week under the page's "영업시간" heading (found by its words: the markup is in no source):
 * the lines that follow the heading, up to the next heading (for a `dt`, its `dd`s), outside any
 * list of reviews; kept only when they read as days and times. Every such heading is tried, the
 * first with a week wins. Null when none shows one.
 */
function hoursShown(doc: Document): string | null {
  const headings = Array.from(doc.querySelectorAll(HEADING)).filter((el) => el.children.length === 0 && clean(el.textContent) === '영업시간');
  for (const heading of headings) {
    if (heading.closest('[class*="review"], [id*="review"]')) continue;
    const lines: string[] = [];
    for (let el = heading.nextElementSibling; el; el = el.nextElementSibling) {
      if (heading.tagName === 'DT' ? el.tagName !== 'DD' : el.matches('strong, h2, h3, h4, h5, dt')) break;
      const leaves = [el, ...Array.from(el.querySelectorAll('li, dd, p, span'))].filter((x) => !x.querySelector('li, dd, p, span'));
      for (const leaf of leaves) {
        const t = clean(leaf.textContent);
        if (t) lines.push(t);
      }
    }
    const week = lines.filter((l) => WEEK_LINE.test(l));
    if (week.length > 0 && week.length === lines.length) return week.join(' | ').slice(0, 2000);
  }
  return null;
}
