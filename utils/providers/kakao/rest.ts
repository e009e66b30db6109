/**
 * The official Kakao Local REST answer (`dapi.kakao.com/v2/local/search/keyword.json`), read
 * only as evidence: the extension reads the web page with the person's own browser and has no
 * API key. The real capture in shared/real-pages/kakao/ is of this shape, so it is what proves
 * that ids, place URLs, category paths and coordinates mean what mapdaum.ts assumes
 * (`id` = confirmid, `place_url` = the place page, `category_name` = "depth1 > depth2 > …").
 * The REST API lists at most `meta.pageable_count` = 45 places per search (B3).
 */
import type { ProviderPlace } from '../../domain/place';
import { inKorea } from '../../geo/wcongnamul';
import { confirmIdFromPlaceUrl, kakaoKey, parseConfirmId } from './ids';
import { placeUrl } from './urls';

export interface RestKeywordPage {
  places: ProviderPlace[];
  skipped: number;
  totalCount: number | null;
  pageableCount: number | null;
  isEnd: boolean | null;
}

export function parseRestKeywordAnswer(data: unknown): RestKeywordPage | null {
  if (!isObject(data) || !Array.isArray(data.documents)) return null;
  const places: ProviderPlace[] = [];
  let skipped = 0;
  for (const d of data.documents as unknown[]) {
    const p = isObject(d) ? readDocument(d) : null;
    if (p) places.push(p);
    else skipped++;
  }
  const meta = isObject(data.meta) ? data.meta : {};
  return {
    places,
    skipped,
    totalCount: count(meta.total_count),
    pageableCount: count(meta.pageable_count),
    isEnd: typeof meta.is_end === 'boolean' ? meta.is_end : null,
  };
}

function readDocument(d: Record<string, unknown>): ProviderPlace | null {
  const id = parseConfirmId(d.id);
  const name = str(d.place_name);
  // The id and the place URL must agree: a disagreement means the fields moved.
  const urlId = confirmIdFromPlaceUrl(str(d.place_url));
  if (!id || !name || (urlId !== null && urlId !== id)) return null;
  const path = (str(d.category_name) ?? '')
    .split('>')
    .map((s) => s.trim())
    .filter(Boolean);
  // REST x/y are WGS84 longitude/latitude as strings (unlike map.daum's WCONGNAMUL x/y).
  const lng = Number(str(d.x));
  const lat = Number(str(d.y));
  const located = Number.isFinite(lat) && Number.isFinite(lng) && inKorea({ lat, lng });
  return {
    provider: 'kakao',
    providerId: id,
    key: kakaoKey(id),
    name,
    category: path.at(-1) ?? null,
    categoryPath: path,
    address: str(d.address_name) ?? str(d.road_address_name),
    roadAddress: str(d.road_address_name),
    phone: str(d.phone),
    virtualPhone: null,
    website: null,
    bookingUrl: null,
    rating: null,
    reviews: null,
    lat: located ? lat : null,
    lng: located ? lng : null,
    url: placeUrl(id),
    sponsored: false,
  };
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
