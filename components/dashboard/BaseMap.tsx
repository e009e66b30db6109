import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef } from 'preact/hooks';
import type { Area, BBox } from '../../utils/geo/types';
import { isUnresolved } from '../../utils/dashboard/cell-verdict';
import { AREA_OUTLINE, PLACE_COLOUR, STATUS_COLOURS } from '../../utils/dashboard/coverage';
import { drawOrder, type CoverageCell } from '../../utils/dashboard/draw-coverage';
import { cellAtLatLng, MAX_TILE_ZOOM, TILE_ATTRIBUTION, type TileProgress } from '../../utils/dashboard/tiles';

export interface BaseMapProps<C extends CoverageCell & { id: string }> {
  tileUrl: string;
  bounds: BBox;
  cells: readonly C[];
  places: readonly { lat: number; lng: number; colour?: string }[];
  area: Area | null;
  /** Shown to the user; while false the map still loads tiles, so the dashboard learns whether they can load. */
  visible: boolean;
  height: number;
  label: string;
  onProgress(progress: TileProgress): void;
  onHover(id: string | null): void;
  onPick(id: string | null): void;
}

/**
 * The coverage map over a real base map (Leaflet, tiles as images): cells as translucent
 * rectangles in their status colours, so streets and places show through, places as dots.
 * Pointing at and clicking a cell work as on the canvas (the same hit rules, tiles.ts).
 */
export function BaseMap<C extends CoverageCell & { id: string }>(props: BaseMapProps<C>) {
  const container = useRef<HTMLElement>(null);
  const map = useRef<L.Map | null>(null);
  const overlay = useRef<L.LayerGroup | null>(null);
  // The latest props for Leaflet's handlers, which are bound once.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const m = L.map(el, { preferCanvas: true, zoomSnap: 0.25, attributionControl: true });
    m.attributionControl.setPrefix(false);
    overlay.current = L.layerGroup().addTo(m);
    m.on('mousemove', (e: L.LeafletMouseEvent) => latest.current.onHover(cellAtLatLng(latest.current.cells, e.latlng)?.id ?? null));
    m.on('mouseout', () => latest.current.onHover(null));
    m.on('click', (e: L.LeafletMouseEvent) => latest.current.onPick(cellAtLatLng(latest.current.cells, e.latlng)?.id ?? null));
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
      overlay.current = null;
    };
  }, []);

  // Frame the area when it changes (not on every refresh of the cells: the user may have panned).
  const boundsKey = `${props.bounds.south},${props.bounds.west},${props.bounds.north},${props.bounds.east}`;
  useEffect(() => {
    const b = props.bounds;
    map.current?.fitBounds(
      [
        [b.south, b.west],
        [b.north, b.east],
      ],
      { padding: [12, 12], animate: false },
    );
  }, [boundsKey]);

  useEffect(() => {
    const m = map.current;
    if (!m) return;
    const progress: TileProgress = { loaded: 0, failed: 0 };
    latest.current.onProgress({ ...progress });
    const layer = L.tileLayer(props.tileUrl, { attribution: TILE_ATTRIBUTION, maxZoom: MAX_TILE_ZOOM, crossOrigin: false });
    layer.on('tileload', () => {
      progress.loaded += 1;
      latest.current.onProgress({ ...progress });
    });
    layer.on('tileerror', () => {
      progress.failed += 1;
      latest.current.onProgress({ ...progress });
    });
    layer.addTo(m);
    return () => {
      layer.off();
      layer.remove();
    };
  }, [props.tileUrl]);

  useEffect(() => {
    const group = overlay.current;
    if (!group) return;
    group.clearLayers();
    for (const cell of drawOrder(props.cells)) group.addLayer(cellLayer(cell));
    if (props.area?.kind === 'polygon') {
      for (const polygon of props.area.polygons) {
        const rings = polygon.map((ring) => ring.map((p) => L.latLng(p.lat, p.lng)));
        group.addLayer(L.polygon(rings, { color: AREA_OUTLINE, weight: 1.5, fill: false, interactive: false }));
      }
    }
    for (const p of props.places) {
      group.addLayer(L.circleMarker([p.lat, p.lng], { radius: 2.5, stroke: false, fillColor: p.colour ?? PLACE_COLOUR, fillOpacity: 0.9, interactive: false }));
    }
  }, [props.cells, props.places, props.area]);

  // Leaflet measures its container; after it is shown (or resized) it must measure again.
  useEffect(() => {
    map.current?.invalidateSize({ animate: false });
  }, [props.visible, props.height]);

  return (
    <section
      ref={container}
      class="base-map"
      data-testid="coverage-basemap"
      data-visible={props.visible ? 'true' : 'false'}
      aria-label={props.label}
      aria-hidden={props.visible ? undefined : 'true'}
      style={{
        position: 'absolute',
        inset: 0,
        height: `${props.height}px`,
        visibility: props.visible ? 'visible' : 'hidden',
        borderRadius: '4px',
        border: '1px solid #dadce0',
        boxSizing: 'border-box',
      }}
    />
  );
}

/** A cell's rectangle: split cells as outlines over their children, unresolved ones dashed. */
function cellLayer(cell: CoverageCell): L.Layer {
  const bounds = L.latLngBounds([cell.bbox.south, cell.bbox.west], [cell.bbox.north, cell.bbox.east]);
  const colour = STATUS_COLOURS[cell.status];
  if (cell.status === 'split') return L.rectangle(bounds, { color: colour, weight: 1, fill: false, interactive: false });
  const unresolved = isUnresolved(cell);
  return L.rectangle(bounds, {
    color: unresolved ? '#ffffff' : colour,
    weight: unresolved ? 2 : 1,
    opacity: 0.9,
    dashArray: unresolved ? '4 3' : undefined,
    fillColor: colour,
    fillOpacity: cell.status === 'outside' ? 0.2 : 0.4,
    interactive: false,
  });
}
