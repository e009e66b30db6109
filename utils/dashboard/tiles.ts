import type { BBox, LatLng } from '../geo/types';
import { drawOrder, type CoverageCell } from './draw-coverage';

/**
 * The base map under the coverage map: raster tiles, loaded as plain images by the dashboard
 * (no remote code). OpenStreetMap's own server by default; its tile usage policy asks heavy
 * users to run or rent their own, so the URL is a setting kept next to the map.
 */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const TILE_ATTRIBUTION = '© <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer">OpenStreetMap</a> contributors';
/** storage.local key of the tile URL the user chose (absent: the default). The dashboard's own key. */
export const TILE_URL_KEY = 'dashboardTileUrl';
/** OpenStreetMap's standard tiles stop at 19. */
export const MAX_TILE_ZOOM = 19;

/** Placeholders Leaflet's tile layer fills; any other `{name}` would make it throw while drawing. */
const PLACEHOLDERS = new Set(['z', 'x', 'y', 's', 'r']);
const REQUIRED = ['z', 'x', 'y'] as const;

export type TileUrlCheck =
  | { ok: true; url: string }
  | { ok: false; problem: 'empty' | 'not-url' | 'not-https' | 'missing-placeholder' | 'unknown-placeholder'; detail?: string };

/**
 * Is this a tile URL template the dashboard can use: https only (the page must not mix in
 * plain-http images, and a tile server sees where the user looks), with {z}, {x} and {y}, and
 * no placeholder Leaflet cannot fill. Whitespace around it is dropped.
 */
export function checkTileUrl(input: string): TileUrlCheck {
  const url = input.trim();
  if (url === '') return { ok: false, problem: 'empty' };
  const names = [...url.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
  const unknown = names.find((n) => !PLACEHOLDERS.has(n));
  if (unknown !== undefined) return { ok: false, problem: 'unknown-placeholder', detail: `{${unknown}}` };
  const missing = REQUIRED.find((n) => !names.includes(n));
  let parsed: URL;
  try {
    // Placeholders filled with digits / a letter, so the URL parser sees a real address.
    parsed = new URL(
      url
        .replace(/\{s\}/g, 'a')
        .replace(/\{r\}/g, '')
        .replace(/\{[zxy]\}/g, '0'),
    );
  } catch {
    return { ok: false, problem: 'not-url' };
  }
  if (parsed.protocol !== 'https:') return { ok: false, problem: 'not-https' };
  if (!parsed.hostname) return { ok: false, problem: 'not-url' };
  if (missing !== undefined) return { ok: false, problem: 'missing-placeholder', detail: `{${missing}}` };
  return { ok: true, url };
}

/** The URL to draw with, from what storage holds: the default when nothing (valid) is stored. */
export function tileUrlFromStorage(stored: unknown): string {
  if (typeof stored !== 'string') return DEFAULT_TILE_URL;
  const check = checkTileUrl(stored);
  return check.ok ? check.url : DEFAULT_TILE_URL;
}

/** What the tile layer has reported since the map (or its URL) last changed. */
export interface TileProgress {
  loaded: number;
  failed: number;
}

export type MapView = 'canvas' | 'tiles';

/**
 * Which map the user sees. The canvas is the default, and stays until a tile has really
 * loaded (no network, a blocked or wrong server: the user keeps today's map, not a grey box);
 * once a tile has loaded the base map is shown, even if later tiles fail.
 */
export function chooseMapView(progress: TileProgress): MapView {
  return progress.loaded > 0 ? 'tiles' : 'canvas';
}

/** Tiles tried and none loaded: worth telling the user why the plain map shows. */
export function tilesUnavailable(progress: TileProgress): boolean {
  return progress.loaded === 0 && progress.failed > 0;
}

const contains = (b: BBox, p: LatLng): boolean => p.lat >= b.south && p.lat < b.north && p.lng >= b.west && p.lng < b.east;

/**
 * The cell under a point of the base map, as the canvas's hit test picks it: deeper filled
 * cells win over shallower ones, a split cell (only an outline) answers only where none of its
 * children is loaded. Boxes are half-open, so a point on a shared edge has one answer.
 */
export function cellAtLatLng<C extends CoverageCell>(cells: readonly C[], point: LatLng): C | null {
  let hit: C | null = null;
  let splitHit: C | null = null;
  for (const cell of drawOrder(cells)) {
    if (!contains(cell.bbox, point)) continue;
    if (cell.status === 'split') splitHit = cell;
    else hit = cell;
  }
  return hit ?? splitHit;
}
