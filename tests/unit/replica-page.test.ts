// @vitest-environment happy-dom
/**
 * The search page's own script, run against happy-dom with its requests answered in-process by the same
 * function the server uses (so no browser and no network): batches, spinner, end text, the single-result
 * redirect, "can't find", the zoom-out URL rewrite.
 */
import { describe, expect, it } from 'vitest';
import { parsePlaceUrl } from '../../utils/providers/google/urls';
import type { MapView } from '../../utils/geo/types';
import { openReplicaSearch, type ReplicaSearchRun } from '../helpers/replica-search-page';
import type { DomVariant } from '../replica/dom-variants';
import { placePageUrl } from '../replica/hrefs';
import { LIMITED_VIEW_CAP, searchPlaces } from '../replica/search';
import { createWorld, type PlaceSpec, type World, worldFromSpecs } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });

function openSearch(w: World, query: string, view: MapView, opts: { signedIn?: boolean; variant?: DomVariant } = {}): ReplicaSearchRun {
  return openReplicaSearch(w, query, view, { switches: { signedIn: opts.signedIn ?? true, sparseZoomOut: true, sponsored: true }, variant: opts.variant });
}

const END = "You've reached the end of the list.";
const feedText = (): string => document.querySelector('[role="feed"]')?.textContent ?? '';
const organicCids = (): string[] =>
  [...document.querySelectorAll('[role="article"]')]
    .filter((c) => !c.querySelector('[aria-label="Sponsored"]'))
    .map((c) => parsePlaceUrl(c.querySelector('a[href*="/maps/place/"]')!.getAttribute('href')!).cid!);

describe('replica search page script', () => {
  it('loads 20 per scroll, shows the spinner meanwhile, and ends at 120 with the end text', () => {
    const view: MapView = { ...SEOUL, zoom: 15 };
    const run = openSearch(world, 'cafe', view);
    run.settle();
    expect(document.querySelector('[role="feed"]')!.getAttribute('aria-label')).toBe('Results for cafe');
    expect(organicCids()).toHaveLength(20);
    expect(document.querySelectorAll('[role="article"] [aria-label="Sponsored"]')).toHaveLength(1);
    for (let batch = 2; batch <= 6; batch++) {
      run.scrollFeed();
      expect(document.querySelector('[role="feed"] .lXJj5c')).not.toBeNull();
      run.settle();
      expect(document.querySelector('[role="feed"] .lXJj5c')).toBeNull();
      expect(organicCids()).toHaveLength(batch * 20);
    }
    expect(feedText()).toContain(END);
    run.scrollFeed();
    run.settle();
    expect(run.requests).toHaveLength(6);
    expect(run.requests.map((u) => /[?&]ech=(\d+)/.exec(u)![1])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(run.requests.map((u) => /!8i(\d+)/.exec(u)![1])).toEqual(['0', '20', '40', '60', '80', '100']);
    const expected = searchPlaces(world, 'cafe', view, { width: 1280, height: 800, panelWidth: 408 }, { signedIn: true, sparseZoomOut: true });
    expect(organicCids()).toEqual(expected.results.map((p) => p.cid));
    // The view did not change, so the URL was left alone.
    expect(run.urls).toEqual([]);
  });

  it('stops after a short batch when fewer than 120 match', () => {
    const count = (v: MapView): number =>
      searchPlaces(world, 'gym', v, { width: 1280, height: 800, panelWidth: 408 }, { signedIn: true, sparseZoomOut: true }).results.length;
    let view: MapView = { ...SEOUL, zoom: 14 };
    while (count(view) >= 120 || count(view) % 20 === 0) view = { ...view, zoom: view.zoom + 0.25 };
    const total = count(view);
    expect(total).toBeGreaterThan(20);
    const run = openSearch(world, 'gym', view);
    run.settle();
    expect(feedText()).not.toContain(END);
    for (let i = 0; i < 10; i++) {
      run.scrollFeed();
      run.settle();
    }
    expect(organicCids()).toHaveLength(total);
    expect(feedText()).toContain(END);
    expect(run.requests).toHaveLength(Math.ceil(total / 20));
  });

  it('says it cannot find a query with no match, with no feed', () => {
    openSearch(world, 'zzqx', { ...SEOUL, zoom: 15 }).settle();
    expect(document.querySelector('[role="feed"]')).toBeNull();
    expect(document.querySelector('[role="main"]')!.textContent).toContain("Google Maps can't find zzqx");
  });

  it('sends a single match to its place page instead of listing it', () => {
    const specs: PlaceSpec[] = [
      { name: 'Only Pharmacy', category: 'pharmacy', prominence: 0.5, ...SEOUL },
      { name: 'Some Cafe', category: 'cafe', prominence: 0.5, lat: SEOUL.lat, lng: SEOUL.lng + 0.001 },
    ];
    const tiny = worldFromSpecs(specs);
    const run = openSearch(tiny, 'pharmacy', { ...SEOUL, zoom: 15 });
    run.settle();
    expect(document.querySelector('[role="feed"]')).toBeNull();
    expect(run.replacedWith).toEqual([placePageUrl(tiny.places[0]!)]);
  });

  it('writes the zoomed-out view into the URL when a sparse search widens', () => {
    const specs: PlaceSpec[] = [3, 4, 5, 6, 7, 8].map((km) => ({
      name: `Dental ${km}`,
      category: 'dentist',
      prominence: 0.5,
      lat: SEOUL.lat,
      lng: SEOUL.lng + km / 88.2,
    }));
    const sparse = worldFromSpecs(specs);
    const run = openSearch(sparse, 'dentist', { ...SEOUL, zoom: 16 });
    run.settle();
    expect(run.urls).toHaveLength(1);
    const zoom = Number(/,(\d+(?:\.\d+)?)z/.exec(run.urls[0]!)![1]);
    expect(zoom).toBeLessThan(16);
    expect(run.urls[0]).toMatch(/^\/maps\/search\/dentist\/@37\.5665,126\.978,\d+z\?hl=en$/);
    expect(organicCids().length).toBeGreaterThanOrEqual(5);
  });

  it('signed out, a generic query lists a handful with bare star labels', () => {
    const run = openSearch(world, 'cafe', { ...SEOUL, zoom: 15 }, { signedIn: false });
    run.settle();
    expect(organicCids()).toHaveLength(LIMITED_VIEW_CAP);
    expect(feedText()).toContain(END);
    const labels = [...document.querySelectorAll('[role="img"][aria-label*="stars"]')].map((e) => e.getAttribute('aria-label'));
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toMatch(/^\d\.\d stars$/);
  });

  it('variant b keeps the hooks with none of the real class names', () => {
    const run = openSearch(world, 'cafe', { ...SEOUL, zoom: 15 }, { variant: 'b' });
    run.settle();
    expect(document.querySelector('.Nv2PK, .hfpxzc, .qBF1Pd, .W4Efsd, .m6QErb')).toBeNull();
    expect(organicCids()).toHaveLength(20);
    run.scrollFeed();
    run.settle();
    expect(organicCids()).toHaveLength(40);
  });

  it('follows the list request to the sorry page when blocked mid-list', () => {
    const run = openSearch(world, 'cafe', { ...SEOUL, zoom: 15 });
    run.settle();
    run.block();
    run.scrollFeed();
    run.settle();
    expect(run.navigatedTo()).toMatch(/^https:\/\/www\.google\.com\/sorry\/index\?/);
    expect(organicCids()).toHaveLength(20);
  });
});
