// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { BaseMapSettings } from '../../components/dashboard/BaseMapSettings';
import { fitProjection } from '../../utils/dashboard/coverage';
import { cellAt } from '../../utils/dashboard/hit-test';
import type { CoverageCell } from '../../utils/dashboard/draw-coverage';
import {
  cellAtLatLng,
  checkTileUrl,
  chooseMapView,
  DEFAULT_TILE_URL,
  TILE_ATTRIBUTION,
  TILE_URL_KEY,
  tileUrlFromStorage,
  tilesUnavailable,
} from '../../utils/dashboard/tiles';
import { useEnglishMessages } from '../helpers/english-messages';

describe('tile URL check', () => {
  it('takes OpenStreetMap’s default and https templates with {z} {x} {y} (and {s}, {r})', () => {
    expect(checkTileUrl(DEFAULT_TILE_URL)).toEqual({ ok: true, url: DEFAULT_TILE_URL });
    expect(checkTileUrl('  https://tiles.example.org/osm/{z}/{x}/{y}.png?key=abc  ')).toEqual({
      ok: true,
      url: 'https://tiles.example.org/osm/{z}/{x}/{y}.png?key=abc',
    });
    expect(checkTileUrl('https://{s}.tile.example.org/{z}/{x}/{y}{r}.png').ok).toBe(true);
    expect(checkTileUrl('https://localhost:8443/tiles/{z}/{y}/{x}').ok).toBe(true);
  });

  it('refuses anything but https', () => {
    for (const url of [
      'http://tile.openstreetmap.org/{z}/{x}/{y}.png',
      'ftp://example.org/{z}/{x}/{y}',
      'javascript:alert({z}{x}{y})',
      'data:image/png,{z}{x}{y}',
    ]) {
      expect(checkTileUrl(url), url).toMatchObject({ ok: false, problem: 'not-https' });
    }
  });

  it('needs each of {z}, {x} and {y}, and refuses placeholders Leaflet cannot fill', () => {
    expect(checkTileUrl('https://example.org/{z}/{x}.png')).toEqual({ ok: false, problem: 'missing-placeholder', detail: '{y}' });
    expect(checkTileUrl('https://example.org/{x}/{y}.png')).toEqual({ ok: false, problem: 'missing-placeholder', detail: '{z}' });
    expect(checkTileUrl('https://example.org/tiles.png')).toMatchObject({ ok: false, problem: 'missing-placeholder' });
    expect(checkTileUrl('https://example.org/{z}/{x}/{y}.png?key={apikey}')).toEqual({ ok: false, problem: 'unknown-placeholder', detail: '{apikey}' });
    expect(checkTileUrl('https://example.org/{Z}/{x}/{y}.png')).toMatchObject({ ok: false, problem: 'unknown-placeholder' });
  });

  it('refuses empty text and text that is no address', () => {
    expect(checkTileUrl('   ')).toEqual({ ok: false, problem: 'empty' });
    expect(checkTileUrl('tile.openstreetmap.org/{z}/{x}/{y}.png')).toMatchObject({ ok: false, problem: 'not-url' });
    expect(checkTileUrl('https://')).toMatchObject({ ok: false });
  });

  it('draws with the stored URL only when it is valid, else the default', () => {
    expect(tileUrlFromStorage(undefined)).toBe(DEFAULT_TILE_URL);
    expect(tileUrlFromStorage(42)).toBe(DEFAULT_TILE_URL);
    expect(tileUrlFromStorage('http://example.org/{z}/{x}/{y}.png')).toBe(DEFAULT_TILE_URL);
    expect(tileUrlFromStorage('https://example.org/{z}/{x}/{y}.png')).toBe('https://example.org/{z}/{x}/{y}.png');
  });

  it('credits OpenStreetMap’s contributors', () => {
    expect(TILE_ATTRIBUTION.replace(/<[^>]+>/g, '')).toBe('© OpenStreetMap contributors');
  });
});

describe('canvas or base map', () => {
  it('keeps the canvas until a tile has loaded, then shows the base map even if later tiles fail', () => {
    expect(chooseMapView({ loaded: 0, failed: 0 })).toBe('canvas');
    expect(chooseMapView({ loaded: 0, failed: 12 })).toBe('canvas');
    expect(chooseMapView({ loaded: 1, failed: 0 })).toBe('tiles');
    expect(chooseMapView({ loaded: 3, failed: 5 })).toBe('tiles');
  });

  it('says the tiles are unavailable only once some failed and none loaded', () => {
    expect(tilesUnavailable({ loaded: 0, failed: 0 })).toBe(false);
    expect(tilesUnavailable({ loaded: 0, failed: 1 })).toBe(true);
    expect(tilesUnavailable({ loaded: 1, failed: 4 })).toBe(false);
  });
});

