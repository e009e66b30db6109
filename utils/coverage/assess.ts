/**
 * What one search proved about its cell's coverage, from what the page measured: the canvas it
 * laid out, the view its URL ended on, and the places it listed. Pure, so the sweep driver and
 * the bench's in-memory loop judge coverage with the very same code.
 */
import type { BBox, MapView } from '../geo/types';
import type { Listing } from '../domain/listing';
import type { Observation } from '../domain/sweep';
import { learnFromSearch } from './calibration';
import { boxCovers, searchedBoxOf, type GeometryCalibration, type MeasuredCanvas, type SpanLimits } from './geometry';

export interface CoverageInput {
  observation: Observation;
  /** Organic listings as judged. */
  organic: readonly Listing[];
  cellBox: BBox;
  /** The view the cell's URL asked for. */
  requested: MapView;
  /** The canvas the view was planned for (the last measured one, or the tab's size). */
  planned: MeasuredCanvas;
  /** The calibration for the canvas the page measured (`measuredCanvas(input)`'s key). */
  calibration: GeometryCalibration;
  /** What the sweep's audit proved is not searched, for that canvas. */
  limits?: SpanLimits;
  now: number;
}

export interface CoverageVerdict {
  measured: MeasuredCanvas;
  /** The calibration after this search's evidence (the same object when nothing was learnt). */
  calibration: GeometryCalibration;
  /** What the page surely searched, and the view it searched from. */
  searchedBox: BBox;
  searchedView: MapView;
  /** The searched box holds the whole cell. */
  covered: boolean;
  /** Not covered because the canvas differed from the planned one: search again with the measured canvas, at once. */
  searchAgain: boolean;
}

/** The canvas the page reported, else the planned one (a page that could not measure itself). */
export function measuredCanvas(observation: Observation, planned: MeasuredCanvas): MeasuredCanvas {
  return observation.canvas ?? planned;
}

export function assessCoverage(input: CoverageInput): CoverageVerdict {
  const { observation: obs, requested, planned } = input;
  const measured = measuredCanvas(obs, planned);
  let calibration = input.calibration;
  // Only a results page's URL tells the view it ended on, so only those teach the geometry.
  if (obs.pageKind === 'results' && obs.finalView !== null) {
    const places = input.organic.flatMap((l) => (l.lat !== null && l.lng !== null ? [{ lat: l.lat, lng: l.lng }] : []));
    calibration = learnFromSearch(calibration, { view: obs.finalView, canvas: measured, places, complete: obs.endOfList && !obs.capHit }, input.now);
  }
  // A place page's URL is the place's own view, not the search's: the requested view stands.
  const searchedView = obs.pageKind === 'place' ? requested : (obs.finalView ?? requested);
  const searchedBox = searchedBoxOf(searchedView, calibration, input.limits);
  const covered = boxCovers(searchedBox, input.cellBox);
  return { measured, calibration, searchedBox, searchedView, covered, searchAgain: !covered && !sameCanvas(measured, planned) };
}

export function sameCanvas(a: MeasuredCanvas, b: MeasuredCanvas): boolean {
  return Math.round(a.width) === Math.round(b.width) && Math.round(a.height) === Math.round(b.height);
}

/** Before the page has measured itself: the tab's size, and no panel edge (so the panel's default bound applies). */
export function guessCanvas(v: { width: number; height: number }): MeasuredCanvas {
  return { width: v.width, height: v.height, panelRight: null };
}
