import { useState } from 'preact/hooks';
import { type AllSettings, FILTER_LIMITS, NO_FILTER, type PlaceFilter } from '../utils/config/settings';
import { checkFilter, describeFilter, isActive } from '../utils/filters';
import { formatDateTime, t } from '../utils/i18n/t';
import { renderText } from '../utils/i18n/text';

/** The form as typed: words as comma-separated text, numbers as the boxes' text. */
interface Draft {
  categories: string;
  excludeCategories: string;
  excludeNames: string;
  minRating: string;
  minReviews: string;
  website: PlaceFilter['website'];
  phone: PlaceFilter['phone'];
  status: PlaceFilter['status'];
}

function draftOf(f: PlaceFilter): Draft {
  return {
    categories: f.categories.join(', '),
    excludeCategories: f.excludeCategories.join(', '),
    excludeNames: f.excludeNames.join(', '),
    minRating: f.minRating === null ? '' : String(f.minRating),
    minReviews: f.minReviews === null ? '' : String(f.minReviews),
    website: f.website,
    phone: f.phone,
    status: f.status,
  };
}

const WORD_FIELDS = [
  { key: 'categories', label: 'optionFiltersCategories', placeholder: 'optionFiltersCategoriesExample' },
  { key: 'excludeCategories', label: 'optionFiltersExcludeCategories', placeholder: 'optionFiltersExcludeCategoriesExample' },
  { key: 'excludeNames', label: 'optionFiltersExcludeNames', placeholder: 'optionFiltersExcludeNamesExample' },
] as const;

const CHOICES = [
  {
    key: 'website',
    legend: 'optionFiltersWebsite',
    options: [
      ['any', 'optionFiltersAny'],
      ['has', 'optionFiltersWebsiteHas'],
      ['none', 'optionFiltersWebsiteNone'],
    ],
  },
  {
    key: 'phone',
    legend: 'optionFiltersPhone',
    options: [
      ['any', 'optionFiltersAny'],
      ['has', 'optionFiltersPhoneHas'],
    ],
  },
  {
    key: 'status',
    legend: 'optionFiltersStatus',
    options: [
      ['any', 'optionFiltersAny'],
      ['open-only', 'optionFiltersStatusOpen'],
    ],
  },
] as const;

/**
 * "Filters" in the options page (issue 40): category words to keep and to leave out, names to
 * leave out, the lowest rating and fewest reviews, website, phone and open status. Each change is
 * checked whole (utils/filters checkFilter) and saved with the other settings only when it reads;
 * bad input stays in the boxes with its reason, and the stored filters do not change.
 */
export function FiltersOption(props: { settings: AllSettings; save(next: AllSettings): Promise<void> }) {
  const { settings, save } = props;
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings.filters));
  const [error, setError] = useState<string | null>(null);

  function change(patch: Partial<Draft>) {
    const next = { ...draft, ...patch };
    setDraft(next);
    const checked = checkFilter(next);
    if (!checked.ok) {
      setError(renderText(checked.text, t, formatDateTime));
      return;
    }
    setError(null);
    void save({ ...settings, filters: checked.filter });
  }

  const value = (e: Event) => (e.target as HTMLInputElement).value;
  return (
    <fieldset class="filters">
      <legend>{t('optionFiltersLegend')}</legend>
      {WORD_FIELDS.map((f) => (
        <label key={f.key}>
          {t(f.label, FILTER_LIMITS.words)}{' '}
          <input type="text" value={draft[f.key]} placeholder={t(f.placeholder)} onChange={(e) => change({ [f.key]: value(e) })} />
        </label>
      ))}
      <label>
        {t('optionFiltersMinRating')}{' '}
        <input type="number" min={0} max={5} step={0.1} value={draft.minRating} onChange={(e) => change({ minRating: value(e) })} />
      </label>
      <label>
        {t('optionFiltersMinReviews')}{' '}
        <input type="number" min={0} max={FILTER_LIMITS.reviews[1]} step={1} value={draft.minReviews} onChange={(e) => change({ minReviews: value(e) })} />
      </label>
      {CHOICES.map((c) => (
        <fieldset key={c.key} class="choices">
          <legend>{t(c.legend)}</legend>
          {c.options.map(([v, label]) => (
            <label key={v}>
              <input type="radio" name={`filter-${c.key}`} value={v} checked={draft[c.key] === v} onChange={() => change({ [c.key]: v })} /> {t(label)}
            </label>
          ))}
        </fieldset>
      ))}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="hint" data-testid="filters-now">
        {isActive(settings.filters) ? t('optionFiltersNow', describeFilter(settings.filters)) : t('optionFiltersNone')}
      </p>
      <button
        type="button"
        disabled={!isActive(settings.filters) && !error}
        onClick={() => {
          setDraft(draftOf(NO_FILTER));
          setError(null);
          void save({ ...settings, filters: NO_FILTER });
        }}
      >
        {t('buttonClearFilters')}
      </button>
      <p class="hint">{t('optionFiltersHint')}</p>
    </fieldset>
  );
}
