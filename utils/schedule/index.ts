export { createScheduler, SCHEDULE_ALARM } from './scheduler';
export type { Scheduler, SchedulerDeps, StartOutcome, TickReport } from './scheduler';
export { dueRun, nextSlotAfter, slotsBetween, localToInstant } from './slots';
export type { DueRun, TzOffset } from './slots';
export {
  createSavedSearch,
  updateSavedSearch,
  getSavedSearch,
  listSavedSearches,
  deleteSavedSearch,
  savedSearchProblem,
  DEFAULT_THRESHOLD_DAYS,
} from './saved-searches';
export type { SavedSearchInput } from './saved-searches';
export { claimRun, markStarted, settleRun, settleRuns, listRuns, listChanges, sweepIdOfRun } from './runs';
export { diffPlaces, fieldsHash, trackedFields, TRACKED_FIELDS } from './changes';
export { changesCsv, changeRows, CHANGE_COLUMNS } from './changes-csv';
export type * from '../domain/saved-search';
