import { confirmIdFromPlaceUrl, kakaoKey } from './ids';
import { placeUrl } from './urls';
import type { ProviderPlace } from '../place';

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
  const rated = rating !== null && (rating > 0 || (reviews ?? 0) > 0);
  const homepage = doc.querySelector('a.link_homepage')?.getAttribute('href') ?? null;
  let website: string | null = null;
  try {
    const u = homepage ? new URL(homepage) : null;
    website = u && (u.protocol === 'http:' || u.protocol === 'https:') ? u.href : null;
  } catch {
    website = null;
  }
  return {
    provider: 'kakao',
    providerId: id,
    key: kakaoKey(id),
    name,
    category,
    categoryPath: category ? [category] : [],
    address: jibun ?? road,
    roadAddress: road,
    phone: text('.txt_contact'),
    virtualPhone: null,
    website,
    bookingUrl: null,
    rating: rated ? rating : null,
    reviews: rated ? reviews : null,
    lat: null,
    lng: null,
    url: placeUrl(id),
    sponsored: false,
  };
}

function clean(s: string | null | undefined): string | null {
  if (typeof s !== 'string') return null;
  const t = s.replace(/\s+/g, ' ').trim();
  return t ? t : null;
}
