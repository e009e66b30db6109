import { describe, expect, it } from 'vitest';
import { haversineMetres } from '../../utils/geo/distance';
import type { BBox } from '../../utils/geo/types';
import { idsFromPair, resolveIds } from '../../utils/providers/google/ids';
import { CATEGORIES, categoriesForQuery } from '../replica/categories';
import { createRng } from '../replica/prng';
import { createPresetWorld, createWorld, WORLD_PRESETS, type WorldOptions } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const base: WorldOptions = { seed: 7, places: 6000, centre: SEOUL, radiusKm: 8 };
const world = createWorld(base);

describe('replica world', () => {
  it('is the same for the same options and different for another seed', () => {
    const again = createWorld(base);
    const other = createWorld({ ...base, seed: 8 });
    const fingerprint = (w: typeof world): string[] => w.places.map((p) => `${p.cid}|${p.name}|${p.lat}|${p.lng}|${p.rating}`);
    const mine = fingerprint(world);
    expect(fingerprint(again)).toEqual(mine);
    const differing = fingerprint(other).filter((f, i) => f !== mine[i]).length;
    expect(differing).toBeGreaterThan(world.places.length * 0.99);
  });

  it('derives every id form from the one 64-bit pair, and no two places share a CID', () => {
    const cids = new Set<string>();
    for (const p of world.places) {
      expect(idsFromPair(p.hi, p.lo)).toEqual({ featureId: p.featureId, cid: p.cid, placeId: p.placeId });
      // The three forms agree with each other by the project's own resolver.
      expect(resolveIds({ featureId: p.featureId, cid: p.cid, placeId: p.placeId })?.key).toBe(`google:${p.cid}`);
      expect(p.mid).toMatch(/^\/g\/11[0-9a-z_]{8}$/);
      cids.add(p.cid);
    }
    expect(cids.size).toBe(world.places.length);
    expect(world.byCid.get(world.places[123]!.cid)).toBe(world.places[123]);
  });

  it('keeps every place inside its disc, denser at the downtown centre than in the outskirts', () => {
    const km = world.places.map((p) => haversineMetres(SEOUL, p) / 1000);
    // The generator measures on a flat projection: within 1% of great-circle distance at this size.
    expect(Math.max(...km)).toBeLessThanOrEqual(base.radiusKm * 1.01);
    const inner = km.filter((d) => d <= 1).length / (Math.PI * 1 ** 2);
    const outer = km.filter((d) => d >= 6).length / (Math.PI * (8 ** 2 - 6 ** 2));
    expect(inner).toBeGreaterThan(outer * 5);
  });

  it('has some places without phone, website or rating, in about the configured shares', () => {
    const share = (pred: (p: (typeof world.places)[number]) => boolean): number => world.places.filter(pred).length / world.places.length;
    expect(share((p) => p.phone !== null)).toBeCloseTo(0.7, 1);
    expect(share((p) => p.website !== null)).toBeCloseTo(0.4, 1);
    expect(share((p) => p.rating !== null)).toBeCloseTo(0.85, 1);
    expect(share((p) => p.rating === null && p.reviewCount === null)).toBeCloseTo(0.15, 1);
    for (const p of world.places) {
      if (p.rating !== null) expect(p.rating >= 1 && p.rating <= 5 && p.reviewCount! >= 1).toBe(true);
      if (p.phone) expect(p.phone.digits).toBe(`+82${p.phone.display.slice(1).replace(/-/g, '')}`);
    }
  });

  it('mixes Korean and English names, and every category has English and Korean search terms', () => {
    const hangul = /[\uAC00-\uD7A3]/;
    const korean = world.places.filter((p) => hangul.test(p.name)).length;
    expect(korean).toBeGreaterThan(world.places.length * 0.3);
    expect(korean).toBeLessThan(world.places.length * 0.8);
    for (const c of CATEGORIES) {
      expect(c.terms.some((t) => hangul.test(t))).toBe(true);
      expect(c.terms.some((t) => /^[a-z]/.test(t))).toBe(true);
    }
    expect([...categoriesForQuery('카페')]).toEqual(['cafe']);
    expect([...categoriesForQuery('  Convenience   Store ')]).toEqual(['convenienceStore']);
    expect(categoriesForQuery('약국').has('pharmacy')).toBe(true);
  });

  it('answers box queries exactly like a scan of all places', () => {
    const rng = createRng(99);
    for (let i = 0; i < 40; i++) {
      const lat = SEOUL.lat + (rng.next() - 0.5) * 0.15;
      const lng = SEOUL.lng + (rng.next() - 0.5) * 0.2;
      const box: BBox = { south: lat, west: lng, north: lat + rng.next() * 0.05, east: lng + rng.next() * 0.07 };
      const fromIndex = world
        .placesIn(box)
        .map((p) => p.index)
        .sort((a, b) => a - b);
      const scanned = world.places.filter((p) => p.lat >= box.south && p.lat <= box.north && p.lng >= box.west && p.lng <= box.east).map((p) => p.index);
      expect(fromIndex).toEqual(scanned);
    }
  });

  it('refuses bad options with a message naming each problem', () => {
    expect(() => createWorld({ ...base, places: 0 })).toThrow(/places must be an integer in 1\.\.100000/);
    expect(() => createWorld({ ...base, places: 100_001 })).toThrow(/places/);
    expect(() => createWorld({ ...base, radiusKm: -1, phoneShare: 2 })).toThrow(/radiusKm.*phoneShare/);
  });

  it('builds each preset with its stated size', () => {
    for (const name of ['denseCentre', 'sparseRegion'] as const) {
      const w = createPresetWorld(name, 3);
      expect(w.places.length).toBe(WORLD_PRESETS[name].places);
      expect(w.radiusKm).toBe(WORLD_PRESETS[name].radiusKm);
    }
  });
});
