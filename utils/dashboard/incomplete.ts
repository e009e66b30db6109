import type { Cell } from '../domain/sweep';
import { denseAreas, roundedMetres, type DenseArea, type FoundPlace } from '../coverage/dense-areas';
import { text, type Text, type TextParam } from '../i18n/text';
import type { Store } from '../store';
import { bboxContains } from '../geo/bbox';
import { isUnresolved } from './cell-verdict';

/** What a finished sweep cannot vouch for: its saturated cells, the unresolved among them, and the places found on their ground. */
export interface IncompleteCoverage {
  /** Saturated cells, the unresolved ones included. */
  saturated: number;
  unresolved: number;
  /**
   * Distinct places (listing keys) found on the saturated cells' ground: what may be
   * incomplete. Not the cells' listed results summed: neighbouring crowded searches list the
   * same crowd, and a dense mall's 23 cells once "held" 2,760 places of a sweep of 579.
   */
  places: number;
  /** The saturated cells grouped into areas of touching cells, largest first. */
  areas: DenseArea[];
}

/**
 * Reduce a sweep's cells and its places to the popup's warning, or null when every cell was
 * proven. Counted from the cells rather than the sweep's counters: sweeps of older versions
 * have no unresolved counter. `places`: the sweep's stored places (any order; repeats count once).
 */
export function incompleteCoverage(cells: readonly Pick<Cell, 'id' | 'bbox' | 'status' | 'result'>[], places: Iterable<FoundPlace>): IncompleteCoverage | null {
  const saturated = cells.filter((c) => c.status === 'saturated');
  if (saturated.length === 0) return null;
  const areas = denseAreas(
    saturated.map((c) => ({ id: c.id, bbox: c.bbox, unresolved: isUnresolved(c) })),
    places,
  );
  return {
    saturated: saturated.length,
    unresolved: saturated.filter(isUnresolved).length,
    places: areas.reduce((n, a) => n + a.places, 0),
    areas,
  };
}

/** Listings read per batch: the sweep's places are walked once, never all held at once. */
const BATCH = 1000;

/** The same, read from the store: the sweep's saturated cells, then its places batch by batch. */
export async function loadIncompleteCoverage(store: Store, sweepId: string): Promise<IncompleteCoverage | null> {
  const cells = await store.listCells(sweepId, 'saturated');
  if (cells.length === 0) return null;
  // Only places that can belong to a saturated cell are kept, and only what counting needs of them.
  const near = {
    south: Math.min(...cells.map((c) => c.bbox.south)),
    west: Math.min(...cells.map((c) => c.bbox.west)),
    north: Math.max(...cells.map((c) => c.bbox.north)),
    east: Math.max(...cells.map((c) => c.bbox.east)),
  };
  const places: FoundPlace[] = [];
  for await (const batch of store.iterateListings(BATCH, sweepId)) {
    for (const l of batch) {
      if (l.lat === null || l.lng === null || bboxContains(near, { lat: l.lat, lng: l.lng }))
        places.push({ key: l.key, lat: l.lat, lng: l.lng, cells: l.cells });
    }
  }
  return incompleteCoverage(cells, places);
}

/** Areas listed by name in the popup and on the map; the rest are counted ("…and 3 more"). */
export const AREAS_LISTED = 5;

/**
 * The areas in words: "1 area of about 60 × 60 m near 37.5116, 127.0592 is too dense for the
 * map's closest zoom: 205 places found there", or, for several, a summary then one line per
 * area (the largest first). An area of unresolved cells only is not known to be crowded, and
 * says "could not be proven complete" instead.
 */
export function denseAreasText(areas: readonly DenseArea[]): Text[] {
  const item = (a: DenseArea): TextParam[] => [roundedMetres(a.widthM), roundedMetres(a.heightM), a.centre.lat.toFixed(4), a.centre.lng.toFixed(4), a.places];
  if (areas.length === 0) return [];
  if (areas.length === 1) {
    const a = areas[0]!;
    return [text(a.unresolved === a.cells ? 'denseAreaOneUnresolved' : 'denseAreaOne', ...item(a))];
  }
  const lines = [
    text(
      'denseAreasMany',
      areas.length,
      areas.reduce((n, a) => n + a.places, 0),
    ),
    ...areas.slice(0, AREAS_LISTED).map((a) => text('denseAreaItem', ...item(a))),
  ];
  if (areas.length > AREAS_LISTED) lines.push(text('denseAreasMore', areas.length - AREAS_LISTED));
  return lines;
}
