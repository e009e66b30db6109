/**
 * One-to-one links between the listings of two sites. Pairs that reach the threshold form a
 * graph; each connected part of it is solved as an assignment (the Hungarian method, from
 * `munkres`) that maximises the total score, so a place taken by its best partner frees the
 * others. A link is then kept only when it is clear: no rival candidate of either place comes
 * within RIVAL_MARGIN points of it. Rivals too close to tell apart (two branches of one chain
 * 30 m apart, one of them unnamed) are left unmatched and listed, never guessed.
 */
import { munkres } from 'munkres';
import { connectedParts } from './connected';
import { LINK_THRESHOLD } from './score';
import type { PairScore } from './types';

export const RIVAL_MARGIN = 1.5;
/** Larger connected parts (never seen in a city) fall back to best-first, which is exact for clear links. */
const MAX_HUNGARIAN = 150;

export interface SitePairResult {
  links: PairScore[];
  /** The links held back as unclear, each with its rivals (best first). */
  unclear: Array<{ link: PairScore; candidates: PairScore[] }>;
}

/**
 * `pairs`: every scored pair of the two sites. `confirmed`/`broken`: the user's decisions, by
 * pair id; a confirmed pair is linked whatever its score and takes both places out of the
 * running; a broken one is never linked.
 */
export function assignSitePair(
  pairs: readonly PairScore[],
  confirmed: ReadonlySet<string>,
  broken: ReadonlySet<string>,
): SitePairResult & { confirmedLinks: PairScore[] } {
  const confirmedLinks = confirmed.size === 0 ? [] : pairs.filter((p) => confirmed.has(pairId(p.a, p.b)));
  const taken = new Set(confirmedLinks.flatMap((p) => [p.a, p.b]));
  const open = taken.size === 0 && broken.size === 0 ? pairs : pairs.filter((p) => !taken.has(p.a) && !taken.has(p.b) && !broken.has(pairId(p.a, p.b)));
  const eligible = open.filter((p) => p.score >= LINK_THRESHOLD);

  const chosen: PairScore[] = [];
  for (const part of connectedParts(eligible)) chosen.push(...(part.length === 1 ? part : solve(part)));

  // Rivals are looked for among every open pair, including those under the threshold: a
  // runner-up at 3.5 beside a link at 4.5 is as unclear as two links.
  const byPlace = new Map<string, PairScore[]>();
  for (const p of open) {
    for (const k of [p.a, p.b]) {
      const list = byPlace.get(k);
      if (list) list.push(p);
      else byPlace.set(k, [p]);
    }
  }
  const chosenSet = new Set(chosen);
  // Each place's chosen link, so a rival's other place is looked up, not searched for.
  const chosenOf = new Map<string, PairScore>();
  for (const c of chosen) chosenOf.set(c.a, c).set(c.b, c);
  const links: PairScore[] = [];
  const unclear: SitePairResult['unclear'] = [];
  for (const link of chosen) {
    const rivals = [...(byPlace.get(link.a) ?? []), ...(byPlace.get(link.b) ?? [])].filter(
      (r) => !chosenSet.has(r) && r.score > link.score - RIVAL_MARGIN && !clearlyElsewhere(r, link, chosenOf),
    );
    if (rivals.length === 0) links.push(link);
    else unclear.push({ link, candidates: [link, ...rivals].sort((x, y) => y.score - x.score) });
  }
  return { links, unclear, confirmedLinks };
}

/** A rival whose other place is linked to a third place by a clearly better score is no rival. */
function clearlyElsewhere(rival: PairScore, link: PairScore, chosenOf: ReadonlyMap<string, PairScore>): boolean {
  const shared = rival.a === link.a || rival.a === link.b ? rival.a : rival.b;
  const other = shared === rival.a ? rival.b : rival.a;
  const c = chosenOf.get(other);
  return c !== undefined && c !== link && c.score >= rival.score + RIVAL_MARGIN;
}

export function pairId(a: string, b: string): string {
  return `${a}|${b}`;
}

/** The assignment of one connected part that maximises the total score. */
function solve(part: readonly PairScore[]): PairScore[] {
  const rows = [...new Set(part.map((p) => p.a))];
  const cols = [...new Set(part.map((p) => p.b))];
  if (rows.length * cols.length > MAX_HUNGARIAN * MAX_HUNGARIAN) return bestFirst(part);
  const rowOf = new Map(rows.map((k, i) => [k, i]));
  const colOf = new Map(cols.map((k, i) => [k, i]));
  const cell: (PairScore | null)[][] = rows.map(() => cols.map(() => null));
  let top = 0;
  for (const p of part) {
    cell[rowOf.get(p.a)!]![colOf.get(p.b)!] = p;
    top = Math.max(top, p.score);
  }
  // Costs: a missing pair costs more than any real one, so it is chosen only when nothing else fits, then dropped.
  const missing = top + 1000;
  const cost = cell.map((row) => row.map((p) => (p ? top - p.score : missing)));
  return munkres(cost)
    .map(([r, c]) => cell[r]![c]!)
    .filter((p): p is PairScore => p !== null);
}

function bestFirst(part: readonly PairScore[]): PairScore[] {
  const used = new Set<string>();
  const out: PairScore[] = [];
  for (const p of [...part].sort((x, y) => y.score - x.score)) {
    if (used.has(p.a) || used.has(p.b)) continue;
    used.add(p.a);
    used.add(p.b);
    out.push(p);
  }
  return out;
}
