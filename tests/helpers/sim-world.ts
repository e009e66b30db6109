/**
 * The seeded world the in-process sweep and bench tests search (6000 places within 6 km of
 * Seoul City Hall), a crowded area in it, and what those tests read back: the stored keys,
 * the ground truth's keys, whether a place lies in one of some cells.
 */
import { bboxContains, parseAreaText } from '../../utils/geo';
import type { Area, BBox } from '../../utils/geo';
import type { Store } from '../../utils/store';
import { groundTruth } from '../replica/search';
import { createWorld } from '../replica/world';

export const world = createWorld({ seed: 11, places: 6000, centre: { lat: 37.5665, lng: 126.978 }, radiusKm: 6 });
/** south,west,north,east: crowded enough that cafes need splits. */
export const AREA = '37.54,126.95,37.59,127.01';

export function parsed(text: string): Area {
  const a = parseAreaText(text);
  if (!a.ok) throw new Error(a.error.message);
  return a.area;
}

/** The keys of a collection's stored listings, in the store's order. */
export async function storedKeys(store: Store, collection: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of store.iterateListings(500, collection)) keys.push(...batch.map((l) => l.key));
  return keys;
}

/** `google:{cid}` of the world's places the keyword finds in the area, in ground-truth order. */
export function truthKeys(keyword: string, areaText = AREA): Set<string> {
  return new Set(groundTruth(world, keyword, parsed(areaText)).map((p) => `google:${p.cid}`));
}

export function inAnyCell(p: { lat: number; lng: number }, cells: readonly { bbox: BBox }[]): boolean {
  return cells.some((c) => bboxContains(c.bbox, p));
}
