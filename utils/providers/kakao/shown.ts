/**
 * What a Kakao page shows of a place, read the same way by the list's cards (list-dom.ts) and the
 * place page (place-page.ts).
 */
import type { ProviderPlace } from '../../domain/place';
import { kakaoKey } from './ids';
import { placeUrl } from './urls';

/** Text with its runs of white space made one space, trimmed; null when nothing is left. */
export function clean(s: string | null | undefined): string | null {
  if (typeof s !== 'string') return null;
  const t = s.replace(/\s+/g, ' ').trim();
  return t ? t : null;
}

/**
 * A place as a Kakao page shows it (a list card, a place page): no coordinates (only the page's
 * answers carry them), `address` the jibun one or the only one shown (place.ts), and a rating
 * only when it is one: an unrated place shows "0.0" and "0건" (or nothing).
 */
export function kakaoPlaceShown(
  id: string,
  f: {
    name: string;
    category: string | null;
    road: string | null;
    jibun: string | null;
    phone: string | null;
    website: string | null;
    rating: number | null;
    reviews: number | null;
    /** The week's hours as the page words them, where it shows them. */
    hours?: string | null;
  },
): ProviderPlace {
  const rated = f.rating !== null && (f.rating > 0 || (f.reviews ?? 0) > 0);
  return {
    provider: 'kakao',
    providerId: id,
    key: kakaoKey(id),
    name: f.name,
    category: f.category,
    categoryPath: f.category ? [f.category] : [],
    address: f.jibun ?? f.road,
    roadAddress: f.road,
    phone: f.phone,
    virtualPhone: null,
    website: f.website,
    bookingUrl: null,
    rating: rated ? f.rating : null,
    reviews: rated ? f.reviews : null,
    lat: null,
    lng: null,
    url: placeUrl(id),
    sponsored: false,
    ...(f.hours ? { hoursText: f.hours } : {}),
  };
}
