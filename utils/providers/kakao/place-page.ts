import { confirmIdFromPlaceUrl } from './ids';
import { clean, kakaoPlaceShown } from './shown';
import type { ProviderPlace } from '../../domain/place';

/**
 * A place page, `place.map.kakao.com/{confirmid}`. The live page is an app shell whose markup
 * the notes do not give [?]: the id is the URL's, the name the page's heading (or its og:title),
 * the rest read where the page shows it under the classes the replica uses; nothing is guessed.
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
  return kakaoPlaceShown(id, { name, category, road, jibun, phone: text('.txt_contact'), website, rating, reviews });
}
