import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { isUnresolved } from '../../utils/dashboard/cell-verdict';
import {
  boundsOf,
  fitProjection,
  sitesListing,
  SITES_LISTING_COLOURS,
  STATUS_COLOURS,
  STATUS_ORDER,
  PLACE_COLOUR,
  UNRESOLVED_HATCH,
  type SitesListing,
} from '../../utils/dashboard/coverage';
import { listBusinesses } from '../../utils/match/read';
import { PROVIDERS } from '../../utils/providers/registry';
import { DENSE_AREA_OUTLINE, drawCoverage } from '../../utils/dashboard/draw-coverage';
import { denseAreasText, loadIncompleteCoverage, type IncompleteCoverage } from '../../utils/dashboard/incomplete';
import { renderText } from '../../utils/i18n/text';
import { cellAt } from '../../utils/dashboard/hit-test';
import { chooseMapView, tilesUnavailable, type TileProgress } from '../../utils/dashboard/tiles';
import type { CollectionSummary } from '../../utils/dashboard/collections';
import type { ListingRow } from '../../utils/dashboard/rows';
import { formatDateTime, formatNumber, t } from '../../utils/i18n/t';
import { withNumbers } from '../HealthLine';
import type { Store } from '../../utils/store';
import type { Cell, CellStatus, Sweep } from '../../utils/domain/sweep';
import { BaseMap } from './BaseMap';
import { BaseMapSettings, useTileUrl } from './BaseMapSettings';
import { CellVerdict } from './CellVerdict';
import { collectionLabel } from './CollectionsPanel';
import { useSweepCells } from './useDashboardData';

const PADDING = 12;
const MAX_HEIGHT = 560;
/** Used until the page has been laid out (and in a DOM without layout). */
const FALLBACK_WIDTH = 800;

export interface CoverageMapProps {
  store: Store | null;
  collection: CollectionSummary;
  rows: readonly ListingRow[];
  /** Rows loaded so far: the map redraws as they arrive. */
  loaded: number;
}

/**
 * The sweep's cells by status and the collected places as dots, over a base map of tiles
 * (BaseMap, Leaflet) once a tile has loaded; until then, and whenever tiles cannot load, on a
 * canvas in the extension's own page. Browsing has no cells, so only its places show.
 */
