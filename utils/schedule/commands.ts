import type { CommandTable, ScheduleCommandMap } from '../messaging/protocol';
import { isStoreError, type Store } from '../store';
import type { Scheduler } from './scheduler';
import { createSavedSearch, deleteSavedSearch, savedSearchProblem, updateSavedSearch } from './saved-searches';

/** The dashboard's saved-search commands; every change re-arms the schedule's alarm. */
export function createScheduleCommands(deps: { store: Store; scheduler: Scheduler; newId(): string; now(): number }): CommandTable<ScheduleCommandMap> {
  return {
    async saveSearch(input) {
      const problem = savedSearchProblem(input);
      if (problem) return { ok: false, error: problem };
      try {
        const saved = input.id ? await updateSavedSearch(deps.store, input.id, input) : await createSavedSearch(deps.store, input, deps.newId(), deps.now());
        if (!saved) return { ok: false, error: { code: 'no-saved-search', message: 'That saved search no longer exists.' } };
        await deps.scheduler.rearm();
        return { ok: true, id: saved.id };
      } catch (e) {
        if (isStoreError(e)) return { ok: false, error: { code: e.code, message: e.message } };
        throw e;
      }
    },
    async deleteSavedSearch(id) {
      await deleteSavedSearch(deps.store, id);
      await deps.scheduler.rearm();
      return { ok: true };
    },
    async runSavedSearchNow(id) {
      const claim = await deps.scheduler.runNow(id);
      if (claim.claimed) {
        return claim.run.status === 'not-started' && claim.run.error
          ? { ok: false, error: { code: claim.run.error.code, message: claim.run.error.message } }
          : { ok: true };
      }
      return { ok: false, error: { code: `run-${claim.reason}`, message: 'A run of this saved search is still open, or it no longer exists.' } };
    },
  };
}
