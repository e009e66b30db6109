import type { Listing } from '../domain/listing';
import type { FieldChange, PlaceSnapshot, TrackedField, TrackedFields } from '../domain/saved-search';

export const TRACKED_FIELDS: readonly TrackedField[] = ['name', 'phone', 'rating', 'address'];

/** The tracked fields of a listing, with whitespace tidied (pages pad and wrap text). */
export function trackedFields(l: Pick<Listing, 'name' | 'phone' | 'rating' | 'address'>): TrackedFields {
  return {
    name: tidy(l.name) ?? '',
    phone: tidy(l.phone),
    rating: typeof l.rating === 'number' && Number.isFinite(l.rating) ? l.rating : null,
    address: tidy(l.address),
  };
}

/**
 * What a field means for comparing: a phone by its digits, because the card shows
 * "02-1234-5678" where the place page shows "02 1234 5678"; that is no change of number.
 */
function comparable(field: TrackedField, f: TrackedFields): string | number | null {
  if (field === 'phone') return f.phone === null ? null : f.phone.replace(/\D/g, '');
  return f[field];
}

/**
 * A 64-bit FNV-1a hash (two 32-bit lanes) of the comparable fields, as 16 hex digits.
 * Equal fields give equal hashes on every run and browser; a collision would hide one
 * change among 2^64, which is fine for telling the user what changed.
 */
export function fieldsHash(f: TrackedFields): string {
  const text = JSON.stringify(TRACKED_FIELDS.map((field) => comparable(field, f)));
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

export function fieldChanges(before: TrackedFields, after: TrackedFields): FieldChange[] {
  return TRACKED_FIELDS.filter((field) => comparable(field, before) !== comparable(field, after)).map((field) => ({
    field,
    before: before[field],
    after: after[field],
  }));
}

export interface FoundPlace {
  key: string;
  fields: TrackedFields;
}

export interface PlaceDiff {
  added: FoundPlace[];
  gone: PlaceSnapshot[];
  changed: (FoundPlace & { diff: FieldChange[]; before: TrackedFields })[];
  unchanged: number;
}

/**
 * What a run found, against what the saved search remembered: new places, places not found
 * any more, and places whose tracked fields changed (hash first, then field by field). Pure;
 * each list is in key order so the result does not depend on the order places were read.
 */
export function diffPlaces(previous: ReadonlyMap<string, PlaceSnapshot>, current: readonly FoundPlace[]): PlaceDiff {
  const seen = new Set<string>();
  const added: FoundPlace[] = [];
  const changed: PlaceDiff['changed'] = [];
  let unchanged = 0;
  for (const place of current) {
    if (seen.has(place.key)) continue;
    seen.add(place.key);
    const before = previous.get(place.key);
    if (!before) {
      added.push(place);
    } else if (before.hash === fieldsHash(place.fields)) {
      unchanged += 1;
    } else {
      const diff = fieldChanges(before.fields, place.fields);
      // Only a hash written by another normalisation could differ with equal fields.
      if (diff.length > 0) changed.push({ ...place, diff, before: before.fields });
      else unchanged += 1;
    }
  }
  const gone = [...previous.values()].filter((p) => !seen.has(p.key));
  const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return { added: added.sort(byKey), gone: gone.sort(byKey), changed: changed.sort(byKey), unchanged };
}

function tidy(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  const t = text.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}
