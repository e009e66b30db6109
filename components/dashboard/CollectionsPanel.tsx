import { useState } from 'preact/hooks';
import { listActions, sweepActions, type CollectionSummary } from '../../utils/dashboard/collections';
import { sendListMessage } from '../../utils/lists/protocol';
import type { ListFailure, PlaceList } from '../../utils/lists';
import { formatDateTime, formatNumber, t } from '../../utils/i18n/t';
import { sendMessage, type Reply } from '../../utils/messaging/protocol';
import type { Store } from '../../utils/store';
import { sweepProgress } from '../../utils/sweep/progress';
import { userErrorText } from '../user-error';
import { EXPORT_FORMATS, exportCollection, exportCoverageReport, type ExportFormat } from './export-collection';
import { findContacts } from '../find-contacts';
import type { PlaceFilter } from '../../utils/config/settings';

export interface CollectionsPanelProps {
  store: Store | null;
  collections: CollectionSummary[];
  selectedId: string | null;
  onSelect(id: string): void;
  /** The store changed under the dashboard (a delete): poll now. */
  onChanged(): void;
  /** Asks the user; window.confirm in the page, an answer in tests. */
  confirm(message: string): boolean;
  now(): number;
  /** The options' filters now (issue 40): the places exports hold only the places that pass. */
  filter?: PlaceFilter;
}

const EXPORT_BUTTON: Record<ExportFormat, string> = {
  csv: 'buttonExportCsv',
  xlsx: 'buttonExportXlsx',
  json: 'buttonExportJson',
  geojson: 'buttonExportGeoJson',
  'businesses-csv': 'buttonExportBusinessesCsv',
  'businesses-json': 'buttonExportBusinessesJson',
};

