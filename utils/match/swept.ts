/**
 * Where each site was swept to completion: a business missing from a site counts as missing
 * only where that site's cells were searched and proven complete (`done`), never where it was
 * not swept at all (a Google-only sweep does not make every place "missing on Naver").
 * Keywords are not compared: a site swept for `카페` where the business was found under `coffee`
 * elsewhere can list it as missing; the dashboard says so.
 */
import type { BBox, LatLng } from '../geo/types';
import { bboxContains } from '../geo/bbox';
import type { ProviderId } from '../domain/place';
import type { Store } from '../store';
import { providerFor } from '../providers/registry';

/** Done cells, bucketed by a coarse degree grid so a lookup reads a few boxes, not every cell. */
const GRID_DEG = 0.02;

export type SweptAt = (site: ProviderId, point: LatLng) => boolean;

export async function sweptAreas(store: Store): Promise<SweptAt> {
  const grids = new Map<ProviderId, Map<string, BBox[]>>();
  for (const sweep of await store.listSweeps()) {
    // A sweep from before providers names none: the registry says whose it is.
    const site = providerFor(sweep.provider).id;
    let grid = grids.get(site);
    if (!grid) {
      grid = new Map();
      grids.set(site, grid);
    }
    for (const cell of await store.listCells(sweep.id, 'done')) {
      if (cell.role === 'audit') continue;
      const b = cell.bbox;
      for (let x = Math.floor(b.west / GRID_DEG); x <= Math.floor(b.east / GRID_DEG); x++) {
        for (let y = Math.floor(b.south / GRID_DEG); y <= Math.floor(b.north / GRID_DEG); y++) {
          const k = `${x},${y}`;
          const list = grid.get(k);
          if (list) list.push(b);
          else grid.set(k, [b]);
        }
      }
    }
  }
  return (site, p) => (grids.get(site)?.get(`${Math.floor(p.lng / GRID_DEG)},${Math.floor(p.lat / GRID_DEG)}`) ?? []).some((b) => bboxContains(b, p));
}
