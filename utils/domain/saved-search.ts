import type { ProviderId } from './place';
/** How often a saved search is collected again. 'off': only when the user says so. */
export type Repeat = 'off' | 'daily' | 'weekly';

/**
 * An area and keywords the user wants watched. Kept as the text the user typed, so a run
 * plans its sweep exactly as the popup would (planSweep re-reads and re-checks it).
 */
export interface SavedSearch {
  id: string;
  /** The user's label for it. */
  name: string;
  areaText: string;
  keywordsText: string;
  /** The map site it sweeps; absent on searches saved before providers: Google. */
  provider?: ProviderId;
  repeat: Repeat;
  /** Local hour 0–23 (the browser's time zone at that day). */
  hour: number;
  /** Local weekday 0–6, Sunday 0 (as Date#getDay); used when repeat is 'weekly'. */
  weekday: number;
  /** No new place for longer than this makes the search a staleness candidate. */
  thresholdDays: number;
  createdAt: number;
  /**
   * When the latest run was claimed. Every scheduled time up to here is taken care of: this one
   * value, written in the transaction that creates the run, is what keeps a restarted worker
   * from running a scheduled time twice.
   */
  lastRunAt: number | null;
  /** When the latest run that finished (and was compared) ended. */
  lastSuccessfulRunAt: number | null;
  /** When a run last found a place this search had not seen before. */
  lastNewPlaceAt: number | null;
}

export type RunTrigger =
  | 'schedule' // started at (or within minutes of) its scheduled time
  | 'catch-up' // the browser was closed at the scheduled time: started at the next start-up
  | 'manual'; // "run now"

/**
 *   starting ──startSweep ok──▶ running ──sweep finished──▶ finished
 *      │                          ├──sweep stopped──▶ stopped
 *      └─startSweep refused─▶ not-started └──page changed / sweep gone──▶ failed
 *
 * A run is 'starting' between its claim and the sweep's creation; a worker that dies there
 * leaves it 'starting', and the next start-up finishes the job (the sweep id is fixed at the
 * claim, so creating it twice is impossible).
 */
export type RunStatus = 'starting' | 'running' | 'finished' | 'stopped' | 'failed' | 'not-started';

export interface RunError {
  code: string;
  message: string;
}

/** What one finished re-collection changed, compared with the previous finished run. */
export interface ChangeSummary {
  /** The first finished run: everything is "new", so nothing is listed as a change. */
  baseline: boolean;
  /** Places the run found. */
  seen: number;
  added: number;
  /** Places the previous runs found and this one did not (possibly closed). */
  gone: number;
  changed: number;
  /**
   * False when cells failed for good (quarantined): places there may simply not have been
   * searched, so they are not reported gone and stay remembered for the next run.
   */
  complete: boolean;
}

export interface Run {
  id: string;
  savedSearchId: string;
  /** Fixed when the run is claimed (see RunStatus). */
  sweepId: string;
  trigger: RunTrigger;
  /** The scheduled time this run stands for; null for a manual run. */
  slot: number | null;
  /** Scheduled times that passed with the browser closed, folded into this run. */
  missed: number;
  /** The saved search's previous run, when this one was claimed. */
  previousRunAt: number | null;
  claimedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  status: RunStatus;
  error: RunError | null;
  changes: ChangeSummary | null;
}

export type TrackedField = 'name' | 'phone' | 'rating' | 'address';

/** The fields change tracking compares, as last seen by a saved search. */
export interface TrackedFields {
  name: string;
  phone: string | null;
  rating: number | null;
  address: string | null;
}

/** What a saved search remembers of one place between runs. */
export interface PlaceSnapshot {
  savedSearchId: string;
  key: string;
  /** fieldsHash(fields): compared first, so unchanged places cost one string comparison. */
  hash: string;
  fields: TrackedFields;
  /** The run that last saw it. */
  runId: string;
  seenAt: number;
}

export interface FieldChange {
  field: TrackedField;
  before: string | number | null;
  after: string | number | null;
}

/** One line of a run's changes. */
export interface ChangeRecord {
  runId: string;
  savedSearchId: string;
  key: string;
  kind: 'added' | 'gone' | 'changed';
  /** The place's fields after the change ('gone': as last seen). */
  fields: TrackedFields;
  /** For 'changed' only: which fields, before and after. */
  diff: FieldChange[];
  at: number;
}

/**
 * What the user chooses; the rest (times of runs) is the scheduler's to keep. Every save names
 * its site; only a record an older version stored lacks one, and runs on Google as it always
 * did (providerFor).
 */
export type SavedSearchInput = Pick<SavedSearch, 'name' | 'areaText' | 'keywordsText' | 'repeat' | 'hour' | 'weekday' | 'thresholdDays'> & {
  provider: ProviderId;
};

/** What is to be checked: a form not filled in yet, or a message from another context, may lack the site. */
export type UncheckedSavedSearch = Omit<SavedSearchInput, 'provider'> & { provider?: ProviderId | null };
