/**
 * The dashboard's Businesses panel (issue 24), as data: which linked businesses, places left for
 * the user and lone places a filter shows, how many each filter holds, and one page of rows with
 * each site's listing side by side.
 *
 * Two reads, because only the records are small enough to hold whole: the business and
 * ambiguity records (tens of thousands at most) are listed in full; listings are read for the
 * shown page only. What a filter needs from listings (where the sites disagree, where a business
 * is missing) is a few words per business, gathered by `factsOfBatch` over the listings a batch
 * at a time, so counting never holds the listings themselves.
 */
import type { StoredListing } from '../domain/listing';
import type { ProviderId } from '../domain/place';
import { DIFFERENCES, differencesOf, type Difference } from '../match/differences';
import type { AmbiguityRecord, BusinessRecord } from '../match/records';
import type { SweptAt } from '../match/swept';
import type { AmbiguityWhy, PairScore, Reason } from '../match/types';

export const PAGE_SIZE = 50;

/** `closed` among the differences is "closed on one site". */
export type BusinessFilter = { kind: 'linked' } | { kind: 'left' } | { kind: 'differs'; on: Difference } | { kind: 'missing'; site: ProviderId };

/** The filters in the order the select lists them: one "missing on" per site of the registry. */
export function businessFilters(sites: readonly ProviderId[]): BusinessFilter[] {
  return [
    { kind: 'linked' },
    { kind: 'left' },
    ...DIFFERENCES.map((on) => ({ kind: 'differs' as const, on })),
    ...sites.map((site) => ({ kind: 'missing' as const, site })),
  ];
}

/** A filter as the select's value, and back (an unknown value is no filter, never a guess). */
export function filterId(f: BusinessFilter): string {
  return f.kind === 'differs' ? `differs:${f.on}` : f.kind === 'missing' ? `missing:${f.site}` : f.kind;
}

export function filterById(filters: readonly BusinessFilter[], id: string): BusinessFilter | null {
  return filters.find((f) => filterId(f) === id) ?? null;
}

/** Whether a filter can be answered from the records alone, without the listings' facts. */
export function needsFacts(f: BusinessFilter): boolean {
  return f.kind === 'differs' || f.kind === 'missing';
}

/** What the listings say of a business (or of a lone place): all a filter needs of them. */
export interface Facts {
  differs: Difference[];
  missingOn: ProviderId[];
}

/**
 * The facts gathered so far. A lone place is kept only when it is missing somewhere: the others
 * are in no filter of this panel.
 */
export interface FactsIndex {
  businesses: Map<string, Facts>;
  lone: Map<string, ProviderId[]>;
}

export function emptyFacts(): FactsIndex {
  return { businesses: new Map(), lone: new Map() };
}

export function siteOfKey(key: string): ProviderId {
  return key.slice(0, key.indexOf(':')) as ProviderId;
}

/**
 * Where the members disagree, and which sites lack the business though they were swept where
 * it is (a site never swept there says nothing about it).
 */
export function factsOf(keys: readonly string[], listings: ReadonlyMap<string, StoredListing>, sites: readonly ProviderId[], swept: SweptAt): Facts {
  const members = keys.map((k) => listings.get(k)).filter((m): m is StoredListing => m !== undefined);
  const pin = members.find((m) => m.lat !== null && m.lng !== null);
  // A member whose listing is gone still names its site: the site has it, it is not missing there.
  const has = new Set(keys.map(siteOfKey));
  return {
    differs: members.length > 1 ? differencesOf(members) : [],
    missingOn: pin ? sites.filter((s) => !has.has(s) && swept(s, { lat: pin.lat!, lng: pin.lng! })) : [],
  };
}

/** Which record each place is in: its business, or the candidates left for the user. */
export interface RecordIndex {
  businessOf: Map<string, BusinessRecord>;
  left: Set<string>;
}

export function indexRecords(businesses: readonly BusinessRecord[], ambiguities: readonly AmbiguityRecord[]): RecordIndex {
  const businessOf = new Map<string, BusinessRecord>();
  for (const b of businesses) for (const k of b.members) businessOf.set(k, b);
  return { businessOf, left: new Set(ambiguities.flatMap((a) => a.places)) };
}

/** The members of businesses first met in this batch that the batch itself does not hold. */
export function membersToRead(batch: readonly StoredListing[], index: RecordIndex, facts: FactsIndex): string[] {
  const here = new Set(batch.map((l) => l.key));
  const out = new Set<string>();
  for (const l of batch) {
    const b = index.businessOf.get(l.key);
    if (b && !facts.businesses.has(b.id)) for (const k of b.members) if (!here.has(k)) out.add(k);
  }
  return [...out];
}

/**
 * Adds one batch of listings (any order, any size) to the facts: each business once, with its
 * members from the batch or from `others` (what `membersToRead` asked for). A place left for the
 * user is no lone place: its match is the open question.
 */
export function factsOfBatch(
  facts: FactsIndex,
  batch: readonly StoredListing[],
  others: ReadonlyMap<string, StoredListing>,
  index: RecordIndex,
  sites: readonly ProviderId[],
  swept: SweptAt,
): void {
  const read = new Map([...others, ...batch.map((l) => [l.key, l] as const)]);
  for (const l of batch) {
    const b = index.businessOf.get(l.key);
    if (b) {
      if (!facts.businesses.has(b.id)) facts.businesses.set(b.id, factsOf(b.members, read, sites, swept));
    } else if (!index.left.has(l.key)) {
      const { missingOn } = factsOf([l.key], read, sites, swept);
      if (missingOn.length > 0) facts.lone.set(l.key, missingOn);
    }
  }
}

