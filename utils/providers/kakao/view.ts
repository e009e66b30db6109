/**
 * Kakao map levels ⇄ the sweep's MapView zoom, and the WGS84 box a map.daum `rect` surely covers.
 *
 * Levels and zooms. The sweep plans cells in Web-Mercator zooms (MapView.zoom, Google's), where
 * a pixel is 156543.034 · cos(lat) / 2^zoom metres. A Kakao level L is taken to be
 * 0.25 · 2^(L−1) metres per pixel (urls.ts metresPerPixel, [?]: not in the notes). Both halve per
 * step, so they differ by a constant that depends only on the latitude:
 *
 *     L = 1 + log2(156543.034 · cos(lat) / 0.25) − zoom      (≈ 19.9 − zoom at 37.5°N)
 *
 * i.e. in Korea level ≈ 20 − zoom: level 3 ≈ zoom 17 (≈ 1 m per px), level 5 ≈ zoom 15,
 * level 14 ≈ zoom 6. Levels are whole numbers, so a zoom between two levels takes the wider one
 * (the page never shows less than the view asked for). Nothing here proves what a page searched:
 * the proof is the rect of the page's own map.daum request (kakao/collect.ts), which is measured.
 */
import type { BBox, MapView } from '../../geo/types';
import { METRES_PER_PIXEL_Z0 } from '../../geo/mercator';
import { wcongnamulToWgs84, wgs84ToWcongnamul, type WcongRect } from '../../geo/wcongnamul';
import { KAKAO_MAX_LEVEL, KAKAO_MIN_LEVEL, type KakaoView } from './urls';

/** Kakao's metres per pixel at level 1 [?] (urls.ts metresPerPixel). */
const LEVEL1_METRES_PER_PX = 0.25;

/** The (fractional) level whose pixel is as wide as a zoom's pixel at this latitude. */
export function exactLevelForZoom(zoom: number, lat: number): number {
  return 1 + Math.log2((METRES_PER_PIXEL_Z0 * Math.cos((lat * Math.PI) / 180)) / LEVEL1_METRES_PER_PX) - zoom;
}

/** The whole level that shows at least what `zoom` shows (rounded outward), within 1…14. */
export function levelForZoom(zoom: number, lat: number): number {
  const exact = exactLevelForZoom(zoom, lat);
  // 1e-6: a zoom that is exactly a level (the inverse of zoomForLevel) stays that level.
  const level = Math.ceil(exact - 1e-6);
  return Math.min(KAKAO_MAX_LEVEL, Math.max(KAKAO_MIN_LEVEL, level));
}

/** The zoom whose pixel is as wide as a level's at this latitude (fractional). */
export function zoomForLevel(level: number, lat: number): number {
  return 1 + Math.log2((METRES_PER_PIXEL_Z0 * Math.cos((lat * Math.PI) / 180)) / LEVEL1_METRES_PER_PX) - level;
}

/** A MapView as the Kakao view (WCONGNAMUL centre, level) the search page URL carries; null off the grid. */
export function kakaoViewOf(view: MapView): KakaoView | null {
  const w = wgs84ToWcongnamul(view);
  if (!w || !Number.isFinite(view.zoom)) return null;
  return { x: w.x, y: w.y, level: levelForZoom(view.zoom, view.lat) };
}

/** A Kakao view as a MapView (its zoom the level's equivalent, fractional). */
export function mapViewOf(view: KakaoView): MapView | null {
  const g = wcongnamulToWgs84(view);
  if (!g) return null;
  return { lat: round7(g.lat), lng: round7(g.lng), zoom: Math.round(zoomForLevel(view.level, g.lat) * 1000) / 1000 };
}

const EDGE_SAMPLES = 8;
/** WCONGNAMUL x of 127°E (the grid's false easting). */
const CENTRAL_MERIDIAN_X = 500000;

/**
 * The largest WGS84 box inside a WCONGNAMUL rect: what a search restricted to the rect surely
 * covered. Parallels and meridians are curves on the TM grid, so each edge is sampled and the
 * box takes the innermost value of each (the covering box, wcongRectToBBox, would claim a sliver
 * the rect does not hold). Null when the rect does not convert.
 */
export function innerBBoxOfRect(r: WcongRect): BBox | null {
  let south = -Infinity;
  let north = Infinity;
  let west = -Infinity;
  let east = Infinity;
  // Along a grid row the latitude is highest where the row crosses the central meridian, so that
  // point is sampled too; along a grid column the longitude is monotone (its ends are sampled).
  const xs: number[] = [];
  for (let i = 0; i <= EDGE_SAMPLES; i++) xs.push(r.x1 + ((r.x2 - r.x1) * i) / EDGE_SAMPLES);
  xs.push(Math.min(r.x2, Math.max(r.x1, CENTRAL_MERIDIAN_X)));
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    const y = r.y1 + ((r.y2 - r.y1) * Math.min(i, EDGE_SAMPLES)) / EDGE_SAMPLES;
    const bottom = wcongnamulToWgs84({ x, y: r.y1 });
    const top = wcongnamulToWgs84({ x, y: r.y2 });
    const left = wcongnamulToWgs84({ x: r.x1, y });
    const right = wcongnamulToWgs84({ x: r.x2, y });
    if (!bottom || !top || !left || !right) return null;
    south = Math.max(south, bottom.lat);
    north = Math.min(north, top.lat);
    west = Math.max(west, left.lng);
    east = Math.min(east, right.lng);
  }
  return south < north && west < east ? { south, west, north, east } : null;
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}
