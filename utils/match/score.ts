/**
 * How strongly two listings of different sites say they are one business: each kind of
 * evidence adds or takes away points, and the reasons are kept so a person can see why.
 *
 * The points follow what sets one business apart from its neighbours. Pins of one business
 * lie commonly 10–80 m apart on two sites (entrance, building centroid, geocoded address), so
 * distance alone proves little in a city; a name that agrees (after spelling is folded), an
 * own phone both sites list, or the same road and building number are what decide. Against:
 * names that share nothing, a different road or building, kinds of business that differ.
 */
import { haversineMetres } from '../geo/distance';
import { categoryAgreement } from './categories';
import { roadSound } from './addresses';
import { nameSimilarity, type NameAgreement } from './names';
import type { PreparedPlace } from './evidence';
import type { PairScore, Reason } from './types';

/** Points a pair needs to be linked. Shown to the user with every score. */
export const LINK_THRESHOLD = 4;
/** Candidates farther apart than this are never compared. */
export const MAX_DISTANCE_M = 400;

/**
 * The pair's score and reasons; null when it scores under `keepFrom`, found before the reasons'
 * texts are written (a run scores millions of pairs and keeps few). The name, the dearest
 * evidence, is compared last, and not at all when even a perfect name could not reach `keepFrom`.
 * `reasons: false` leaves them out (an empty list): a run keeps every pair that could be a rival,
 * and writes the reasons of those it reports only (link.ts).
 */
export function scorePair(a: PreparedPlace, b: PreparedPlace, keepFrom = -Infinity, reasons = true): PairScore | null {
  const metres = haversineMetres(a, b);
  const distance = distancePoints(metres);

  let shared: string | null = null;
  for (const p of a.phones) {
    if (b.phones.has(p)) {
      shared = p;
      break;
    }
  }
  // Each side's own number, and they differ: two businesses, or one that changed its number
  // (rarer: the sites' numbers come from the owners). A chain's shared number is no own phone
  // (evidence.ts dropSharedPhones). Strong against (issue 36: two cafés in one building).
  const phone = shared ? 3 : a.phones.size > 0 && b.phones.size > 0 ? -2.5 : 0;

  const roads = a.road && b.road ? (oneRoad(a, b) ? 'same' : sameRoad(a.road, b.road) ? 'next' : 'other') : null;
  // Another road and building is another building: the sites take road addresses from one national register.
  const address = roads === 'same' ? 2.5 : roads === 'next' ? -0.5 : roads === 'other' ? -2.5 : 0;

  const kinds = categoryAgreement(a.families, b.families);
  const category = kinds === 'same' ? 0.5 : kinds === 'different' ? -3 : 0;

  if (distance + phone + address + category + BEST_NAME < keepFrom) return null;
  const name = nameSimilarity(a.name, b.name);
  const namePts = namePoints(name);
  let score = Math.round((distance + namePts + phone + address + category) * 100) / 100;
  // Names in two scripts that share nothing: a building and a kind of business are no proof that
  // "Blue Bottle Coffee" is "커피빈 코엑스점"; only a shared own number is. Another branch of one
  // brand (`…타워점` / `…타워2호점`) is another business whatever agrees.
  // One side closed for good: the other may be the new tenant at its address, sharing the
  // building, the kind and even the number; only names that agree say it is the same business.
  const capped = name.otherBranch
    ? 'another branch'
    : name.crossScript && namePts <= 0 && !shared
      ? 'names in two scripts that share nothing'
      : a.closed !== b.closed && namePts < 2.5
        ? 'one is closed for good and the names differ'
        : null;
  if (capped) score = Math.min(score, UNPROVEN_CAP);
  if (score < keepFrom) return null;
  if (!reasons) return { a: a.place.key, b: b.place.key, metres: Math.round(metres), score, reasons: [] };

  const why: Reason[] = [
    { kind: 'distance', points: distance, detail: `${Math.round(metres)} m` },
    { kind: 'name', points: namePts, detail: `${a.place.name} ~ ${b.place.name} (${name.value.toFixed(2)})` },
  ];
  if (shared) why.push({ kind: 'phone', points: phone, detail: `same ${shared}` });
  else if (phone !== 0) why.push({ kind: 'phone', points: phone, detail: `${[...a.phones][0]} ≠ ${[...b.phones][0]}` });
  if (roads) why.push({ kind: 'address', points: address, detail: roads === 'same' ? `same ${a.road}` : `${a.road} ≠ ${b.road}` });
  if (capped && score === UNPROVEN_CAP) why.push({ kind: 'name', points: 0, detail: `${capped}: at most ${UNPROVEN_CAP}` });
  if (kinds === 'same') why.push({ kind: 'category', points: category, detail: 'same kind' });
  else if (kinds === 'different') why.push({ kind: 'category', points: category, detail: `${[...a.families].join('/')} ≠ ${[...b.families].join('/')}` });
  return { a: a.place.key, b: b.place.key, metres: Math.round(metres), score, reasons: why };
}

function distancePoints(m: number): number {
  if (m <= 25) return 2;
  if (m <= 60) return 1.5;
  if (m <= 100) return 1;
  if (m <= 180) return 0.5;
  if (m <= 250) return 0;
  return -1.5;
}

/** What the best name agreement adds. */
const BEST_NAME = 3;

/** What a pair whose names cannot be one business's scores at most, whatever else agrees: under the threshold. */
const UNPROVEN_CAP = LINK_THRESHOLD - 0.5;

function namePoints({ value, contains, crossScript, otherBranch }: NameAgreement): number {
  // Another branch of one brand: strong against, whatever else agrees (a chain's shared number,
  // one mall's road address).
  if (otherBranch) return -3;
  if (value >= 0.999) return 3;
  if (value >= 0.85) return 2.5;
  if (value >= 0.7) return 1.5;
  // A brand against the brand with its branch (`Starbucks` / `스타벅스 명동점`): some evidence, never enough alone.
  if (contains) return 1.5;
  // An English name against a Korean one that sounds nothing like it: a translation as likely as another business.
  if (crossScript) return 0;
  if (value >= 0.5) return -1;
  return -3;
}

/** One road and number: as written, as it sounds, or as the road's name is spoken (`독막로 24` / `24 Dongmak-ro`). */
function oneRoad(a: PreparedPlace, b: PreparedPlace): boolean {
  for (const x of [a.road, a.roadSpoken]) {
    if (!x) continue;
    for (const y of [b.road, b.roadSpoken]) if (y && (x === y || roadSound(x) === roadSound(y))) return true;
  }
  return false;
}

/** `sejongdaero 12` and `sejongdaero 14`: one road, another building (or a site's rounding). */
function sameRoad(a: string, b: string): boolean {
  const sa = roadSound(a);
  const sb = roadSound(b);
  return sa.slice(0, sa.lastIndexOf(' ')) === sb.slice(0, sb.lastIndexOf(' '));
}
