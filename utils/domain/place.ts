/**
 * A place as a provider's extractor reads it, before it becomes a stored listing. Provider-
 * neutral: Google's extractor still produces `Listing` directly (utils/domain/listing.ts); the
 * Naver and Kakao extractors produce this, and the provider seam (issue 11) maps both onto one
 * stored shape. Fields the page did not show are null, never guessed.
 */
export type ProviderId = 'google' | 'naver' | 'kakao';

export interface ProviderPlace {
  provider: ProviderId;
  /** The provider's canonical id: Naver's place id (digits), Kakao's confirmid (digits). */
  providerId: string;
  /** The dedup key: `{provider}:{providerId}`. */
  key: string;
  name: string;
  /** The most specific category the page shows (Kakao: the deepest level). */
  category: string | null;
  /** Every level of the category the page shows, broadest first (Kakao cate_name_depth1..5); [] when unknown. */
  categoryPath: string[];
  /** The lot-number (jibun) address, or the only address shown. */
  address: string | null;
  /** The road-name address (도로명 주소), when shown. */
  roadAddress: string | null;
  /** The phone as displayed. */
  phone: string | null;
  /** Naver's 0507 virtual number (안심번호), when it is shown apart from the phone. */
  virtualPhone: string | null;
  website: string | null;
  bookingUrl: string | null;
  rating: number | null;
  /** Visitor review count (Naver) or review count (Kakao), where shown. */
  reviews: number | null;
  /** WGS84. */
  lat: number | null;
  lng: number | null;
  /** The canonical place URL: `https://map.naver.com/p/entry/place/{id}`, `https://place.map.kakao.com/{confirmid}`. */
  url: string;
  /** An ad: flagged, never counted as an organic result. */
  sponsored: boolean;
  /** Opening hours in the site's own words, where the page gives them (read as a week when the listing is made). */
  hoursText?: string | null;
}

export function placeKey(provider: ProviderId, providerId: string): string {
  return `${provider}:${providerId}`;
}
