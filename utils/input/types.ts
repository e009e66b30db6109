/**
 * What one line of a place list turns into (issue 40, "a list of places as input"): a place
 * known by the product's own key, a share link that must be opened before its place is known,
 * or a line that is refused with the reason a person can act on. Nothing here is a guess: a
 * line that does not name exactly one place of Google, Naver or Kakao is refused, never read
 * as the nearest thing it resembles.
 */
import type { ProviderId } from '../domain/place';

/** A place the list names, with the fields the place-details pass needs to load its page. */
export interface ListedPlace {
  provider: ProviderId;
  /** The product's canonical id (Listing.providerId): Google's CID, Naver's place id, Kakao's confirmid. */
  providerId: string;
  /** The product's dedup key (placeKey): `google:{cid}`, `naver:{id}`, `kakao:{confirmid}`. */
  key: string;
  /** Google only: the CID (= providerId); null on Naver and Kakao, as on a stored Listing. */
  cid: string | null;
  /** Google only: `0x…:0x…` when the line carried it (or a ChIJ place_id that holds it), else null. */
  featureId: string | null;
  /** Google only: the ChIJ place_id when the feature id is known, else null. */
  placeId: string | null;
  /** The place's own link, built from its id (never the line as written): for the confirmation list. */
  url: string;
  /** Whether the line was a link or a bare id with its site. */
  from: 'link' | 'id';
}

/** The short-link services of each site; a share link names its place only once opened. */
export interface ListedShare {
  provider: ProviderId;
  /** The link to open: https, the service's own host, its token, nothing else (no query, no fragment). */
  url: string;
}

export type LineVerdict = { kind: 'place'; place: ListedPlace } | { kind: 'share'; share: ListedShare } | { kind: 'bad'; reason: string };
