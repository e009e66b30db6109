/**
 * The Businesses export (issue 24): one row per business, each site's listing side by side,
 * then how sure the link is and where the sites disagree. A business of one listing is a row
 * too (`missing_on` says which swept sites lack it), so the rows cover every place of the
 * scope exactly once. Read batch by batch like the place export.
 */
import type { StoredListing } from '../domain/listing';
import { PROVIDERS } from '../providers/registry';
import type { Store } from '../store';
import { differencesOf } from '../match/differences';
import { businessesByPlace, businessIdFor, lastLinkRun, listAmbiguities } from '../match/read';
import { sweptAreas, type SweptAt } from '../match/swept';
import type { BusinessRecord } from '../match/records';
import { placeUrl } from './columns';
import { readAhead } from './read-ahead';
import type { ExportCell } from './cells';
import { csvField, csvText, UTF8_BOM } from './csv';
import { neutraliseCell } from './csv-safety';
import { jsonArrayChunks } from './json';

const SITE_FIELDS = ['id', 'name', 'phone', 'road_address', 'rating', 'reviews', 'url', 'closed'] as const;
type SiteField = (typeof SITE_FIELDS)[number];

const SITE_VALUES: Record<SiteField, (l: StoredListing) => string | number | null> = {
  id: (l) => l.providerId,
  name: (l) => l.name,
  phone: (l) => l.phone,
  road_address: (l) => l.roadAddress ?? l.address,
  rating: (l) => l.rating,
  reviews: (l) => l.reviews,
  url: (l) => placeUrl(l),
  closed: (l) => l.closed ?? null,
};

/** `business_id`, then per site (registry order) `{site}_id`, `{site}_name` …, then the verdict. New columns are only ever appended. */
export const BUSINESS_COLUMNS: readonly string[] = [
  'business_id',
  ...PROVIDERS.flatMap((p) => SITE_FIELDS.map((f) => `${p.id}_${f}`)),
  'match_score',
  'differs',
  'missing_on',
];

export type BusinessRow = Record<string, string | number | null>;

/**
 * "Missing on a site" is said only where a linking run could have said otherwise: after a
 * run, for places that run saw (not found since), and not for places left for the user to
 * decide (their match is the open question). Otherwise it is no claim at all.
 */
async function provenMissing(store: Store): Promise<(members: readonly StoredListing[]) => SweptAt> {
  const [run, ambiguities, swept] = await Promise.all([lastLinkRun(store), listAmbiguities(store), sweptAreas(store)]);
  const open = new Set(ambiguities.flatMap((a) => a.places));
  const never: SweptAt = () => false;
  return (members) => (!run || members.some((m) => m.firstSeen > run.startedAt || open.has(m.key)) ? never : swept);
}

export function businessRow(id: string, members: readonly StoredListing[], business: BusinessRecord | undefined, swept: SweptAt): BusinessRow {
  const row: BusinessRow = { business_id: id };
  for (const p of PROVIDERS) {
    const l = members.find((m) => m.provider === p.id);
    for (const f of SITE_FIELDS) row[`${p.id}_${f}`] = l ? SITE_VALUES[f](l) : null;
  }
  // The weakest link is how sure the whole business is.
  row.match_score = business && business.links.length > 0 ? Math.min(...business.links.map((l) => l.score)) : null;
  row.differs = members.length > 1 ? differencesOf(members).join('; ') || null : null;
  const pin = members.find((m) => m.lat !== null && m.lng !== null);
  const missing = pin
    ? PROVIDERS.filter((p) => !members.some((m) => m.provider === p.id) && swept(p.id, { lat: pin.lat!, lng: pin.lng! })).map((p) => p.id)
    : [];
  row.missing_on = missing.join('; ') || null;
  return row;
}

/**
 * The rows of a scope (one collection, or every place), a batch at a time. A business is
 * written once: at its first member in the scope in key order (the listings are read in key
 * order), with all its members, in the scope or not.
 */
export async function* businessRowBatches(
  store: Store,
  collection: string | undefined,
  batchSize: number,
  onPlaces?: (n: number) => void,
  snapshot?: Map<string, BusinessRecord>,
): AsyncGenerator<BusinessRow[]> {
  const swept = await provenMissing(store);
  const inScope = (l: StoredListing | undefined) => !!l && (collection === undefined || l.collections.includes(collection));
  // Every business as one transaction saw it, before the first batch (read.ts); the workbook
  // passes the one its places sheet was written from, so both sheets say the same.
  const byPlace = snapshot ?? (await businessesByPlace(store));
  let places = 0;
  for await (const batch of readAhead(store.iterateListings(batchSize, collection))) {
    places += batch.length;
    const businesses = new Map<string, BusinessRecord>();
    for (const l of batch) {
      const b = byPlace.get(l.key);
      if (b) businesses.set(l.key, b);
    }
    const here = new Map(batch.map((l) => [l.key, l]));
    const others = [...new Set([...businesses.values()].flatMap((b) => b.members).filter((k) => !here.has(k)))];
    const fetched = await store.transact(['listings'], 'readonly', (tx) => Promise.all(others.map((k) => tx.objectStore('listings').get(k))));
    const byKey = new Map<string, StoredListing>(here);
    fetched.forEach((l, i) => {
      if (l) byKey.set(others[i]!, l);
    });
    const rows: BusinessRow[] = [];
    for (const l of batch) {
      const business = businesses.get(l.key);
      if (!business) {
        rows.push(businessRow(businessIdFor(l.key, undefined), [l], undefined, swept([l])));
        continue;
      }
      const members = business.members.map((k) => byKey.get(k)).filter((m): m is StoredListing => !!m);
      const first = members
        .filter(inScope)
        .map((m) => m.key)
        .sort()[0];
      if (first === l.key) rows.push(businessRow(business.id, members, business, swept(members)));
    }
    onPlaces?.(places);
    yield rows;
  }
}

/** A row's cells in BUSINESS_COLUMNS order, as the spreadsheets write them: text neutralised, numbers as numbers. */
export function businessCells(row: BusinessRow): ExportCell[] {
  return BUSINESS_COLUMNS.map((c) => {
    const v = row[c];
    if (v === null || v === undefined) return null;
    return typeof v === 'number' ? v : neutraliseCell(v);
  });
}

export async function* businessCsvChunks(batches: AsyncIterable<BusinessRow[]>): AsyncGenerator<string> {
  yield `${UTF8_BOM + BUSINESS_COLUMNS.map(csvText).join(',')}\r\n`;
  for await (const batch of batches) {
    let text = '';
    for (const row of batch) text += `${BUSINESS_COLUMNS.map((c) => csvField(row[c])).join(',')}\r\n`;
    if (text) yield text;
  }
}

/** JSON keeps lists as lists (`differs`, `missing_on`) and text exactly as the sites gave it. */
export function businessJsonChunks(batches: AsyncIterable<BusinessRow[]>): AsyncGenerator<string> {
  return jsonArrayChunks(batches, (row) => ({ ...row, differs: listOf(row.differs), missing_on: listOf(row.missing_on) }));
}

function listOf(v: string | number | null | undefined): string[] {
  return typeof v === 'string' && v ? v.split('; ') : [];
}
