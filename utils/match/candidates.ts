/**
 * Which pairs are worth scoring: places of two sites near each other that share something a
 * link needs. In a city centre a few hundred metres hold thousands of listings, so scoring every
 * near pair costs millions of comparisons; instead each place gets a few block keys and only
 * places that share one are compared (blocking, as record linkage does it).
 *
 * A pair can only reach LINK_THRESHOLD with an own phone both list, the same road and building,
 * or names that agree (score.ts: distance and kind together give at most 2.5). So the keys are
 * the phones, the road key (as it sounds), and the start of the name: its first two written
 * characters (two Hangul syllables, `스타`), its first three Latin letters, and the first three
 * consonants of how it sounds (which a Latin and a Hangul spelling of one brand share). Names
 * alike enough to score (one edit in ten, or one the other's start) nearly always share their
 * start. Name keys are put in square cells, so a place looks up its key in the cells around it
 * only, and a common key (`카페`) costs no more than its neighbours; a phone or a road key is
 * shared by a few places only, wherever they are, and is looked up whole.
 * Across scripts with nothing else shared (`Seoul Table` / `할매국밥`, no phone or address), a
 * pair is not compared at all: at 2.5 points at most it can be neither a link nor a rival of one
 * (link.ts keeps pairs above 2.5).
 */
import { roadSound } from './addresses';
import type { PreparedPlace } from './evidence';
import { MAX_DISTANCE_M } from './score';

/** Nearer than this, a pair that shares a name key is scored; beyond it (up to MAX_DISTANCE_M) only one that shares an own phone or a road address. */
export const NEAR_M = 250;
/**
 * Name keys reach NEAR_M: in cells twice that size, the two by two cells around the quarter of
 * its cell a place is in cover its reach (four look-ups a key, not nine).
 */
const CELL_M = 2 * NEAR_M;
const M_PER_DEG_LAT = 111_320;
const NAME_KEY = 'n'.charCodeAt(0);
/**
 * Of the places that share only a name key with a place, the nearest this many are scored. Where
 * one name is everywhere (a chain, `동네마트`), a hundred listings of it can lie within NEAR_M; the
 * one that is the same business without a phone or an address to say so is among the nearest,
 * and one that has them is found by its phone or road key, looked up apart and in full.
 */
const NAME_ONLY_NEAREST = 4;

/** A block key; the first letter says which evidence it comes from (`n`ame, `r`oad, `p`hone). */
export function blockKeys(p: PreparedPlace): string[] {
  const { compact, latin, sound, hangul } = p.name;
  const keys = new Set<string>();
  if (hangul) keys.add(`n${compact.slice(0, 2)}`);
  else if (latin.length > 0) keys.add(`n${latin.slice(0, 3)}`);
  if (sound.length > 0) keys.add(`ns${sound.slice(0, 3)}`);
  if (p.road) keys.add(`r${roadSound(p.road)}`);
  if (p.roadSpoken) keys.add(`r${roadSound(p.roadSpoken)}`);
  for (const phone of p.phones) keys.add(`p${phone}`);
  return [...keys];
}

export class CandidateIndex {
  /** Per name key, per cell (`cellId`), the ordinals of the places there. */
  private readonly cells = new Map<string, Map<number, number[]>>();
  /** Per phone or road key, the ordinals of every place with it: few places share one, wherever they are. */
  private readonly exact = new Map<string, number[]>();
  private readonly places: readonly PreparedPlace[];
  /** Per place ordinal, the query that last yielded it: a pair found by two keys is yielded once. */
  private readonly seenBy: Int32Array;
  private query = 0;
  /** The name-only candidates of the current query, nearest first, and their squared distances. */
  private readonly nearest = new Int32Array(NAME_ONLY_NEAREST);
  private readonly nearestM2 = new Float64Array(NAME_ONLY_NEAREST);
  private readonly mPerDegLng: number;
  /** Each place's position in metres east and north, side by side in memory: the scan reads nothing else. */
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;