describe('the cell under a point of the base map', () => {
  const box = (south: number, west: number, north: number, east: number) => ({ south, west, north, east });
  const cells: (CoverageCell & { id: string })[] = [
    { id: 'root', bbox: box(37, 127, 37.2, 127.2), status: 'split', depth: 0 },
    { id: 'sw', bbox: box(37, 127, 37.1, 127.1), status: 'done', depth: 1 },
    { id: 'nw', bbox: box(37.1, 127, 37.2, 127.1), status: 'saturated', depth: 1 },
    { id: 'ne', bbox: box(37.1, 127.1, 37.2, 127.2), status: 'quarantined', depth: 1 },
    // se child not loaded: the split parent answers there.
  ];

  it('picks the deepest filled cell, the split parent only where no child is', () => {
    expect(cellAtLatLng(cells, { lat: 37.05, lng: 127.05 })?.id).toBe('sw');
    expect(cellAtLatLng(cells, { lat: 37.15, lng: 127.15 })?.id).toBe('ne');
    expect(cellAtLatLng(cells, { lat: 37.05, lng: 127.15 })?.id).toBe('root');
    expect(cellAtLatLng(cells, { lat: 36.9, lng: 127.05 })).toBeNull();
  });

  it('gives a point on a shared edge to one neighbour (half-open boxes)', () => {
    expect(cellAtLatLng(cells, { lat: 37.1, lng: 127.05 })?.id).toBe('nw');
    expect(cellAtLatLng(cells, { lat: 37.15, lng: 127.1 })?.id).toBe('ne');
  });

  it('agrees with the canvas hit test at cell centres', () => {
    const projection = fitProjection(box(37, 127, 37.2, 127.2), { width: 800, height: 500 }, 12);
    for (const cell of cells) {
      const centre = { lat: (cell.bbox.south + cell.bbox.north) / 2, lng: (cell.bbox.west + cell.bbox.east) / 2 };
      if (cell.status === 'split') continue;
      expect(cellAtLatLng(cells, centre)?.id).toBe(cellAt(cells, projection, projection.point(centre))?.id);
    }
  });
});

describe('tile URL setting next to the map', () => {
  let root: HTMLElement;
  beforeEach(() => {
    fakeBrowser.reset();
    useEnglishMessages();
    root = document.createElement('div');
    document.body.append(root);
  });
  afterEach(() => {
    render(null, root);
    root.remove();
    vi.restoreAllMocks();
  });

  const input = () => root.querySelector('input[type="text"]') as HTMLInputElement;
  const type = async (value: string) => {
    await act(() => {
      input().value = value;
      input().dispatchEvent(new Event('input', { bubbles: true }));
    });
  };
  const submit = async () => {
    await act(async () => {
      root.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
    });
  };

  it('saves a valid URL under its own key, refuses an invalid one with a reason, and says why to run your own server', async () => {
    await act(() => render(h(BaseMapSettings, { url: DEFAULT_TILE_URL }), root));
    expect(input().value).toBe(DEFAULT_TILE_URL);
    expect(root.textContent).toMatch(/your own tile server/);

    await type('http://tiles.example.org/{z}/{x}/{y}.png');
    await submit();
    expect(root.querySelector('[role="alert"]')?.textContent).toMatch(/https/);
    expect(await fakeBrowser.storage.local.get(TILE_URL_KEY)).toEqual({});

    await type('https://tiles.example.org/{z}/{x}/{y}.png');
    await submit();
    expect(root.querySelector('[role="alert"]')).toBeNull();
    expect(await fakeBrowser.storage.local.get(TILE_URL_KEY)).toEqual({ [TILE_URL_KEY]: 'https://tiles.example.org/{z}/{x}/{y}.png' });

    // Back to OpenStreetMap: the key is removed, so a later default change reaches the user.
    await act(async () => {
      (root.querySelectorAll('button')[1] as HTMLButtonElement).click();
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(await fakeBrowser.storage.local.get(TILE_URL_KEY)).toEqual({});
  });
});
