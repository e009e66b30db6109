import { useEffect, useMemo, useState } from 'preact/hooks';
import { changesFileName, changesForDisplay } from '../../utils/dashboard/saved-search-changes';
import { healthPanel, type HealthData, type RunView } from '../../utils/health';
import { formatDateTime, formatNumber, t } from '../../utils/i18n/t';
import { changesCsv } from '../../utils/schedule/changes-csv';
import { listChanges } from '../../utils/schedule/runs';
import type { ChangeRecord, FieldChange, RunTrigger, TrackedField } from '../../utils/domain/saved-search';
import type { Store } from '../../utils/store';
import { downloadChunks } from '../download';
import { show } from './HealthPanel';
import { CELL, TABLE } from './table-styles';
import { ColumnHeads } from './ColumnHeads';

const TRIGGER_LABEL: Record<RunTrigger, string> = { schedule: 'triggerSchedule', 'catch-up': 'triggerCatchUp', manual: 'triggerManual' };
const KIND_LABEL: Record<ChangeRecord['kind'], string> = { added: 'changeAdded', gone: 'changeGone', changed: 'changeChanged' };
const FIELD_LABEL: Record<TrackedField, string> = { name: 'columnName', phone: 'columnPhone', rating: 'columnRating', address: 'columnAddress' };

export interface ChangesPanelProps {
  store: Store | null;
  health: HealthData | null;
  /** The browser's download, or a test's. */
  download?: typeof downloadChunks;
}

interface Loaded {
  runId: string;
  changes: ChangeRecord[] | null;
  error: string | null;
}

/** Per saved search, its runs and what each changed: new places, places gone, changed fields. */
export function ChangesPanel(props: ChangesPanelProps) {
  const download = props.download ?? downloadChunks;
  const searches = useMemo(() => (props.health ? healthPanel(props.health).searches : []), [props.health]);
  const [chosenSearch, setChosenSearch] = useState<string | null>(null);
  const [chosenRun, setChosenRun] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);

  // A saved search deleted meanwhile falls back to the first one.
  const search = searches.find((s) => s.id === chosenSearch) ?? searches[0] ?? null;
  const run = search?.runs.find((r) => r.id === chosenRun) ?? null;
  const settled = run?.changes !== null && run?.changes !== undefined;

  useEffect(() => {
    const store = props.store;
    if (!store || !run || !settled) return;
    let stopped = false;
    setLoaded({ runId: run.id, changes: null, error: null });
    listChanges(store, run.id).then(
      (changes) => !stopped && setLoaded({ runId: run.id, changes, error: null }),
      (e: unknown) => !stopped && setLoaded({ runId: run.id, changes: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      stopped = true;
    };
  }, [props.store, run?.id, settled]);

  async function exportRun(r: RunView) {
    const store = props.store;
    if (!store || !search) return;
    setError(null);
    setStatus(t('changesExporting'));
    try {
      const changes = loaded?.runId === r.id && loaded.changes ? loaded.changes : await listChanges(store, r.id);
      download([changesCsv(changes)], changesFileName(search.name, r.at), 'text/csv;charset=utf-8');
      setStatus('');
    } catch (e) {
      setStatus('');
      setError(t('actionFailed', e instanceof Error ? e.message : String(e)));
    }
  }

  return (
    <section class="changes-panel" aria-labelledby="changes-title">
      <h2 id="changes-title">{t('sectionChanges')}</h2>
      {searches.length === 0 ? (
        <p class="empty">{t('changesNoSearches')}</p>
      ) : (
        <label>
          {t('changesSearch')}{' '}
          <select value={search?.id ?? ''} onChange={(e) => setChosenSearch((e.currentTarget as HTMLSelectElement).value)}>
            {searches.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {search && search.runs.length === 0 && <p class="empty">{t('changesNoRuns')}</p>}
      {search && search.runs.length > 0 && (
        <table style={{ ...TABLE, marginTop: '8px' }} data-testid="runs">
          <ColumnHeads labels={[t('columnStarted'), t('columnTrigger'), t('columnState'), t('columnChanges'), t('columnActions')]} />
          <tbody>
            {search.runs.map((r) => {
              const started = formatDateTime(r.at);
              const hasChanges = r.changes !== null && !r.changes.baseline && r.changes.added + r.changes.gone + r.changes.changed > 0;
              const selected = r.id === run?.id;
              return (
                <tr key={r.id} aria-current={selected ? 'true' : undefined} style={selected ? { background: '#e8f0fe' } : undefined}>
                  <th scope="row" style={{ ...CELL, fontWeight: 400 }}>
                    {started}
                  </th>
                  <td style={CELL}>{t(TRIGGER_LABEL[r.trigger])}</td>
                  <td style={CELL}>{show(r.statusText)}</td>
                  <td style={CELL}>{r.changesText ? show(r.changesText) : '—'}</td>
                  <td style={{ ...CELL, display: 'flex', gap: '4px' }}>
                    <button
                      type="button"
                      aria-pressed={selected}
                      disabled={!hasChanges}
                      aria-label={t('actionFor', t('buttonShowChanges'), started)}
                      onClick={() => setChosenRun(selected ? null : r.id)}
                    >
                      {t('buttonShowChanges')}
                    </button>
                    <button
                      type="button"
                      disabled={!hasChanges || !props.store}
                      aria-label={t('actionFor', t('buttonExportChanges'), started)}
                      onClick={() => void exportRun(r)}
                    >
                      {t('buttonExportChanges')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {run && settled && loaded?.runId === run.id && <ChangeList run={run} changes={loaded.changes} error={loaded.error} />}
      <p role="status" class="busy">
        {status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function ChangeList(props: { run: RunView; changes: ChangeRecord[] | null; error: string | null }) {
  if (props.error) {
    return (
      <p class="error" role="alert">
        {t('storeError', props.error)}
      </p>
    );
  }
  if (!props.changes) return <p role="status">{t('changesLoading')}</p>;
  const { shown, total } = changesForDisplay(props.changes);
  return (
    <div style={{ marginTop: '10px' }}>
      <h3>{t('changesOfRun', formatDateTime(props.run.at))}</h3>
      {total === 0 && <p class="empty">{t('changesNone')}</p>}
      {shown.length < total && <p>{t('changesTruncated', formatNumber(shown.length), formatNumber(total))}</p>}
      {total > 0 && (
        <table style={TABLE} data-testid="changes">
          <ColumnHeads labels={[t('columnChange'), t('columnName'), t('columnAddress'), t('columnDetails')]} />
          <tbody>
            {shown.map((c) => (
              <tr key={c.key} data-change={c.kind}>
                <td style={CELL}>{t(KIND_LABEL[c.kind])}</td>
                <th scope="row" style={CELL}>
                  {c.fields.name}
                </th>
                <td style={CELL}>{c.fields.address ?? '—'}</td>
                <td style={CELL}>
                  {c.kind === 'changed' && (
                    <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
                      {c.diff.map((d) => (
                        <li key={d.field}>{diffText(d)}</li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function diffText(d: FieldChange): string {
  const value = (v: string | number | null) => (v === null ? '—' : typeof v === 'number' ? formatNumber(v) : v);
  return t('changeDiff', t(FIELD_LABEL[d.field]), value(d.before), value(d.after));
}
