import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  businessFilters,
  emptyFacts,
  factsOfBatch,
  filterById,
  filterCounts,
  filterId,
  indexRecords,
  keysOf,
  membersToRead,
  needsFacts,
  pageOf,
  rowsOf,
  subjectsOf,
  type BusinessFilter,
  type FactsIndex,
  type RowView,
} from '../../utils/dashboard/businesses';
import type { Difference } from '../../utils/match/differences';
import { lastLinkRun, listAmbiguities, listBusinesses, listDecisions } from '../../utils/match/read';
import type { AmbiguityRecord, BusinessRecord, LinkRunRecord } from '../../utils/match/records';
import { sweptAreas, type SweptAt } from '../../utils/match/swept';
import type { LinkDecision, LinkDecisionRecord } from '../../utils/match/types';
import { sendLinkMessage } from '../../utils/match/wire';
import type { Reply } from '../../utils/domain/errors';
import { formatDateTime, formatNumber, t } from '../../utils/i18n/t';
import type { Store } from '../../utils/store';
import type { StoredListing } from '../../utils/domain/listing';
import { userErrorText } from '../user-error';
import { ColumnHeads } from './ColumnHeads';
import { TABLE } from './table-styles';
import { BrokenLinks, Row, SITES, siteName } from './BusinessRow';

/** Listings per read while counting: one short transaction each, so sweeps and the table are never held up. */
const SCAN_BATCH = 1000;
/** While counting, the counts (and a filtered page) are redrawn at most this often. */
const SCAN_REDRAW_MS = 500;

const DIFFERS_FILTER: Record<Difference, string> = {
  phone: 'businessesFilterPhone',
  address: 'businessesFilterAddress',
  name: 'businessesFilterName',
  hours: 'businessesFilterHours',
  closed: 'businessesFilterClosed',
};

function filterLabel(f: BusinessFilter): string {
  switch (f.kind) {
    case 'linked':
      return t('businessesFilterLinked');
    case 'left':
      return t('businessesFilterLeft');
    case 'differs':
      return t(DIFFERS_FILTER[f.on]);
    case 'missing':
      return t('businessesFilterMissing', siteName(f.site));
  }
}

interface Records {
  businesses: BusinessRecord[];
  ambiguities: AmbiguityRecord[];
  /** The user's decisions: a broken link leaves no row behind, so it is listed apart with its Undo. */
  decisions: LinkDecisionRecord[];
  run: LinkRunRecord | undefined;
  swept: SweptAt;
}

interface Scan {
  facts: FactsIndex;
  /** Listings read so far; `done` once every one was. */
  read: number;
  done: boolean;
}

export interface BusinessesPanelProps {
  store: Store | null;
  /** The dashboard's poll count: on each, the panel checks whether a run (after a sweep, say) changed the records. */
  tick?: number;
}