/** Every sweep and Browsing: what they hold, and what can be done with them. */
export function CollectionsPanel(props: CollectionsPanelProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(status: string, action: () => Promise<string | null>) {
    setBusy(status);
    setError(null);
    try {
      setError(await action());
    } catch (e) {
      setError(t('actionFailed', e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(null);
    }
  }

  const command = (name: 'resumeSweep' | 'stopSweep', id: string) =>
    run('', async () => {
      const reply: Reply = await sendMessage(name, id);
      props.onChanged();
      return reply.ok ? null : userErrorText(reply.error);
    });

  const listCommand = (name: 'pauseList' | 'resumeList' | 'stopList', id: string) =>
    run('', async () => {
      const reply: Reply = await sendListMessage(name, id);
      props.onChanged();
      return reply.ok ? null : userErrorText(reply.error);
    });

  return (
    <section class="collections" aria-labelledby="collections-title">
      <h2 id="collections-title">{t('sectionCollections')}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('fieldKeywords')}</th>
            <th scope="col">{t('columnState')}</th>
            <th scope="col">{t('columnStarted')}</th>
            <th scope="col">{t('columnUpdated')}</th>
            <th scope="col">{t('columnCells')}</th>
            <th scope="col">{t('columnPlaces')}</th>
            <th scope="col">{t('columnActions')}</th>
          </tr>
        </thead>
        <tbody>
          {props.collections.map((c) => {
            const label = collectionLabel(c);
            const selected = c.id === props.selectedId;
            const sweep = c.kind === 'sweep' ? c.sweep : null;
            const allowed = sweep ? sweepActions(sweep.status) : null;
            const progress = sweep ? sweepProgress(sweep, props.now()) : null;
            const forLabel = (key: string) => t('actionFor', t(key), label);
            return (
              <tr key={c.id} class={selected ? 'selected' : undefined} aria-current={selected ? 'true' : undefined}>
                <th scope="row">
                  <button type="button" class="link" aria-pressed={selected} onClick={() => props.onSelect(c.id)}>
                    {label}
                  </button>
                  {c.kind === 'list' && <ListProblems list={c.list} failures={c.failures ?? []} />}
                </th>
                <td>{c.kind === 'list' ? listStateText(c.list) : sweep ? t(`state_${sweep.status}`) : t('collectionBrowsingState')}</td>
                <td>{sweep ? formatDateTime(sweep.createdAt) : c.kind === 'list' ? formatDateTime(c.list.createdAt) : '—'}</td>
                <td>{sweep ? formatDateTime(sweep.updatedAt) : c.kind === 'list' ? formatDateTime(c.list.updatedAt) : '—'}</td>
                <td>
                  {progress
                    ? t('cellsLine', formatNumber(progress.cellsClosed), formatNumber(progress.cellsKnown))
                    : c.kind === 'list' && c.progress
                      ? t('listProgressLine', formatNumber(c.progress.done), formatNumber(c.progress.total), formatNumber(c.progress.failed))
                      : '—'}
                </td>
                <td class="number">{formatNumber(c.places)}</td>
                <td class="actions">
                  {sweep && allowed && (
                    <>
                      <button type="button" disabled={!allowed.resume} aria-label={forLabel('buttonResume')} onClick={() => command('resumeSweep', sweep.id)}>
                        {t('buttonResume')}
                      </button>
                      <button type="button" disabled={!allowed.stop} aria-label={forLabel('buttonStop')} onClick={() => command('stopSweep', sweep.id)}>
                        {t('buttonStop')}
                      </button>
                      <button
                        type="button"
                        class="danger"
                        disabled={!allowed.delete || !props.store}
                        aria-label={forLabel('buttonDelete')}
                        onClick={() => {
                          const store = props.store;
                          if (!store || !props.confirm(t('confirmDelete', label, formatNumber(c.places)))) return;
                          void run(t('deleting', label), async () => {
                            // Through the background: it refuses while a worker holds one of the sweep's cells.
                            try {
                              const reply: Reply = await sendMessage('deleteSweep', sweep.id);
                              return reply.ok ? null : userErrorText(reply.error);
                            } finally {
                              props.onChanged();
                            }
                          });
                        }}
                      >
                        {t('buttonDelete')}
                      </button>
                    </>
                  )}
                  {c.kind === 'list' && (
                    <>
                      <button
                        type="button"
                        disabled={!listActions(c.list.status).pause}
                        aria-label={forLabel('buttonPause')}
                        onClick={() => listCommand('pauseList', c.id)}
                      >
                        {t('buttonPause')}
                      </button>
                      <button
                        type="button"
                        disabled={!listActions(c.list.status).resume}
                        aria-label={forLabel('buttonResume')}
                        onClick={() => listCommand('resumeList', c.id)}
                      >
                        {t('buttonResume')}
                      </button>
                      <button
                        type="button"
                        disabled={!listActions(c.list.status).stop}
                        aria-label={forLabel('buttonStop')}
                        onClick={() => listCommand('stopList', c.id)}
                      >
                        {t('buttonStop')}
                      </button>
                      <button
                        type="button"
                        disabled={!listActions(c.list.status).readReviews || busy !== null}
                        aria-label={forLabel('readReviews')}
                        onClick={() =>
                          void run('', async () => {
                            const reply = await sendListMessage('readListReviews', c.id);
                            props.onChanged();
                            return reply.ok ? null : userErrorText(reply.error);
                          })
                        }
                      >
                        {t('readReviews')}
                      </button>
                      <button
                        type="button"
                        class="danger"
                        disabled={!listActions(c.list.status).delete}
                        aria-label={forLabel('buttonDelete')}
                        onClick={() => {
                          if (!props.confirm(t('confirmDelete', label, formatNumber(c.places)))) return;
                          void run(t('deleting', label), async () => {
                            try {
                              const reply: Reply = await sendListMessage('deleteList', c.id);
                              return reply.ok ? null : userErrorText(reply.error);
                            } finally {
                              props.onChanged();
                            }
                          });
                        }}
                      >
                        {t('buttonDelete')}
                      </button>
                    </>
                  )}
                  {EXPORT_FORMATS.map((format) => (
                    <button
                      key={format}
                      type="button"
                      disabled={!props.store || c.places === 0 || busy !== null}
                      aria-label={forLabel(EXPORT_BUTTON[format])}
                      onClick={() => {
                        const store = props.store;
                        if (!store) return;
                        void run(t('exporting', formatNumber(c.places)), async () => {
                          await exportCollection(
                            store,
                            c,
                            format,
                            new Date(props.now()),
                            (done, total) => setBusy(t('exportingProgress', formatNumber(done), formatNumber(total))),
                            props.filter,
                          );
                          return null;
                        });
                      }}
                    >
                      {t(EXPORT_BUTTON[format])}
                    </button>
                  ))}
                  <button
                    type="button"
                    disabled={c.places === 0 || busy !== null}
                    aria-label={forLabel('buttonFindContacts')}
                    onClick={() => void run(t('buttonFindContacts'), () => findContacts(c.id))}
                  >
                    {t('buttonFindContacts')}
                  </button>
                  {sweep && (
                    <button
                      type="button"
                      disabled={!props.store || busy !== null}
                      aria-label={forLabel('buttonExportCoverage')}
                      onClick={() => {
                        const store = props.store;
                        if (!store) return;
                        void run(t('exportingCoverage', label), async () => {
                          await exportCoverageReport(store, sweep, new Date(props.now()));
                          return null;
                        });
                      }}
                    >
                      {t('buttonExportCoverage')}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p role="status" class="busy">
        {busy || ''}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

export function collectionLabel(c: CollectionSummary): string {
  if (c.kind === 'list') return c.list.name;
  return c.kind === 'sweep' ? c.sweep.keywords.join(', ') : t('collectionBrowsing');
}

/** A list's state, and why it waits when it does. */
function listStateText(list: PlaceList): string {
  const state = t(`listState_${list.status}`);
  return list.status === 'paused' && list.problem ? `${state}: ${t(`listProblem_${list.problem.kind.replaceAll('-', '_')}`)}` : state;
}

/** A list's entries left failed (line, what it named, why) and the lines refused when it was confirmed. */
function ListProblems(props: { list: PlaceList; failures: readonly ListFailure[] }) {
  const { list, failures } = props;
  if (failures.length === 0 && list.bad.length === 0) return null;
  const rows = [
    ...failures.map((f) => ({ line: f.line, entry: f.entry, reason: f.reason })),
    ...list.bad.map((b) => ({ line: b.line, entry: b.text, reason: b.reason })),
  ].sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  return (
    <details>
      <summary>{t('listProblemsSummary', formatNumber(failures.length), formatNumber(list.counts.bad))}</summary>
      <table aria-label={t('listProblemsTable', list.name)}>
        <thead>
          <tr>
            <th scope="col">{t('columnLine')}</th>
            <th scope="col">{t('columnEntry')}</th>
            <th scope="col">{t('columnReason')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={`${r.line}-${i}`}>
              <td class="number">{r.line === null ? '—' : formatNumber(r.line)}</td>
              <td>{r.entry}</td>
              <td>{r.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