export function CoverageMap(props: CoverageMapProps) {
  const sweep = props.collection.kind === 'sweep' ? props.collection.sweep : null;
  const { cells, error } = useSweepCells(props.store, sweep);
  const [keywordIndex, setKeywordIndex] = useState(0);
  const [showPlaces, setShowPlaces] = useState(true);
  const [bySites, setBySites] = useState(false);
  const listedOn = useSitesListingOf(props.store, bySites);
  const wrapper = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useElementWidth(wrapper, FALLBACK_WIDTH);
  const tileUrl = useTileUrl();
  const [tiles, setTiles] = useState<TileProgress>({ loaded: 0, failed: 0 });
  const [baseMapWanted, setBaseMapWanted] = useState(true);
  const view = baseMapWanted ? chooseMapView(tiles) : 'canvas';

  // The cell under the pointer, and the one clicked (kept when the pointer leaves): ids, so a
  // refresh of the cells shows the same cell's new verdict.
  const [hoveredId, setHoveredId] = useState<string | null>(null);
  const [pinnedId, setPinnedId] = useState<string | null>(null);

  useEffect(() => {
    setKeywordIndex(0);
    setHoveredId(null);
    setPinnedId(null);
  }, [sweep?.id]);
  const shown = useMemo(() => cells.filter((c) => c.keywordIndex === keywordIndex), [cells, keywordIndex]);
  const counts = useMemo(() => countByStatus(shown), [shown]);
  const unresolved = useMemo(() => shown.filter(isUnresolved).length, [shown]);
  const incomplete = useIncompleteCoverage(props.store, sweep);

  const positioned = useMemo(() => props.rows.slice(0, props.loaded).filter(hasPosition), [props.rows, props.loaded]);
  // Coloured by how many sites list each place's business, when asked (utils/match/).
  const places = useMemo(
    () => (listedOn ? positioned.map((p) => ({ ...p, colour: SITES_LISTING_COLOURS[sitesListing(listedOn.get(p.key) ?? 1, PROVIDERS.length)] })) : positioned),
    [positioned, listedOn],
  );
  const sitesCounts = useMemo(() => {
    const counts: Record<SitesListing, number> = { all: 0, some: 0, one: 0 };
    if (listedOn) for (const p of positioned) counts[sitesListing(listedOn.get(p.key) ?? 1, PROVIDERS.length)]++;
    return counts;
  }, [positioned, listedOn]);
  const bounds = useMemo(() => (sweep ? boundsOf([sweep.area.bbox, ...shown.map((c) => c.bbox)]) : boundsOf([], places)), [sweep, shown, places]);

  const height = Math.round(Math.min(MAX_HEIGHT, width * 0.62));
  const projection = useMemo(() => (bounds ? fitProjection(bounds, { width, height }, PADDING) : null), [bounds, width, height]);
  const verdictCell = useMemo(() => {
    const id = hoveredId ?? pinnedId;
    return id === null ? null : (shown.find((c) => c.id === id) ?? null);
  }, [shown, hoveredId, pinnedId]);
  /** The cell under a mouse event, in the canvas's CSS pixels (the projection's). */
  const cellUnder = (e: MouseEvent): Cell | null => {
    const el = canvas.current;
    if (!el || !projection) return null;
    const r = el.getBoundingClientRect();
    return cellAt(shown, projection, { x: e.clientX - r.left, y: e.clientY - r.top });
  };

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx || !bounds) return;
    // Draw in CSS pixels on a backing store of device pixels: sharp on high-DPI screens.
    const dpr = window.devicePixelRatio || 1;
    el.width = Math.round(width * dpr);
    el.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const size = { width, height };
    drawCoverage(
      ctx,
      { size, cells: shown, places: showPlaces ? places : [], area: sweep?.area ?? null, denseAreas: incomplete?.areas ?? [] },
      projection ?? fitProjection(bounds, size, PADDING),
    );
  }, [bounds, width, height, shown, showPlaces, places, sweep, projection, incomplete]);

  const summary = STATUS_ORDER.filter((s) => counts[s] > 0)
    .map((s) => t('legendItem', t(`cellStatus_${s}`), formatNumber(counts[s])))
    .join(', ');
  const label = collectionLabel(props.collection);
  const pick = (id: string | null) => setPinnedId((was) => (id === was ? null : id));

  return (
    <section class="coverage" aria-labelledby="coverage-title">
      <h2 id="coverage-title">{t('sectionCoverage')}</h2>
      <div class="map-controls">
        {sweep && sweep.keywords.length > 1 && (
          <label>
            {t('mapKeyword')}{' '}
            <select value={String(keywordIndex)} onChange={(e) => setKeywordIndex(Number((e.currentTarget as HTMLSelectElement).value))}>
              {sweep.keywords.map((k, i) => (
                <option key={k} value={String(i)}>
                  {k}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          <input type="checkbox" checked={showPlaces} onChange={(e) => setShowPlaces((e.currentTarget as HTMLInputElement).checked)} /> {t('mapShowPlaces')}
        </label>
        <label>
          <input type="checkbox" checked={bySites} disabled={!showPlaces} onChange={(e) => setBySites((e.currentTarget as HTMLInputElement).checked)} />{' '}
          {t('mapColourBySites')}
        </label>
        {tiles.loaded > 0 && (
          <label>
            <input type="checkbox" checked={baseMapWanted} onChange={(e) => setBaseMapWanted((e.currentTarget as HTMLInputElement).checked)} />{' '}
            {t('mapBaseMap')}
          </label>
        )}
      </div>
      <div class="map" ref={wrapper} style={bounds ? { position: 'relative', height: `${height}px` } : undefined}>
        {bounds && (
          <BaseMap
            tileUrl={tileUrl}
            bounds={bounds}
            cells={shown}
            places={showPlaces ? places : NO_PLACES}
            area={sweep?.area ?? null}
            visible={view === 'tiles'}
            height={height}
            label={t('mapBaseMapLabel', label, summary || t('mapNoCells'))}
            onProgress={setTiles}
            onHover={setHoveredId}
            onPick={pick}
          />
        )}
        {bounds ? (
          <canvas
            ref={canvas}
            style={{ width: `${width}px`, height: `${height}px`, visibility: view === 'canvas' ? 'visible' : 'hidden' }}
            role="img"
            aria-label={t('mapAlt', label, summary || t('mapNoCells'))}
            data-testid="coverage-canvas"
            onMouseMove={(e) => setHoveredId(cellUnder(e)?.id ?? null)}
            onMouseLeave={() => setHoveredId(null)}
            onClick={(e) => pick(cellUnder(e)?.id ?? null)}
          />
        ) : (
          <p class="empty">{t('mapEmpty')}</p>
        )}
      </div>
      {bounds && baseMapWanted && tilesUnavailable(tiles) && (
        <p class="hint" data-testid="tiles-unavailable">
          {t('mapTilesUnavailable')}
        </p>
      )}
      <BaseMapSettings url={tileUrl} />
      <ul class="legend">
        {sweep &&
          STATUS_ORDER.map((s) => (
            <li key={s} data-status={s}>
              <span class={s === 'split' ? 'swatch outline' : 'swatch'} style={swatchStyle(s)} aria-hidden="true" />
              {t('legendItem', t(`cellStatus_${s}`), formatNumber(counts[s]))}
            </li>
          ))}
        {sweep && (
          <li data-status="unresolved">
            <span class="swatch" style={UNRESOLVED_SWATCH} aria-hidden="true" />
            {t('legendItem', t('legendUnresolved'), formatNumber(unresolved))}
          </li>
        )}
        {incomplete && incomplete.areas.length > 0 && (
          <li data-status="dense-area">
            <span class="swatch outline" style={{ borderColor: DENSE_AREA_OUTLINE, borderWidth: '2px' }} aria-hidden="true" />
            {t('legendItem', t('legendDenseArea'), formatNumber(incomplete.areas.length))}
          </li>
        )}
        {listedOn ? (
          (['all', 'some', 'one'] as const).map((k) => (
            <li key={k} data-sites={k}>
              <span class="swatch dot" style={{ background: SITES_LISTING_COLOURS[k] }} aria-hidden="true" />
              {t('legendItem', t(`mapSites_${k}`), formatNumber(sitesCounts[k]))}
            </li>
          ))
        ) : (
          <li>
            <span class="swatch dot" style={{ background: PLACE_COLOUR }} aria-hidden="true" />
            {t('legendItem', t('mapPlaces'), formatNumber(places.length))}
          </li>
        )}
      </ul>
      {incomplete && incomplete.areas.length > 0 && (
        <ul class="warnings" data-testid="map-dense-areas">
          {denseAreasText(incomplete.areas).map((line, i) => (
            <li key={i}>{renderText(line, withNumbers, formatDateTime)}</li>
          ))}
        </ul>
      )}
      {sweep && <CellVerdict cell={verdictCell} pinned={verdictCell !== null && verdictCell.id === pinnedId} />}
      {error && (
        <p class="error" role="alert">
          {t('storeError', error)}
        </p>
      )}
    </section>
  );
}

const NO_PLACES: readonly { lat: number; lng: number }[] = [];

/** The sweep's dense areas (all keywords, as the popup says them); null when none. */
function useIncompleteCoverage(store: Store | null, sweep: Sweep | null): IncompleteCoverage | null {
  const [value, setValue] = useState<{ key: string; incomplete: IncompleteCoverage | null } | null>(null);
  // Counting walks the sweep's places: redone when a cell is newly saturated or the status changes, not per commit.
  const key = sweep ? `${sweep.id}@${sweep.counters.cellsSaturated}@${sweep.status}` : '';
  useEffect(() => {
    if (!store || !sweep || sweep.counters.cellsSaturated === 0) return;
    let stopped = false;
    void loadIncompleteCoverage(store, sweep.id).then(
      (incomplete) => !stopped && setValue({ key, incomplete }),
      () => {},
    );
    return () => {
      stopped = true;
    };
  }, [store, key]);
  // The last reading of the same sweep stays up while the next one loads (no flicker per commit).
  return sweep && value?.key.startsWith(`${sweep.id}@`) ? value.incomplete : null;
}

/** The map's hatch: stripes over the saturated colour. */
const UNRESOLVED_SWATCH = {
  background: `repeating-linear-gradient(-45deg, ${STATUS_COLOURS.saturated} 0 3px, ${UNRESOLVED_HATCH} 3px 5px)`,
};

function swatchStyle(s: CellStatus) {
  return s === 'split' ? { borderColor: STATUS_COLOURS[s] } : { background: STATUS_COLOURS[s] };
}

/** How many sites list each linked place's business (a place in none is on its own site only), read once when asked for. */
function useSitesListingOf(store: Store | null, wanted: boolean): Map<string, number> | null {
  const [listedOn, setListedOn] = useState<Map<string, number> | null>(null);
  useEffect(() => {
    if (!store || !wanted) return setListedOn(null);
    let stopped = false;
    listBusinesses(store).then(
      (businesses) => {
        if (stopped) return;
        const out = new Map<string, number>();
        for (const b of businesses) for (const key of b.members) out.set(key, b.members.length);
        setListedOn(out);
      },
      () => !stopped && setListedOn(new Map()),
    );
    return () => {
      stopped = true;
    };
  }, [store, wanted]);
  return listedOn;
}

function hasPosition(r: ListingRow): r is ListingRow & { lat: number; lng: number } {
  return r.lat !== null && r.lng !== null;
}

function countByStatus(cells: readonly { status: CellStatus }[]): Record<CellStatus, number> {
  const counts = Object.fromEntries(STATUS_ORDER.map((s) => [s, 0])) as Record<CellStatus, number>;
  for (const c of cells) counts[c.status] += 1;
  return counts;
}

/** The element's content width, following window resizes. */
function useElementWidth(ref: { current: HTMLElement | null }, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth > 0 ? el.clientWidth : fallback);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, fallback]);
  return width;
}
