import type { ProviderId } from '../domain/place';
import type { StoredListing } from '../domain/listing';

/**
 * What the matcher reads of a stored place: identity, pin and the fields that are evidence.
 * A projection, so a run over 100,000 places holds no more than it needs.
 */
export type MatchPlace = Pick<StoredListing, 'key' | 'provider' | 'name' | 'category' | 'lat' | 'lng' | 'address'> &
  Partial<Pick<StoredListing, 'categories' | 'phoneE164' | 'otherPhones' | 'roadAddress' | 'closed' | 'openingHours' | 'hours'>>;

/** One kind of evidence for or against two listings being the same business. */
export type EvidenceKind = 'distance' | 'name' | 'phone' | 'address' | 'category';

/** One piece of evidence: its points (positive for, negative against) and what was seen. */
export interface Reason {
  kind: EvidenceKind;
  points: number;
  /** What was compared, for a person: `42 m`, `스타벅스 강남 ≈ starbucks gangnam (0.92)`. */
  detail: string;
}

/** A scored pair of listings of two different sites. `a` is on the site listed first in the registry. */
export interface PairScore {
  a: string;
  b: string;
  /** Between the two pins. */
  metres: number;
  /** The sum of the reasons' points. */
  score: number;
  reasons: Reason[];
}

/** The user's word on a pair, which every later run keeps. */
export type LinkDecision = 'confirmed' | 'broken';

export interface LinkDecisionRecord {
  /** `pairId(a, b)`. */
  id: string;
  a: string;
  b: string;
  decision: LinkDecision;
  at: number;
}

/** An accepted link: by its score, or because the user confirmed it. */
export interface BusinessLink extends PairScore {
  by: 'score' | 'user';
}

/**
 * One business: at most one listing per site. A business of one listing is not stored (it is
 * the place itself); its id is still `businessIdOf([key])`.
 */
export interface Business {
  id: string;
  /** Place keys, one per site, in registry order. */
  members: string[];
  links: BusinessLink[];
}

/** Why candidates were left unmatched for the user rather than guessed. */
export type AmbiguityWhy =
  /** Two candidates scored too close to tell apart (two branches 30 m apart). */
  | 'close-runner-up'
  /** Links that do not agree across the three sites (A=B, B=C but A≠C, or two listings of one site). */
  | 'inconsistent';

export interface Ambiguity {
  id: string;
  why: AmbiguityWhy;
  /** Every listing involved. */
  places: string[];
  /** The candidate pairs, best first. */
  candidates: PairScore[];
}

/** What a run decides for a set of places. */
export interface MatchResult {
  businesses: Business[];
  ambiguities: Ambiguity[];
  /** Pairs scored (for the benchmark's account of the work). */
  pairsScored: number;
}

export type SiteId = ProviderId;
