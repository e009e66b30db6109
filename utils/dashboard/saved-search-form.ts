import { formatCorners } from '../geo/area';
import type { Area, Ring } from '../geo/types';
import type { UserError } from '../domain/errors';
import { checkSavedSearch, DEFAULT_THRESHOLD_DAYS, type SavedSearchInput } from '../schedule/saved-searches';
import type { Repeat, SavedSearch } from '../domain/saved-search';
import type { Sweep } from '../domain/sweep';
import type { ProviderId } from '../domain/place';
import { PROVIDERS, providerFor } from '../providers/registry';

/**
 * The saved-search form as the user left it: numbers stay the text typed, so a half-typed
 * value is neither lost nor silently turned into another number before it is checked.
 */
export interface SavedSearchDraft {
  /** The saved search being edited; null for a new one. */
  id: string | null;
  name: string;
  /** The map site it sweeps; null until the user chooses one (a new search has no default). */
  provider: ProviderId | null;
  keywordsText: string;
  areaText: string;
  repeat: Repeat;
  hour: string;
  weekday: string;
  thresholdDays: string;
}

export type SaveRequest = SavedSearchInput & { id?: string };
export type DraftResult = { ok: true; input: SaveRequest } | { ok: false; error: UserError };

/** A scheduled re-collection runs at 09:00 unless the user picks another hour. */
export const DEFAULT_HOUR = 9;
/** Monday (Date#getDay numbering), for a weekly search. */
export const DEFAULT_WEEKDAY = 1;

export function emptyDraft(): SavedSearchDraft {
  return {
    id: null,
    name: '',
    provider: null,
    keywordsText: '',
    areaText: '',
    repeat: 'daily',
    hour: String(DEFAULT_HOUR),
    weekday: String(DEFAULT_WEEKDAY),
    thresholdDays: String(DEFAULT_THRESHOLD_DAYS),
  };
}

export function draftFromSearch(s: SavedSearch): SavedSearchDraft {
  return {
    id: s.id,
    name: s.name,
    // A search an older version saved has no site and runs on Google: the form shows so.
    provider: providerFor(s.provider).id,
    keywordsText: s.keywordsText,
    areaText: s.areaText,
    repeat: s.repeat,
    hour: String(s.hour),
    weekday: String(s.weekday),
    thresholdDays: String(s.thresholdDays),
  };
}

/**
 * The sweep's site, keywords and area in the form; the schedule stays, and a name is offered
 * only when none was typed.
 */
export function draftFromSweep(draft: SavedSearchDraft, sweep: Pick<Sweep, 'keywords' | 'area' | 'provider'>): SavedSearchDraft {
  return {
    ...draft,
    name: draft.name.trim() === '' ? sweep.keywords.join(', ') : draft.name,
    // A sweep from before providers has none and was Google's.
    provider: providerFor(sweep.provider).id,
    keywordsText: sweep.keywords.join('\n'),
    areaText: areaToText(sweep.area),
  };
}

/**
 * An area as the text the area field takes (parseAreaText reads it back to the same area):
 * typed corners for a box, GeoJSON for polygons (positions are [lng, lat], rings closed).
 */
export function areaToText(area: Area): string {
  if (area.kind === 'bbox') return formatCorners(area.bbox);
  const coordinates = area.polygons.map((polygon) => polygon.map(closedPositions));
  const geometry = coordinates.length === 1 ? { type: 'Polygon', coordinates: coordinates[0] } : { type: 'MultiPolygon', coordinates };
  return JSON.stringify(geometry);
}

function closedPositions(ring: Ring): [number, number][] {
  const positions = ring.map((p): [number, number] => [p.lng, p.lat]);
  const first = positions[0];
  const last = positions[positions.length - 1];
  if (first && last && (first[0] !== last[0] || first[1] !== last[1])) positions.push(first);
  return positions;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * A plain decimal number, or NaN: "", "1e3", "0x10" and " 7 days" are not numbers a person
 * typed into an hour or days field, so they are refused rather than read as something else.
 */
function numberOf(text: string): number {
  const trimmed = text.trim();
  return DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * What the background is asked to save, or the first problem with it. The background checks
 * the same rules again (savedSearchProblem); checking here first keeps a refused form from
 * sending anything, and gives the same message either way.
 */
export function parseDraft(draft: SavedSearchDraft): DraftResult {
  const checked = checkSavedSearch({
    name: draft.name.trim(),
    provider: draft.provider,
    areaText: draft.areaText,
    keywordsText: draft.keywordsText,
    repeat: draft.repeat,
    hour: numberOf(draft.hour),
    weekday: numberOf(draft.weekday),
    thresholdDays: numberOf(draft.thresholdDays),
  });
  if (!checked.ok) return checked;
  return { ok: true, input: draft.id === null ? checked.input : { ...checked.input, id: draft.id } };
}

/** A site choice as the form's select gives it back: one of the registry's, or null. */
export function providerChoice(value: string): ProviderId | null {
  return PROVIDERS.find((p) => p.id === value)?.id ?? null;
}

/** "09:00": the hour a search repeats at, as a 24-hour clock time. */
export function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/** Weekday names, Sunday first (as Date#getDay), in the interface's language. */
export function weekdayNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  // 1 March 2026 was a Sunday.
  return Array.from({ length: 7 }, (_, day) => format.format(Date.UTC(2026, 2, 1 + day)));
}
