import { useState } from 'preact/hooks';
import {
  draftFromSweep,
  emptyDraft,
  hourLabel,
  parseDraft,
  providerChoice,
  weekdayNames,
  type SaveRequest,
  type SavedSearchDraft,
} from '../../utils/dashboard/saved-search-form';
import { t } from '../../utils/i18n/t';
import { PROVIDERS } from '../../utils/providers/registry';
import type { Reply } from '../../utils/messaging/protocol';
import type { Repeat } from '../../utils/domain/saved-search';
import type { Sweep } from '../../utils/domain/sweep';
import { userErrorText } from '../user-error';

const REPEAT_LABEL: Record<Repeat, string> = { off: 'repeatOff', daily: 'repeatDaily', weekly: 'repeatWeekly' };
const HOURS = Array.from({ length: 24 }, (_, h) => h);
/** Short fields keep their own width in the form's grid. */
const SHORT = { justifySelf: 'start' } as const;

export interface SavedSearchFormProps {
  draft: SavedSearchDraft;
  onDraft(draft: SavedSearchDraft): void;
  /** The sweep selected in Collections: its site, keywords and area can fill the form. */
  sweep: Pick<Sweep, 'keywords' | 'area' | 'provider'> | null;
  save(input: SaveRequest): Promise<Reply<{ id: string }>>;
  onSaved(id: string, name: string): void;
  /** The interface's language, for weekday names. */
  locale: string;
}

/**
 * Create or change a saved search. Input is checked here with the background's own rules
 * first: a refused form shows why and sends nothing.
 */
export function SavedSearchForm(props: SavedSearchFormProps) {
  const { draft } = props;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<SavedSearchDraft>) => props.onDraft({ ...draft, ...change });
  const value = (e: Event) => (e.currentTarget as HTMLInputElement).value;

  async function submit(e: Event) {
    e.preventDefault();
    const parsed = parseDraft(draft);
    if (!parsed.ok) {
      setError(userErrorText(parsed.error));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await props.save(parsed.input);
      if (reply.ok) props.onSaved(reply.id, parsed.input.name);
      else setError(userErrorText(reply.error));
    } catch (err) {
      setError(t('actionFailed', err instanceof Error ? err.message : String(err)));
    } finally {
      setBusy(false);
    }
  }

  const editing = draft.id !== null;
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="saved-form-title"
      style={{ display: 'grid', gridTemplateColumns: 'minmax(160px, max-content) 1fr', gap: '6px 12px', alignItems: 'start', marginTop: '12px' }}
    >
      <h3 id="saved-form-title" style={{ gridColumn: '1 / -1', margin: 0 }}>
        {editing ? t('savedFormEdit', draft.name) : t('savedFormNew')}
      </h3>
      <label for="saved-name">{t('columnName')}</label>
      <input id="saved-name" type="text" maxLength={200} placeholder={t('savedNamePlaceholder')} value={draft.name} onInput={(e) => set({ name: value(e) })} />
      <label for="saved-provider">{t('fieldProvider')}</label>
      <select id="saved-provider" style={SHORT} value={draft.provider ?? ''} onChange={(e) => set({ provider: providerChoice(value(e)) })}>
        {/* No default site: a search saved for the wrong one would run there unattended. */}
        <option value="" disabled>
          {t('savedProviderChoose')}
        </option>
        {PROVIDERS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.displayName}
          </option>
        ))}
      </select>
      <label for="saved-keywords">{t('fieldKeywords')}</label>
      <textarea
        id="saved-keywords"
        rows={3}
        placeholder={t('keywordsPlaceholder')}
        value={draft.keywordsText}
        onInput={(e) => set({ keywordsText: value(e) })}
      />
      <label for="saved-area">{t('fieldArea')}</label>
      <div>
        <textarea
          id="saved-area"
          rows={2}
          style={{ width: '100%', boxSizing: 'border-box' }}
          placeholder={t('areaPlaceholder')}
          value={draft.areaText}
          onInput={(e) => set({ areaText: value(e) })}
        />
        <button type="button" disabled={!props.sweep} onClick={() => props.sweep && props.onDraft(draftFromSweep(draft, props.sweep))}>
          {t('savedFillFromSweep')}
        </button>
      </div>
      <label for="saved-repeat">{t('fieldRepeat')}</label>
      <select id="saved-repeat" style={SHORT} value={draft.repeat} onChange={(e) => set({ repeat: value(e) as Repeat })}>
        {(Object.keys(REPEAT_LABEL) as Repeat[]).map((r) => (
          <option key={r} value={r}>
            {t(REPEAT_LABEL[r])}
          </option>
        ))}
      </select>
      {draft.repeat !== 'off' && (
        <>
          <label for="saved-hour">{t('fieldHour')}</label>
          <select id="saved-hour" style={SHORT} value={draft.hour} onChange={(e) => set({ hour: value(e) })}>
            {HOURS.map((h) => (
              <option key={h} value={String(h)}>
                {hourLabel(h)}
              </option>
            ))}
          </select>
        </>
      )}
      {draft.repeat === 'weekly' && (
        <>
          <label for="saved-weekday">{t('fieldWeekday')}</label>
          <select id="saved-weekday" style={SHORT} value={draft.weekday} onChange={(e) => set({ weekday: value(e) })}>
            {weekdayNames(props.locale).map((name, day) => (
              <option key={day} value={String(day)}>
                {name}
              </option>
            ))}
          </select>
        </>
      )}
      <label for="saved-threshold">{t('fieldThreshold')}</label>
      <input
        id="saved-threshold"
        type="number"
        min={1}
        step="any"
        inputMode="decimal"
        style={{ ...SHORT, width: '8em' }}
        value={draft.thresholdDays}
        onInput={(e) => set({ thresholdDays: value(e) })}
      />
      <div style={{ gridColumn: '2', display: 'flex', gap: '6px' }}>
        <button type="submit" disabled={busy}>
          {editing ? t('buttonSaveChanges') : t('buttonSaveSearch')}
        </button>
        {editing && (
          <button
            type="button"
            onClick={() => {
              setError(null);
              props.onDraft(emptyDraft());
            }}
          >
            {t('buttonCancelEdit')}
          </button>
        )}
      </div>
      {error && (
        <p class="error" role="alert" style={{ gridColumn: '1 / -1' }}>
          {error}
        </p>
      )}
    </form>
  );
}
