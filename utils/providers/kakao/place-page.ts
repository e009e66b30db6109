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

/**
 * The week under the page's "영업시간" heading (found by its words: the markup is in no source),
 * its lines joined as the hours reader reads a week ("월 10:00 ~ 22:00 | 화 …"); null when the page
 * shows no such heading, or nothing under it.
 */
function hoursShown(doc: Document): string | null {
  const heading = Array.from(doc.querySelectorAll('strong, h2, h3, h4, h5, span, dt, div')).find(
    (el) => el.children.length === 0 && clean(el.textContent) === '영업시간',
  );
  const block = heading?.parentElement;
  if (!block) return null;
  const lines = Array.from(block.querySelectorAll('li, dd, p'))
    .filter((el) => !el.querySelector('li, dd, p'))
    .map((el) => clean(el.textContent))
    .filter((t): t is string => !!t && t !== '영업시간');
  return lines.length > 0 ? lines.join(' | ').slice(0, 2000) : null;
}
