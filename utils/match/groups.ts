/**
 * Businesses from the links of every pair of sites. Links must agree across the sites: if
 * A=B and B=C then A=C, so a group is the connected part of all links. A group that holds
 * two listings of one site, or whose two members' own comparison speaks clearly against the
 * link the third implies, is inconsistent: its links are not kept but listed for the user.
 */
import type { Ambiguity, Business, BusinessLink, PairScore } from './types';
import { LINK_THRESHOLD } from './score';
import { connectedParts } from './connected';

/** Beyond this many points under the threshold, a direct comparison contradicts a link through a third site. */
const CONTRADICTION = 2;

export function businessIdOf(members: readonly string[]): string {
  return `b:${members[0]}`;
}

export function groupLinks(
  links: readonly BusinessLink[],
  siteOf: (key: string) => number,
  /** The direct score of two places when they were compared, else undefined. */
  direct: (a: string, b: string) => PairScore | undefined,
  /** Pairs the user broke (`pairId`): two places of one group through a third site are that link all the same. */
  broken: ReadonlySet<string> = new Set(),
): { businesses: Business[]; inconsistent: Ambiguity[] } {
  const parts = connectedParts(links);

  const businesses: Business[] = [];
  const inconsistent: Ambiguity[] = [];
  for (const part of parts) {
    const members = [...new Set(part.flatMap((l) => [l.a, l.b]))].sort((x, y) => siteOf(x) - siteOf(y) || (x < y ? -1 : 1));
    const sites = members.map(siteOf);
    const oneSiteTwice = new Set(sites).size !== sites.length;
    const brokenInside = !oneSiteTwice && members.some((a, i) => members.slice(i + 1).some((b) => broken.has(`${a}|${b}`)));
    const contradicted = !oneSiteTwice && !brokenInside && contradiction(members, part, direct);
    if (oneSiteTwice || brokenInside || contradicted) {
      // The user's confirmed links stand even here; only the scored ones are held back.
      const held = part.filter((l) => l.by === 'score' || part.every((x) => x.by === 'user'));
      inconsistent.push({
        id: `inconsistent:${members[0]}`,
        why: 'inconsistent',
        places: members,
        candidates: [...held, ...(contradicted ? [contradicted] : [])].sort((x, y) => y.score - x.score),
      });
      // The user's own links, grouped again on their own; when they alone conflict (two confirmed
      // links that put one site twice in a group), nothing of the group is kept: it stays listed.
      const kept = part.filter((l) => l.by === 'user');
      if (kept.length > 0 && kept.length < part.length) businesses.push(...groupLinks(kept, siteOf, () => undefined, broken).businesses);
      continue;
    }
    businesses.push({ id: businessIdOf(members), members, links: part });
  }
  return { businesses, inconsistent };
}

/** Two members linked only through the third, whose own score says clearly they differ. */
function contradiction(members: readonly string[], part: readonly BusinessLink[], direct: (a: string, b: string) => PairScore | undefined): PairScore | null {
  if (members.length < 3) return null;
  const linked = new Set(part.map((l) => `${l.a}|${l.b}`));
  for (let i = 0; i < members.length; i++) {
    for (let j = i + 1; j < members.length; j++) {
      if (linked.has(`${members[i]}|${members[j]}`)) continue;
      const d = direct(members[i]!, members[j]!);
      if (d && d.score < LINK_THRESHOLD - CONTRADICTION) return d;
    }
  }
  return null;
}
