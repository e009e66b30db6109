/** Which map site a listing came from. Only Google is implemented so far. */
export type Provider = 'google';

/**
 * One business as extracted from a map page. Fields the page did not show are `null`
 * (never guessed): an absent website is a meaningful signal to the user.
 */
export interface Listing {
  /**
   * The dedup key: `google:{cid}`. Every Google id form (feature id `0x…:0x…`, CID,
   * ChIJ place_id) carries the CID, so every form a page shows maps to this one key.
   */
  key: string;
  provider: Provider;
  /** ChIJ place_id when derivable (feature id known), else null. */
  placeId: string | null;
  /** Feature id `0x…:0x…` when known. */
  featureId: string | null;
  /** Unsigned decimal CID. */
  cid: string;
  name: string;
  category: string | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  rating: number | null;
  reviews: number | null;
  lat: number | null;
  lng: number | null;
  /** A URL that opens the place: `https://www.google.com/maps?cid={cid}` or the card href. */
  url: string;
  /** Sponsored cards repeat an organic place; they are flagged and never counted as organic results. */
  sponsored: boolean;
}

/** A listing as stored: the extracted fields plus where and when it was found. */
export interface StoredListing extends Listing {
  firstSeen: number;
  lastSeen: number;
  /** Sweep ids (and 'browsing') that found it. */
  collections: string[];
  keywords: string[];
  /** Cell ids that found it (capped, newest kept; for explaining coverage, not for logic). */
  cells: string[];
}
