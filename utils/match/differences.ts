/**
 * Where the sites disagree about one business: what a person checks first (a wrong phone on
 * one site, a branch closed on one and open on another). Read from the members' current
 * listings, so a re-sweep that fixes a site's phone fixes the row without a new run.
 */
import type { StoredListing } from '../domain/listing';
import { roadKey, roadSound } from './addresses';
import { nameKeys, nameSimilarity } from './names';
import { ownPhones, siteE164 } from './phones';

export const DIFFERENCES = ['phone', 'address', 'name', 'hours', 'closed'] as const;
export type Difference = (typeof DIFFERENCES)[number];

/** Names this alike (after spelling is folded) are one name written two ways, not a disagreement. */
const SAME_NAME = 0.85;

export function differencesOf(members: readonly StoredListing[]): Difference[] {
  const out: Difference[] = [];
  const phoneSets = members.map((l) => ownPhones(l.phoneE164, l.otherPhones, (d) => siteE164(l.provider, d))).filter((s) => s.size > 0);
  if (somePair(phoneSets, (a, b) => ![...a].some((p) => b.has(p)))) out.push('phone');
  // Compared as they sound, as the scorer compares them: `olympicro 88` and `올림픽로 88` are one address.
  const roads = members.map((l) => roadKey(l.roadAddress) ?? roadKey(l.address)).filter((r): r is string => r !== null);
  if (new Set(roads.map(roadSound)).size > 1) out.push('address');
  const names = members.map((l) => nameKeys(l.name));
  if (somePair(names, (a, b) => nameSimilarity(a, b).value < SAME_NAME)) out.push('name');
  const weeks = members.map((l) => weekKey(l)).filter((w): w is string => w !== null);
  if (new Set(weeks).size > 1) out.push('hours');
  // Closed on one site and not on another (open, or no word of it): the case to check.
  const closed = members.map((l) => l.closed === 'permanently' || l.closed === 'temporarily');
  if (closed.some(Boolean) && !closed.every(Boolean)) out.push('closed');
  return out;
}

function somePair<T>(items: readonly T[], differ: (a: T, b: T) => boolean): boolean {
  for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) if (differ(items[i]!, items[j]!)) return true;
  return false;
}

/** The week's opening times as one comparable text (`1 09:00-22:00; …`); null without structured hours. */
function weekKey(l: StoredListing): string | null {
  if (!l.openingHours || l.openingHours.length === 0) return null;
  return [...l.openingHours]
    .sort((a, b) => a.day - b.day)
    .map((d) => `${d.day} ${d.intervals.map((i) => `${i.open}-${i.close}`).join(',') || 'closed'}`)
    .join('; ');
}
