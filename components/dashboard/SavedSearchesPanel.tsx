import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { draftFromSearch, emptyDraft, hourLabel, weekdayNames, type SaveRequest, type SavedSearchDraft } from '../../utils/dashboard/saved-search-form';
import type { SavedSearchHealth } from '../../utils/health';
import { formatNumber, t } from '../../utils/i18n/t';
import { sendMessage, type Reply } from '../../utils/messaging/protocol';
import type { SavedSearch } from '../../utils/domain/saved-search';
import type { Sweep } from '../../utils/domain/sweep';
import { userErrorText } from '../user-error';
import { timeOrNever } from './HealthPanel';
import { CELL, TABLE } from './table-styles';
import { SavedSearchForm } from './SavedSearchForm';
import { ColumnHeads } from './ColumnHeads';

/** The background's saved-search commands; tests hand in their own. */
export interface SavedSearchCommands {
  save(input: SaveRequest): Promise<Reply<{ id: string }>>;
  remove(id: string): Promise<Reply>;
  runNow(id: string): Promise<Reply>;
}

export const backgroundCommands: SavedSearchCommands = {
  save: (input) => sendMessage('saveSearch', input),
  remove: (id) => sendMessage('deleteSavedSearch', id),
  runNow: (id) => sendMessage('runSavedSearchNow', id),
};

export interface SavedSearchesPanelProps {
  /** From the health read; null until the first one. */
  searches: readonly SavedSearchHealth[] | null;
  /** The sweep selected in Collections, offered to fill the form. */
  selectedSweep: Sweep | null;
  commands?: SavedSearchCommands;
  confirm(message: string): boolean;
  /** A saved search was written or deleted, or a run started: read the store now. */
  onChanged(): void;
  /** The interface's language, for weekday names. */
  locale?: string;
}

/** Areas and keywords watched on a schedule: list, edit, delete, run now, and the form. */
export function SavedSearchesPanel(props: SavedSearchesPanelProps) {
  const commands = props.commands ?? backgroundCommands;
  const [draft, setDraft] = useState<SavedSearchDraft>(emptyDraft);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const locale = props.locale ?? browser.i18n.getUILanguage();
  const days = weekdayNames(locale);

  async function act(action: () => Promise<Reply>, done: string) {
    setError(null);
    setStatus('');
    try {
      const reply = await action();
      if (reply.ok) setStatus(done);
      else setError(userErrorText(reply.error));
    } catch (e) {
      setError(t('actionFailed', e instanceof Error ? e.message : String(e)));
    } finally {
      props.onChanged();
    }
  }

  function remove(s: SavedSearch) {
    if (!props.confirm(t('confirmDeleteSavedSearch', s.name))) return;
    if (draft.id === s.id) setDraft(emptyDraft());
    void act(() => commands.remove(s.id), t('savedDeleted', s.name));
  }

  const schedule = (s: SavedSearch) =>
    s.repeat === 'off'
      ? t('scheduleOff')
      : s.repeat === 'daily'
        ? t('scheduleDaily', hourLabel(s.hour))
        : t('scheduleWeekly', days[s.weekday] ?? String(s.weekday), hourLabel(s.hour));

  const searches = props.searches ?? [];
  return (
    <section class="saved-searches" aria-labelledby="saved-title">
      <h2 id="saved-title">{t('sectionSavedSearches')}</h2>
      {props.searches && searches.length === 0 && <p class="empty">{t('savedNone')}</p>}
      {searches.length > 0 && (
        <table style={TABLE} data-testid="saved-searches">
          <ColumnHeads labels={[t('columnName'), t('fieldKeywords'), t('columnSchedule'), t('columnThreshold'), t('columnLastRun'), t('columnActions')]} />
          <tbody>
            {searches.map(({ search: s }) => {
              const forName = (key: string) => t('actionFor', t(key), s.name);
              return (
                <tr key={s.id} aria-current={draft.id === s.id ? 'true' : undefined}>
                  <th scope="row" style={CELL}>
                    {s.name}
                  </th>
                  <td style={CELL}>
                    {s.keywordsText
                      .split('\n')
                      .filter((k) => k.trim() !== '')
                      .join(', ')}
                  </td>
                  <td style={CELL}>{schedule(s)}</td>
                  <td style={CELL}>{t('thresholdDays', formatNumber(s.thresholdDays))}</td>
                  <td style={CELL}>{timeOrNever(s.lastRunAt)}</td>
                  <td style={{ ...CELL, display: 'flex', gap: '4px', flexWrap: 'wrap' }}>
                    <button type="button" aria-label={forName('buttonEdit')} onClick={() => setDraft(draftFromSearch(s))}>
                      {t('buttonEdit')}
                    </button>
                    <button
                      type="button"
                      aria-label={forName('buttonRunNow')}
                      onClick={() => void act(() => commands.runNow(s.id), t('savedRunStarted', s.name))}
                    >
                      {t('buttonRunNow')}
                    </button>
                    <button type="button" class="danger" aria-label={forName('buttonDelete')} onClick={() => remove(s)}>
                      {t('buttonDelete')}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p role="status" class="busy">
        {status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <SavedSearchForm
        draft={draft}
        onDraft={setDraft}
        sweep={props.selectedSweep}
        save={commands.save}
        locale={locale}
        onSaved={(_id, name) => {
          setDraft(emptyDraft());
          setError(null);
          setStatus(t('savedSaved', name));
          props.onChanged();
        }}
      />
    </section>
  );
}