  /** `keysOf`: each place's blockKeys, computed once per run (a place of one site is looked up against two others). */
  constructor(places: readonly PreparedPlace[], keysOf: (p: PreparedPlace) => readonly string[], referenceLat: number) {
    this.places = places;
    this.seenBy = new Int32Array(places.length);
    this.mPerDegLng = M_PER_DEG_LAT * Math.cos((referenceLat * Math.PI) / 180);
    this.xs = new Float64Array(places.length);
    this.ys = new Float64Array(places.length);
    places.forEach((p, ordinal) => {
      this.xs[ordinal] = p.lng * this.mPerDegLng;
      this.ys[ordinal] = p.lat * M_PER_DEG_LAT;
      const cell = this.cellId(Math.floor(this.xs[ordinal]! / CELL_M), Math.floor(this.ys[ordinal]! / CELL_M));
      for (const key of keysOf(p)) {
        if (key.charCodeAt(0) !== NAME_KEY) {
          const list = this.exact.get(key);
          if (list) list.push(ordinal);
          else this.exact.set(key, [ordinal]);
          continue;
        }
        let byCell = this.cells.get(key);
        if (!byCell) {
          byCell = new Map();
          this.cells.set(key, byCell);
        }
        const list = byCell.get(cell);
        if (list) list.push(ordinal);
        else byCell.set(cell, [ordinal]);
      }
    });
  }

  /**
   * Calls `found` once for each place of this index that shares a key with `p` and is near enough
   * for that key (a flat-earth distance, exact enough at this scale): every place that shares a
   * phone or a road key, and of those that share a name key only, the NAME_ONLY_NEAREST nearest.
   */
  near(p: PreparedPlace, pKeys: readonly string[], found: (q: PreparedPlace, metres: number) => void): void {
    const query = ++this.query;
    const px = p.lng * this.mPerDegLng;
    const py = p.lat * M_PER_DEG_LAT;
    for (const key of pKeys) {
      if (key.charCodeAt(0) === NAME_KEY) continue;
      const list = this.exact.get(key);
      if (!list) continue;
      for (const ordinal of list) {
        if (this.seenBy[ordinal] === query) continue;
        const m2 = this.metres2(px, py, ordinal);
        if (m2 > MAX_DISTANCE_M * MAX_DISTANCE_M) continue;
        this.seenBy[ordinal] = query;
        found(this.places[ordinal]!, Math.sqrt(m2));
      }
    }

    const fx = px / CELL_M;
    const fy = py / CELL_M;
    const cx = Math.floor(fx);
    const cy = Math.floor(fy);
    // The neighbouring column and row on the side of the cell the place is nearer.
    const sx = fx - cx < 0.5 ? -1 : 1;
    const sy = fy - cy < 0.5 ? -1 : 1;
    let kept = 0;
    for (const key of pKeys) {
      if (key.charCodeAt(0) !== NAME_KEY) continue;
      const byCell = this.cells.get(key);
      if (!byCell) continue;
      for (let x = 0; x < 2; x++) {
        for (let y = 0; y < 2; y++) {
          const list = byCell.get(this.cellId(cx + x * sx, cy + y * sy));
          if (!list) continue;
          for (const ordinal of list) {
            if (this.seenBy[ordinal] === query) continue;
            const m2 = this.metres2(px, py, ordinal);
            if (m2 > NEAR_M * NEAR_M || (kept === NAME_ONLY_NEAREST && m2 >= this.nearestM2[kept - 1]!)) continue;
            this.seenBy[ordinal] = query;
            kept = this.keepNearest(kept, ordinal, m2);
          }
        }
      }
    }
    for (let k = 0; k < kept; k++) found(this.places[this.nearest[k]!]!, Math.sqrt(this.nearestM2[k]!));
  }

  /** Squared metres from the point (`px`, `py`) to a place of this index: Math.hypot is many times slower, and the root is taken for a kept place only. */
  private metres2(px: number, py: number, ordinal: number): number {
    const dx = this.xs[ordinal]! - px;
    const dy = this.ys[ordinal]! - py;
    return dx * dx + dy * dy;
  }

  /** Puts a place into the nearest-first list of `kept` (at most NAME_ONLY_NEAREST, the farthest dropped); returns its new length. */
  private keepNearest(kept: number, ordinal: number, m2: number): number {
    let k = Math.min(kept, NAME_ONLY_NEAREST - 1);
    while (k > 0 && this.nearestM2[k - 1]! > m2) {
      this.nearest[k] = this.nearest[k - 1]!;
      this.nearestM2[k] = this.nearestM2[k - 1]!;
      k--;
    }
    this.nearest[k] = ordinal;
    this.nearestM2[k] = m2;
    return Math.min(kept + 1, NAME_ONLY_NEAREST);
  }

  /**
   * One small integer per cell, so the maps hash it as it is (a key past 2^30 is a boxed double,
   * slow to hash and allocated at every look-up). It wraps every 32,768 cells (16,000 km): cells
   * that far apart share an id, and the distance check tells their places apart.
   */
  private cellId(x: number, y: number): number {
    return (x & 0x7fff) * 0x8000 + (y & 0x7fff);
  }
}