/** What a row of the panel is about; a page reads the listings of these `keys` only. */
export type Subject = { kind: 'business'; record: BusinessRecord } | { kind: 'left'; record: AmbiguityRecord } | { kind: 'lone'; key: string };

export function keysOf(s: Subject): string[] {
  return s.kind === 'business' ? s.record.members : s.kind === 'left' ? s.record.places : [s.key];
}

export function subjectId(s: Subject): string {
  return s.kind === 'lone' ? s.key : s.record.id;
}

/** The weakest link is how sure the whole business is. */
export function weakestScore(b: BusinessRecord): number | null {
  return b.links.length > 0 ? Math.min(...b.links.map((l) => l.score)) : null;
}

/**
 * Everything a filter holds, in a stable order: the least sure businesses first (those a person
 * checks), then lone places by key. A filter on facts holds only what the facts gathered so far.
 */
export function subjectsOf(
  filter: BusinessFilter,
  businesses: readonly BusinessRecord[],
  ambiguities: readonly AmbiguityRecord[],
  facts: FactsIndex,
): Subject[] {
  const linked = (keep: (b: BusinessRecord) => boolean): Subject[] =>
    businesses
      .filter(keep)
      .sort((x, y) => (weakestScore(x) ?? 0) - (weakestScore(y) ?? 0) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      .map((record) => ({ kind: 'business', record }));
  switch (filter.kind) {
    case 'linked':
      return linked(() => true);
    case 'left':
      return [...ambiguities].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).map((record) => ({ kind: 'left', record }));
    case 'differs':
      return linked((b) => facts.businesses.get(b.id)?.differs.includes(filter.on) ?? false);
    case 'missing': {
      const lone = [...facts.lone]
        .filter(([, on]) => on.includes(filter.site))
        .map(([key]) => key)
        .sort();
      return [...linked((b) => facts.businesses.get(b.id)?.missingOn.includes(filter.site) ?? false), ...lone.map((key) => ({ kind: 'lone' as const, key }))];
    }
  }
}

/** How many each filter holds, by `filterId`. */
export function filterCounts(
  filters: readonly BusinessFilter[],
  businesses: readonly BusinessRecord[],
  ambiguities: readonly AmbiguityRecord[],
  facts: FactsIndex,
): Map<string, number> {
  const out = new Map<string, number>(filters.map((f) => [filterId(f), 0]));
  const bump = (f: BusinessFilter) => {
    const id = filterId(f);
    if (out.has(id)) out.set(id, out.get(id)! + 1);
  };
  out.set('linked', businesses.length);
  out.set('left', ambiguities.length);
  for (const f of facts.businesses.values()) {
    for (const on of f.differs) bump({ kind: 'differs', on });
    for (const site of f.missingOn) bump({ kind: 'missing', site });
  }
  for (const on of facts.lone.values()) for (const site of on) bump({ kind: 'missing', site });
  return out;
}

export interface Page<T> {
  items: T[];
  /** 0-based, clamped to the pages there are (a page past the end after a break shows the last). */
  page: number;
  pages: number;
}

export function pageOf<T>(items: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  return { items: items.slice(p * size, (p + 1) * size), page: p, pages };
}

/** One listing as a row shows it; `shown` is null when the listing is no longer stored. */
export interface MemberView {
  key: string;
  site: ProviderId;
  shown: { name: string; phone: string | null; address: string | null; closed: 'permanently' | 'temporarily' | null } | null;
}

export function memberView(key: string, l: StoredListing | undefined): MemberView {
  return {
    key,
    site: siteOfKey(key),
    shown: l ? { name: l.name, phone: l.phone, address: l.roadAddress ?? l.address, closed: l.closed ?? null } : null,
  };
}

export interface LinkView {
  a: string;
  b: string;
  score: number;
  reasons: Reason[];
  by: 'score' | 'user';
}

/** A row: each site's listings in the registry's order (an ambiguity may hold two of one site). */
export type RowView =
  | { kind: 'business'; id: string; bySite: MemberView[][]; score: number | null; links: LinkView[]; differs: Difference[]; missingOn: ProviderId[] }
  | { kind: 'left'; id: string; why: AmbiguityWhy; bySite: MemberView[][]; candidates: PairScore[] }
  | { kind: 'lone'; id: string; bySite: MemberView[][]; missingOn: ProviderId[] };

/** The rows of one page, from its subjects and the listings read for them. */
export function rowsOf(subjects: readonly Subject[], listings: ReadonlyMap<string, StoredListing>, sites: readonly ProviderId[], swept: SweptAt): RowView[] {
  return subjects.map((s) => {
    const keys = keysOf(s);
    const members = keys.map((k) => memberView(k, listings.get(k)));
    const bySite = sites.map((site) => members.filter((m) => m.site === site));
    // From the listings as they are now: a re-sweep that fixed a phone fixes the row without a run.
    const facts = factsOf(keys, listings, sites, swept);
    if (s.kind === 'business') {
      const links = s.record.links.map(({ a, b, score, reasons, by }) => ({ a, b, score, reasons, by }));
      return { kind: 'business', id: s.record.id, bySite, score: weakestScore(s.record), links, differs: facts.differs, missingOn: facts.missingOn };
    }
    if (s.kind === 'left') return { kind: 'left', id: s.record.id, why: s.record.why, bySite, candidates: s.record.candidates };
    return { kind: 'lone', id: s.key, bySite, missingOn: facts.missingOn };
  });
}
