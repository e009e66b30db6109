/**
 * A place the list showed is never dropped because of a pin from the page's own world (issue 36):
 * a pin far outside the box the page searched is doubted and kept; a pin near the box is held to
 * the area as before; a doubted pin never replaces one that is not.
 */
import { describe, expect, it } from 'vitest';
import { mergeListingFields } from '../../utils/listing/merge-fields';
import type { Area } from '../../utils/geo/types';
import { keptInArea } from '../../utils/sweep/area-filter';
import { makeListing } from '../helpers/store-records';

const AREA: Area = { kind: 'bbox', bbox: { south: 37.56, west: 126.97, north: 37.57, east: 126.98 } };
/** What the page searched: the area's box and a little more. */
const SEARCHED = { south: 37.559, west: 126.969, north: 37.571, east: 126.981 };
const at = (id: string, lat: number | null, lng: number | null) => ({ ...makeListing(id), lat, lng });

describe('the area filter', () => {
  it('keeps a place whose pin lies far outside the searched box (moved by the page), marked doubted', () => {
    const moved = at('1', 37.615, 127.03); // 5 km away: no list of SEARCHED showed it from there
    expect(keptInArea(AREA, [moved], SEARCHED)).toEqual([{ ...moved, pinDoubted: true }]);
  });

  it('drops a place near the searched box but outside the area, and keeps those inside or without a pin', () => {
    const beside = at('2', 37.5705, 126.9805); // in the searched box's margin, outside the area
    const inside = at('3', 37.565, 126.975);
    const unplaced = at('4', null, null);
    expect(keptInArea(AREA, [beside, inside, unplaced], SEARCHED)).toEqual([inside, unplaced]);
  });

  it('with no searched box (nothing measured), the area alone decides', () => {
    expect(keptInArea(AREA, [at('1', 37.615, 127.03)], null)).toEqual([]);
  });
});

describe('a doubted pin in the merge', () => {
  const trusted = at('5', 37.565, 126.975);
  const doubted = { ...at('5', 37.615, 127.03), pinDoubted: true as const };
  it('never replaces a pin that is not doubted', () => {
    const m = mergeListingFields(trusted, doubted);
    expect([m.lat, m.lng, m.pinDoubted]).toEqual([37.565, 126.975, undefined]);
  });
  it('is replaced by one that is not, and stays marked while it is the only one', () => {
    expect(mergeListingFields(doubted, trusted)).toMatchObject({ lat: 37.565, lng: 126.975 });
    expect(mergeListingFields(doubted, trusted).pinDoubted).toBeUndefined();
    expect(mergeListingFields(undefined, doubted).pinDoubted).toBe(true);
    expect(mergeListingFields(doubted, at('5', null, null))).toMatchObject({ lat: 37.615, pinDoubted: true });
  });
});
