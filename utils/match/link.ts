/**
 * One run of the matcher over places of every site: pairs scored where pins are near, linked
 * one-to-one per pair of sites, grouped into businesses across all three, with the user's
 * decisions applied. Pure: the store reads the places in and writes the result out
 * (utils/match/store-run.ts).
 */
import type { ProviderId } from '../domain/place';
import { assignSitePair, pairId, RIVAL_MARGIN } from './assign';
import { blockKeys, CandidateIndex } from './candidates';
import { dropSharedPhones, preparePlace, type PreparedPlace } from './evidence';
import { groupLinks } from './groups';
import { LINK_THRESHOLD, MAX_DISTANCE_M, scorePair } from './score';
import type { Ambiguity, BusinessLink, LinkDecisionRecord, MatchPlace, MatchResult, PairScore } from './types';

export interface LinkOptions {
  /** The sites, in the order a business lists its members (the registry's). */
  sites: readonly ProviderId[];
  /** A displayed phone in E.164, by the site's own country (the provider's phoneRegion). */
  toE164: (site: ProviderId, display: string) => string | null;
  decisions: readonly LinkDecisionRecord[];
}

/**
 * Pairs scoring under this cannot be a link or a rival of one, so they are not kept: a rival must
 * score above a link's score less RIVAL_MARGIN (assign.ts), so at LINK_THRESHOLD - RIVAL_MARGIN
 * it is none. Points come in halves, so a hundredth above is the next score up.
 */
const KEEP_FROM = LINK_THRESHOLD - RIVAL_MARGIN + 0.01;

export function linkBusinesses(places: Iterable<MatchPlace>, opts: LinkOptions): MatchResult {
  const bySite: PreparedPlace[][] = opts.sites.map(() => []);
  const byKey = new Map<string, PreparedPlace>();
  let latSum = 0;
  for (const place of places) {
    const site = opts.sites.indexOf(place.provider);
    if (site < 0 || byKey.has(place.key)) continue;
    const prepared = preparePlace(place, site, (d) => opts.toE164(place.provider, d));
    if (!prepared) continue;
    bySite[site]!.push(prepared);
    byKey.set(place.key, prepared);
    latSum += prepared.lat;
  }
  dropSharedPhones(bySite);
  const referenceLat = byKey.size > 0 ? latSum / byKey.size : 0;
  const confirmed = new Set(opts.decisions.filter((d) => d.decision === 'confirmed').map((d) => d.id));
  const broken = new Set(opts.decisions.filter((d) => d.decision === 'broken').map((d) => d.id));

  // Pairs are kept without their reasons (most are rivals that never show); what is reported gets them.
  const withReasons = (p: PairScore): PairScore => scorePair(byKey.get(p.a)!, byKey.get(p.b)!)!;
  const links: BusinessLink[] = [];
  const ambiguities = new Map<string, Ambiguity>();
  let pairsScored = 0;
  const keys = new Map<PreparedPlace, readonly string[]>();
  for (const p of byKey.values()) keys.set(p, blockKeys(p));
  const keysOf = (p: PreparedPlace) => keys.get(p)!;
  for (let j = 1; j < opts.sites.length; j++) {
    const index = new CandidateIndex(bySite[j]!, keysOf, referenceLat);
    for (let i = 0; i < j; i++) {
      const pairs: PairScore[] = [];
      for (const a of bySite[i]!) {
        index.near(a, keysOf(a), (b) => {
          pairsScored++;
          const s = scorePair(a, b, confirmed.size > 0 && confirmed.has(pairId(a.place.key, b.place.key)) ? -Infinity : KEEP_FROM, false);
          if (s) pairs.push(s);
        });
      }
      // A confirmed pair stands wherever its pins are, even beyond the candidates' reach.
      const scored = new Set(pairs.map((p) => pairId(p.a, p.b)));
      for (const d of opts.decisions) {
        const a = byKey.get(d.a);
        const b = byKey.get(d.b);
        if (d.decision === 'confirmed' && a && b && a.site === i && b.site === j && !scored.has(d.id)) pairs.push(scorePair(a, b)!);
      }
      const result = assignSitePair(pairs, confirmed, broken);
      links.push(
        ...result.confirmedLinks.map((p) => ({ ...withReasons(p), by: 'user' as const })),
        ...result.links.map((p) => ({ ...withReasons(p), by: 'score' as const })),
      );
      // Named by the link held back, which is one per set: two sets that share their best rival stay two.
      for (const { link, candidates } of result.unclear) {
        const id = `unclear:${pairId(link.a, link.b)}`;
        ambiguities.set(id, {
          id,
          why: 'close-runner-up',
          places: [...new Set(candidates.flatMap((p) => [p.a, p.b]))],
          candidates: candidates.map(withReasons),
        });
      }
    }
  }

  const direct = (a: string, b: string): PairScore | undefined => {
    const pa = byKey.get(a);
    const pb = byKey.get(b);
    if (!pa || !pb) return undefined;
    const [first, second] = pa.site < pb.site ? [pa, pb] : [pb, pa];
    const s = scorePair(first, second)!;
    return s.metres <= MAX_DISTANCE_M ? s : undefined;
  };
  const { businesses, inconsistent } = groupLinks(links, (k) => byKey.get(k)!.site, direct, broken);
  for (const a of inconsistent) ambiguities.set(a.id, a);
  return { businesses, ambiguities: [...ambiguities.values()], pairsScored };
}
