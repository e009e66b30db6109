import { parseAreaText } from '../geo';
import type { UserError } from '../domain/errors';
import { StoreError, type Store } from '../store';
import { parseKeywords } from '../config/keywords';
import type { Repeat, SavedSearch, SavedSearchInput, UncheckedSavedSearch } from '../domain/saved-search';

export type { SavedSearchInput, UncheckedSavedSearch } from '../domain/saved-search';
import { PROVIDERS } from '../providers/registry';

export const DEFAULT_THRESHOLD_DAYS = 14;
const REPEATS: readonly Repeat[] = ['off', 'daily', 'weekly'];
const MAX_NAME = 200;

/**
 * Check what the user typed with the same rules a sweep's start uses, and that it names a site
 * this version sweeps, so a saved search that was accepted can always be started later. Returns
 * the error to show, or null.
 */
export function savedSearchProblem(input: UncheckedSavedSearch): UserError | null {
  const checked = checkSavedSearch(input);
  return checked.ok ? null : checked.error;
}

/** The input with its site known, or the first problem with it (savedSearchProblem's rules). */
export function checkSavedSearch(input: UncheckedSavedSearch): { ok: true; input: SavedSearchInput } | { ok: false; error: UserError } {
  const problem = (error: UserError) => ({ ok: false as const, error });
  if (typeof input !== 'object' || input === null) return problem({ code: 'invalid', message: 'No saved search.' });
  if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.length > MAX_NAME) {
    return problem({ code: 'saved-search-name', message: `Give the saved search a name (at most ${MAX_NAME} characters).` });
  }
  if (typeof input.areaText !== 'string') return problem({ code: 'invalid', message: 'The area is not text.' });
  const area = parseAreaText(input.areaText);
  if (!area.ok) return problem(area.error);
  if (typeof input.keywordsText !== 'string') return problem({ code: 'invalid', message: 'The keywords are not text.' });
  const keywords = parseKeywords(input.keywordsText);
  if (!keywords.ok) return problem(keywords.error);
  // Never a default: a search saved without its site would run, unattended, on another one.
  if (input.provider === undefined || input.provider === null) {
    return problem({ code: 'saved-search-provider', message: 'Choose the map site the saved search sweeps.' });
  }
  const provider = PROVIDERS.find((p) => p.id === input.provider)?.id;
  if (!provider) return problem({ code: 'invalid', message: `Unknown map site ${JSON.stringify(input.provider)}.` });
  if (!REPEATS.includes(input.repeat)) return problem({ code: 'saved-search-repeat', message: `Unknown repeat ${JSON.stringify(input.repeat)}.` });
  if (!Number.isInteger(input.hour) || input.hour < 0 || input.hour > 23) {
    return problem({ code: 'saved-search-hour', message: 'The hour must be a whole number from 0 to 23.' });
  }
  if (!Number.isInteger(input.weekday) || input.weekday < 0 || input.weekday > 6) {
    return problem({ code: 'saved-search-weekday', message: 'The weekday must be 0 (Sunday) to 6 (Saturday).' });
  }
  if (!Number.isFinite(input.thresholdDays) || input.thresholdDays <= 0 || input.thresholdDays > 3650) {
    return problem({ code: 'saved-search-threshold', message: 'The staleness threshold must be more than 0 and at most 3650 days.' });
  }
  return { ok: true, input: { ...input, provider } };
}

/** A new saved search; nothing is written when the input is refused. */
export async function createSavedSearch(store: Store, input: SavedSearchInput, id: string, now: number): Promise<SavedSearch> {
  const problem = savedSearchProblem(input);
  if (problem) throw new StoreError('invalid', `The saved search was refused: ${problem.message}`);
  // The id goes into run and sweep ids, and a sweep id into cell ids ("{sweepId}/…").
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    throw new StoreError('invalid', 'The saved search was refused: its id must be 1–64 letters, digits, "-" or "_".');
  }
  const search: SavedSearch = {
    ...pickInput(input),
    id,
    createdAt: now,
    lastRunAt: null,
    lastSuccessfulRunAt: null,
    lastNewPlaceAt: null,
  };
  await store.transact(['savedSearches'], 'readwrite', async (tx) => {
    await tx.objectStore('savedSearches').add(search);
  });
  return search;
}

/**
 * Change what the user chose. The run history stays: changing the hour does not make the
 * scheduled times already taken care of due again (they count from lastRunAt).
 */
export async function updateSavedSearch(store: Store, id: string, input: SavedSearchInput): Promise<SavedSearch | undefined> {
  const problem = savedSearchProblem(input);
  if (problem) throw new StoreError('invalid', `The saved search change was refused: ${problem.message}`);
  return store.transact(['savedSearches'], 'readwrite', async (tx) => {
    const current = await tx.objectStore('savedSearches').get(id);
    if (!current) return undefined;
    const next: SavedSearch = { ...current, ...pickInput(input) };
    await tx.objectStore('savedSearches').put(next);
    return next;
  });
}

export function getSavedSearch(store: Store, id: string): Promise<SavedSearch | undefined> {
  return store.transact(['savedSearches'], 'readonly', (tx) => tx.objectStore('savedSearches').get(id));
}

/** Oldest first. */
export async function listSavedSearches(store: Store): Promise<SavedSearch[]> {
  const all = await store.transact(['savedSearches'], 'readonly', (tx) => tx.objectStore('savedSearches').getAll());
  return all.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
}

/**
 * The saved search with its runs, remembered places and change lists, in one transaction.
 * The runs' sweeps stay: they are the user's collections, deleted separately.
 */
export function deleteSavedSearch(store: Store, id: string): Promise<boolean> {
  return store.transact(['savedSearches', 'placeSnapshots', 'runs', 'changes'], 'readwrite', async (tx) => {
    const existed = (await tx.objectStore('savedSearches').count(id)) > 0;
    await tx.objectStore('savedSearches').delete(id);
    await tx.objectStore('placeSnapshots').delete(IDBKeyRange.bound([id], [id, []]));
    const runIds = await tx
      .objectStore('runs')
      .index('bySavedSearch')
      .getAllKeys(IDBKeyRange.bound([id], [id, []]));
    for (const runId of runIds) {
      await tx.objectStore('changes').delete(IDBKeyRange.bound([runId], [runId, []]));
      await tx.objectStore('runs').delete(runId);
    }
    return existed;
  });
}

function pickInput(input: SavedSearchInput): SavedSearchInput {
  return {
    name: input.name.trim(),
    areaText: input.areaText,
    keywordsText: input.keywordsText,
    repeat: input.repeat,
    hour: input.hour,
    weekday: input.weekday,
    thresholdDays: input.thresholdDays,
    provider: input.provider,
  };
}
