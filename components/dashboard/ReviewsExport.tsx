import { useEffect, useState } from 'preact/hooks';
import type { CollectionSummary } from '../../utils/dashboard/collections';
import { buildReviewsExport, hasReviews, type ReviewsFormat } from '../../utils/export/reviews';
import { formatNumber, t } from '../../utils/i18n/t';
import type { Store } from '../../utils/store';
import { downloadParts } from '../download';
import { collectionLabel } from './CollectionsPanel';
import { ALL_PLACES_WORDS, exportFailureText, scopeOf, type ExportScope } from './export-collection';
import type { PlaceFilter } from '../../utils/config/settings';

const FORMATS: { format: ReviewsFormat; label: string }[] = [
  { format: 'csv', label: 'exportReviewsCsv' },
  { format: 'json', label: 'exportReviewsJson' },
];

export interface ReviewsExportProps {
  store: Store | null;
  /** The collection the dashboard shows (a sweep, or Browsing). */
  selected: CollectionSummary | null;
  /** Places in the whole store, for the "all places" scope's label. */
  totalPlaces: number;
  /** The dashboard's poll count: whether any review is stored is asked again on each. */
  tick: number;
  now(): number;
  /** The options' filters now (issue 40): the reviews of the places that pass. */
  filter?: PlaceFilter;
}

/**
 * The reviews (issue 38) as the popup's files (utils/export/reviews.ts buildReviewsExport), CSV or
 * JSON, for the collection shown and for every place stored. The places table has no row
 * selection, so these are the two scopes. Shown once any review is stored; only names and
 * counts here, never a review's text.
 */
export function ReviewsExport(props: ReviewsExportProps) {
  const { store, selected } = props;
  const [any, setAny] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!store) return;
    let live = true;
    void hasReviews(store).then(
      (v) => live && setAny(v),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [store, props.tick]);
  if (!store || !any) return null;

  async function download(scope: ExportScope, format: ReviewsFormat) {
    if (!store) return;
    setBusy(true);
    setError(null);
    try {
      const file = await buildReviewsExport(store, scope, format, new Date(props.now()));
      downloadParts(file.parts, file.fileName, file.type);
    } catch (e) {
      setError(exportFailureText(e));
    } finally {
      setBusy(false);
    }
  }

  const scopes: { key: string; label: string; scope: ExportScope }[] = [
    ...(selected ? [{ key: selected.id, label: collectionLabel(selected), scope: scopeOf(selected, props.filter) }] : []),
    {
      key: '*',
      label: t('exportScopeAll', formatNumber(props.totalPlaces)),
      scope: { collection: undefined, fileWords: ALL_PLACES_WORDS, ...(props.filter ? { filter: props.filter } : {}) },
    },
  ];
  return (
    <section class="reviews-export" aria-labelledby="reviews-export-title">
      <h2 id="reviews-export-title">{t('optionReviewsLegend')}</h2>
      {scopes.map((s) => (
        <p key={s.key}>
          <span>{s.label}</span>{' '}
          {FORMATS.map((f) => (
            <button
              key={f.format}
              type="button"
              disabled={busy}
              aria-label={t('actionFor', t(f.label), s.label)}
              onClick={() => void download(s.scope, f.format)}
            >
              {t(f.label)}
            </button>
          ))}
        </p>
      ))}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