/** The same business on several sites: the linker's result, page by page, and the user's word on each link. */
export function BusinessesPanel(props: BusinessesPanelProps) {
  const store = props.store;
  const [records, setRecords] = useState<Records | null>(null);
  const [reload, setReload] = useState(0);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [scan, setScan] = useState<Scan | null>(null);
  const [chosen, setChosen] = useState('linked');
  const [page, setPage] = useState(0);
  const [shown, setShown] = useState<{ rows: RowView[]; page: number; pages: number; total: number } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The finish time of the run last read; null before the first read.
  const seenRun = useRef<number | undefined | null>(null);

  const filters = useMemo(() => businessFilters(SITES), []);
  const filter = filterById(filters, chosen) ?? filters[0]!;

  useEffect(() => {
    if (!store) return;
    let stopped = false;
    Promise.all([listBusinesses(store), listAmbiguities(store), lastLinkRun(store), sweptAreas(store), listDecisions(store)]).then(
      ([businesses, ambiguities, run, swept, decisions]) => {
        if (stopped) return;
        seenRun.current = run?.finishedAt;
        setRecords({ businesses, ambiguities, run, swept, decisions });
        setLoadError(null);
      },
      (e: unknown) => !stopped && setLoadError(messageOf(e)),
    );
    return () => {
      stopped = true;
    };
  }, [store, reload]);

  // A run the panel did not start (after a sweep, or in another tab) shows up on the next poll.
  useEffect(() => {
    if (!store || props.tick === undefined || seenRun.current === null) return;
    let stopped = false;
    lastLinkRun(store).then(
      (run) => !stopped && seenRun.current !== null && run?.finishedAt !== seenRun.current && setReload((n) => n + 1),
      () => {},
    );
    return () => {
      stopped = true;
    };
  }, [store, props.tick]);

  useEffect(() => {
    if (!store || !records) return;
    let stopped = false;
    const facts = emptyFacts();
    const index = indexRecords(records.businesses, records.ambiguities);
    setScan(null);
    (async () => {
      // Without a run there is nothing linked, and nothing is "missing" anywhere.
      if (!records.run) return setScan({ facts, read: 0, done: true });
      let read = 0;
      let drawn = 0;
      for await (const batch of store.iterateListings(SCAN_BATCH)) {
        if (stopped) return;
        const others = await readListings(store, membersToRead(batch, index, facts));
        factsOfBatch(facts, batch, others, index, SITES, records.swept);
        read += batch.length;
        if (Date.now() - drawn >= SCAN_REDRAW_MS) {
          drawn = Date.now();
          setScan({ facts, read, done: false });
        }
      }
      if (!stopped) setScan({ facts, read, done: true });
    })().catch((e: unknown) => !stopped && setLoadError(messageOf(e)));
    return () => {
      stopped = true;
    };
  }, [store, records]);

  // The filtered list is redrawn with the counts while they grow, and the page only then.
  const scanKey = scan ? `${scan.read}:${scan.done}` : '';
  const facts = scan?.facts ?? null;
  useEffect(() => {
    if (!store || !records) return;
    if (needsFacts(filter) && !facts) return;
    let stopped = false;
    const subjects = subjectsOf(filter, records.businesses, records.ambiguities, facts ?? emptyFacts());
    const p = pageOf(subjects, page);
    readListings(store, p.items.flatMap(keysOf)).then(
      (listings) => !stopped && setShown({ rows: rowsOf(p.items, listings, SITES, records.swept), page: p.page, pages: p.pages, total: subjects.length }),
      (e: unknown) => !stopped && setLoadError(messageOf(e)),
    );
    return () => {
      stopped = true;
    };
  }, [store, records, chosen, page, needsFacts(filter) ? scanKey : '']);

  async function send(status: string, ask: () => Promise<Reply<{ run: LinkRunRecord }>>) {
    setBusy(status);
    setError(null);
    setResult(null);
    try {
      const reply = await ask();
      if (reply.ok) setResult(t('businessesRunDone', formatNumber(reply.run.businesses), formatNumber(reply.run.ambiguities)));
      else setError(userErrorText(reply.error));
    } catch (e) {
      setError(t('actionFailed', messageOf(e)));
    } finally {
      setBusy(null);
      setReload((n) => n + 1);
    }
  }
  const decide = (a: string, b: string, decision: LinkDecision | null) =>
    void send(t('businessesDeciding'), () => sendLinkMessage('linkDecide', { a, b, decision }));

  const counts = records && scan ? filterCounts(filters, records.businesses, records.ambiguities, scan.facts) : null;
  const countText = (f: BusinessFilter) => {
    const n = counts?.get(filterId(f));
    // Counts from the records alone are exact at once; the others while the listings are read are a floor.
    return n === undefined ? '…' : needsFacts(f) && !scan?.done ? `${formatNumber(n)}+` : formatNumber(n);
  };
  const run = records?.run;
  const threshold = run?.threshold ?? null;

  return (
    <section class="businesses-panel" aria-labelledby="businesses-title">
      <h2 id="businesses-title">{t('sectionBusinesses')}</h2>
      <p data-testid="link-run">
        {run
          ? `${t('businessesLastRun', formatDateTime(run.finishedAt), formatNumber(run.places), formatNumber(run.businesses), formatNumber(run.ambiguities))} ${t('businessesThreshold', formatNumber(run.threshold))}`
          : t('businessesNeverRun')}
      </p>
      <button type="button" disabled={!store || busy !== null} onClick={() => void send(t('businessesLinking'), () => sendLinkMessage('linkRun'))}>
        {t('buttonLinkBusinesses')}
      </button>{' '}
      <label>
        {t('businessesFilter')}{' '}
        <select
          value={filterId(filter)}
          onChange={(e) => {
            setChosen((e.currentTarget as HTMLSelectElement).value);
            setPage(0);
          }}
        >
          {filters.map((f) => (
            <option key={filterId(f)} value={filterId(f)}>
              {t('businessesFilterOption', filterLabel(f), countText(f))}
            </option>
          ))}
        </select>
      </label>
      {scan && !scan.done && <p role="status">{t('businessesCounting', formatNumber(scan.read))}</p>}
      {filter.kind === 'missing' && <p class="note">{t('businessesMissingNote')}</p>}
      {shown && shown.total === 0 && <p class="empty">{t('businessesNone')}</p>}
      {shown && shown.total > 0 && (
        <>
          <table style={{ ...TABLE, marginTop: '8px' }} data-testid="businesses">
            <ColumnHeads labels={[...SITES.map(siteName), t('columnMatchScore'), t('columnDiffers'), t('columnMissingOn'), t('columnActions')]} />
            <tbody>
              {shown.rows.map((row) => (
                <Row key={row.id} row={row} threshold={threshold} busy={busy !== null} decide={decide} />
              ))}
            </tbody>
          </table>
          <p>
            <button type="button" disabled={shown.page === 0} onClick={() => setPage(shown.page - 1)}>
              {t('buttonPreviousPage')}
            </button>{' '}
            {t('businessesPage', formatNumber(shown.page + 1), formatNumber(shown.pages), formatNumber(shown.total))}{' '}
            <button type="button" disabled={shown.page + 1 >= shown.pages} onClick={() => setPage(shown.page + 1)}>
              {t('buttonNextPage')}
            </button>
          </p>
        </>
      )}
      <BrokenLinks decisions={records?.decisions ?? []} busy={busy !== null} decide={decide} />
      <p role="status" class="busy">
        {busy ?? result ?? ''}
      </p>
      {(error ?? loadError) && (
        <p class="error" role="alert">
          {error ?? t('storeError', loadError!)}
        </p>
      )}
    </section>
  );
}

/** The links the user broke, each with the Undo that gives the pair back to the matcher. */

async function readListings(store: Store, keys: readonly string[]): Promise<Map<string, StoredListing>> {
  if (keys.length === 0) return new Map();
  const found = await store.transact(['listings'], 'readonly', (tx) => Promise.all(keys.map((k) => tx.objectStore('listings').get(k))));
  const out = new Map<string, StoredListing>();
  found.forEach((l, i) => {
    if (l) out.set(keys[i]!, l);
  });
  return out;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
