import { useState } from 'preact/hooks';
import { defaultSelection } from '../../utils/dashboard/collections';
import { t } from '../../utils/i18n/t';
import { BusinessesPanel } from './BusinessesPanel';
import { ChangesPanel } from './ChangesPanel';
import { CollectionsPanel } from './CollectionsPanel';
import { CoverageMap } from './CoverageMap';
import { HealthPanel, useHealth } from './HealthPanel';
import { ListingsTable } from './ListingsTable';
import { ReviewsExport } from './ReviewsExport';
import { SavedSearchesPanel } from './SavedSearchesPanel';
import { PlaceListPanel } from './PlaceListPanel';
import { useCollectionRows, useCollections } from './useDashboardData';
import { FilterCount } from '../FilterCount';
import { useFilterSetting } from '../useFilterSetting';

/**
 * The full-page view of what MapSweep holds: every collection, the selected one's coverage
 * map and its places. Everything is re-read from the store, never kept from messages.
 */
export function Dashboard(props: { confirm?: (message: string) => boolean; now?: () => number }) {
  const confirm = props.confirm ?? ((message: string) => window.confirm(message));
  const now = props.now ?? Date.now;
  const data = useCollections();
  const [chosen, setChosen] = useState<string | null>(null);
  // A chosen collection that was deleted (here or elsewhere) falls back to the default one.
  const chosenExists = data.collections.some((c) => c.id === chosen);
  const selectedId = chosenExists ? chosen : data.sweeps ? defaultSelection(data.sweeps) : null;
  const selected = data.collections.find((c) => c.id === selectedId) ?? null;
  const rows = useCollectionRows(data.store, selected?.id ?? null, selected?.places ?? 0, data.totalPlaces, data.tick);
  const health = useHealth(data.store, now);
  // The options' filters now (issue 40): counted for the collection shown, applied to its exports.
  const filter = useFilterSetting();

  return (
    <main>
      <h1>{t('dashboardTitle')}</h1>
      {data.error && (
        <p class="error" role="alert">
          {t('storeError', data.error)}
        </p>
      )}
      {!data.sweeps && !data.error && <p role="status">{t('loadingCollections')}</p>}
      <HealthPanel data={health.data} error={health.error} />
      <CollectionsPanel
        store={data.store}
        collections={data.collections}
        selectedId={selectedId}
        onSelect={setChosen}
        onChanged={data.refresh}
        confirm={confirm}
        now={now}
        filter={filter}
      />
      {selected && <FilterCount store={data.store} collection={selected.id} filter={filter} places={selected.places} />}
      {selected && <CoverageMap store={data.store} collection={selected} rows={rows.rows} loaded={rows.loaded} />}
      {selected && <ListingsTable key={selected.id} rows={rows.rows} loaded={rows.loaded} loading={rows.loading} expected={rows.expected} />}
      <ReviewsExport store={data.store} selected={selected} totalPlaces={data.totalPlaces} tick={data.tick} now={now} filter={filter} />
      <BusinessesPanel store={data.store} tick={data.tick} />
      {rows.error && (
        <p class="error" role="alert">
          {t('storeError', rows.error)}
        </p>
      )}
      <PlaceListPanel
        onStarted={(id) => {
          setChosen(id);
          data.refresh();
        }}
      />
      <SavedSearchesPanel
        searches={health.data?.searches ?? null}
        selectedSweep={selected?.kind === 'sweep' ? selected.sweep : null}
        confirm={confirm}
        onChanged={health.refresh}
      />
      <ChangesPanel store={data.store} health={health.data} />
    </main>
  );
}
