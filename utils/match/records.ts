/**
 * What the store keeps of the matcher's work (store version 8): the businesses of two or more
 * listings, the candidates left for the user, the user's decisions, and the last run. A place
 * in no stored business is a business of one; its id is still `businessIdOf([key])`.
 */
import type { Ambiguity, Business } from './types';

export interface BusinessRecord extends Business {
  /** When a run first wrote this business as it is now. */
  since: number;
}

export type AmbiguityRecord = Ambiguity;

/** The one run summary kept (key `latest`). */
export interface LinkRunRecord {
  id: 'latest';
  startedAt: number;
  finishedAt: number;
  places: number;
  businesses: number;
  ambiguities: number;
  pairsScored: number;
  /** The points a pair needed, shown beside every score. */
  threshold: number;
  /** Records written (new or changed) and deleted by the run: the re-run's real cost. */
  written: number;
  deleted: number;
}
