// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { CellVerdict } from '../../components/dashboard/CellVerdict';
import { MESSAGES } from '../../scripts/locales';
import { CELL_REASONS, cellVerdict, isUnresolved, reasonKey, UNRESOLVED_REASONS } from '../../utils/dashboard/cell-verdict';
import { fitProjection, STATUS_COLOURS, UNRESOLVED_HATCH } from '../../utils/dashboard/coverage';
import { DENSE_AREA_OUTLINE, drawCoverage, hatchSegments, type CoverageCell, type CoverageContext } from '../../utils/dashboard/draw-coverage';
import { cellAt } from '../../utils/dashboard/hit-test';
import { incompleteCoverage } from '../../utils/dashboard/incomplete';
import { summariseAudits } from '../../utils/domain/audit-page';
import type { HealthData } from '../../utils/health/queries';
import { healthLine } from '../../utils/health/view';
import type { CellDecisionReason } from '../../utils/grid/types';
import { renderText, type Text } from '../../utils/i18n/text';
import type { Cell, CellResult } from '../../utils/domain/sweep';
import { createRng } from '../replica/prng';
import { gridCell } from '../helpers/bbox-grid';
import { makeCell } from './store-fixtures';

const lang =
  (i: 0 | 1) =>
  (key: string, ...params: (string | number)[]) =>
    (MESSAGES[key]?.[i] ?? `«${key}»`).replace(/\$(\d)/g, (_, n: string) => String(params[Number(n) - 1]));
const en = lang(0);
const ko = lang(1);
const time = (at: number) => `@${at}`;
const show = (v: Text, t = en) => renderText(v, t, time);

const result = (reason: CellDecisionReason | undefined, organic = 40): CellResult => ({
  ...(reason ? { reason } : {}),
  searchedBox: null,
  organic,
  newListings: 7,
  endOfList: reason === 'end-of-list',
  capHit: organic >= 120,
  zoomedOut: false,
  insideShare: 1,
});

/** All texts a view contains, nested ones included, to check every key has both languages. */
function keysOf(v: Text): string[] {
  return [v.key, ...(v.params ?? []).flatMap((p) => (typeof p === 'object' && 'key' in p ? keysOf(p) : []))];
}

describe('a cell’s verdict in words', () => {
  it('has a sentence in English and Korean for every reason the planner records', () => {
    for (const r of [
      'no-results',
      'single-result',
      'site-zoomed-out',
      'results-outside',
      'end-of-list',
      'cap-hit',
      'no-end-marker',
      'min-size',
      'cell-cap',
      'zoomed-out-capped',
      'view-not-covering',
    ]) {
      expect(CELL_REASONS).toContain(r);
    }
    for (const reason of CELL_REASONS) {
      const key = reasonKey(reason);
      expect(MESSAGES[key], reason).toBeDefined();
      expect(MESSAGES[key]![0].trim(), reason).not.toBe('');
      expect(MESSAGES[key]![1].trim(), reason).not.toBe('');
      expect(MESSAGES[key]![0]).not.toBe(MESSAGES[key]![1]);
    }
    // Distinct words: two reasons never read the same.
    expect(new Set(CELL_REASONS.map((r) => MESSAGES[reasonKey(r)]![0])).size).toBe(CELL_REASONS.length);
  });

  it('says "recorded by an older version" for a searched cell without a reason, and "not searched" for one never searched', () => {
    const older = cellVerdict(makeCell('s', 'r0c0', { status: 'done', result: result(undefined) }));
    expect(show(older.reasonText)).toMatch(/older version/);
    expect(show(older.reasonText, ko)).toMatch(/이전 버전/);
    expect(show(cellVerdict(makeCell('s', 'r0c0')).reasonText)).toBe('Not searched yet.');
    expect(show(cellVerdict(makeCell('s', 'r0c0', { status: 'outside' })).reasonText)).toMatch(/outside the area/);
  });

  it('labels saturated cells unresolved only for the unresolved reasons, and tells how many places were found there', () => {
    expect([...UNRESOLVED_REASONS].sort()).toEqual(['search-unknown', 'view-not-covering', 'zoomed-out-capped']);
    for (const reason of CELL_REASONS) {
      const cell = makeCell('s', 'r0c0', { status: 'saturated', result: result(reason, 118) });
      const v = cellVerdict(cell);
      const expected = reason === 'zoomed-out-capped' || reason === 'view-not-covering' || reason === 'search-unknown';
      expect(v.unresolved, reason).toBe(expected);
      expect(show(v.statusText), reason).toBe(expected ? 'Unresolved (not proven complete)' : 'Still crowded at closest zoom');
      const places = v.facts.find((f) => f.name === 'placesHere');
      expect(places && show(places.value)).toBe('118 (may be incomplete)');
    }
    // Not saturated: never unresolved, whatever the reason says.
    expect(isUnresolved({ status: 'done', result: { reason: 'view-not-covering' } })).toBe(false);
    expect(isUnresolved({ status: 'saturated', result: null })).toBe(false);
    expect(cellVerdict(makeCell('s', 'r0c0', { status: 'done', result: result('end-of-list') })).facts.some((f) => f.name === 'placesHere')).toBe(false);
  });

  it('lists results, new places, attempts and the last error, every key translated', () => {
    const cell = makeCell('s', 'r0c0', {
      status: 'quarantined',
      attempts: 3,
      result: null,
      lastError: { kind: 'http', message: 'status 500', at: 99 },
    });
    const v = cellVerdict(cell);
    expect(v.facts.map((f) => [f.name, show(f.label), show(f.value)])).toEqual([
      ['attempts', 'Attempts', '3'],
      ['lastError', 'Last error', 'HTTP error: status 500 (@99)'],
    ]);
    const done = cellVerdict(makeCell('s', 'r0c0', { status: 'done', attempts: 1, result: result('end-of-list', 40) }));
    expect(done.facts.map((f) => [f.name, show(f.value)])).toEqual([
      ['organic', '40'],
      ['newListings', '7'],
      ['attempts', '1'],
    ]);
    for (const kind of ['timeout', 'http', 'navigation', 'blocked', 'consent', 'extractor', 'limited', 'internal'] as const) {
      for (const status of ['pending', 'done', 'saturated', 'quarantined', 'outside', 'split', 'leased'] as const) {
        const view = cellVerdict(makeCell('s', 'r', { status, result: result('min-size'), lastError: { kind, message: 'm', at: 1 } }));
        const keys = [view.statusText, view.reasonText, ...view.facts.flatMap((f) => [f.label, f.value])].flatMap(keysOf);
        expect(
          keys.filter((k) => !(k in MESSAGES)),
          `${kind}/${status}`,
        ).toEqual([]);
      }
    }
  });
});

describe('the verdict panel', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows page text as text: an error message holding HTML creates no element', async () => {
    const messages = JSON.parse(readFileSync(path.resolve(__dirname, '../../public/_locales/en/messages.json'), 'utf8')) as Record<string, { message: string }>;
    vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(((key: string, subs?: string[]) =>
      (messages[key]?.message ?? '').replace(/\$(\d)/g, (_, n) => subs?.[Number(n) - 1] ?? '')) as never);
    vi.spyOn(fakeBrowser.i18n, 'getUILanguage').mockReturnValue('en-US');
    const host = document.createElement('div');
    document.body.append(host);
    const cell = makeCell('s', 'r0c0', {
      status: 'saturated',
      attempts: 2,
      result: result('zoomed-out-capped', 1200),
      lastError: { kind: 'timeout', message: '<img src=x onerror="alert(1)">', at: 0 },
    });
    await act(() => {
      render(h(CellVerdict, { cell, pinned: true }), host);
    });
    expect(host.querySelector('img')).toBeNull();
    const fact = (name: string) => host.querySelector(`[data-fact="${name}"]`)!.textContent;
    expect(fact('lastError')).toContain('<img src=x onerror="alert(1)">');
    expect(fact('status')).toBe('Unresolved (not proven complete)');
    expect(fact('reason')).toMatch(/zoomed out by itself/);
    expect(fact('placesHere')).toBe('1,200 (may be incomplete)');
    expect(host.querySelector('aside')!.className).toContain('unresolved');
    render(null, host);
    host.remove();
  });
});

describe('which cell is under a point', () => {
  // A 2×2 grid at the equator; the south-east cell split in four, its children listed first.
  const se = gridCell(1, 1);
  const quarter = (r: number, c: number) => gridCell(r, c, 0.5, se.south, se.west);
  const cells = [
    { id: 'se.0', bbox: quarter(0, 0), status: 'done', depth: 1 },
    { id: 'se.1', bbox: quarter(0, 1), status: 'saturated', depth: 1 },
    { id: 'se.2', bbox: quarter(1, 0), status: 'pending', depth: 1 },
    { id: 'se.3', bbox: quarter(1, 1), status: 'outside', depth: 1 },
    { id: 'nw', bbox: gridCell(0, 0), status: 'done', depth: 0 },
    { id: 'ne', bbox: gridCell(0, 1), status: 'quarantined', depth: 0 },
    { id: 'sw', bbox: gridCell(1, 0), status: 'done', depth: 0 },
    { id: 'se', bbox: se, status: 'split', depth: 0 },
  ] as const satisfies readonly (CoverageCell & { id: string })[];
  const size = { width: 300, height: 200 };
  const projection = fitProjection({ south: -1, west: -1, north: 1, east: 1 }, size, 12);

  it('finds the cell whose rectangle holds the point, the child rather than its split parent', () => {
    for (const cell of cells) {
      if (cell.status === 'split') continue;
      const b = cell.bbox;
      const c = projection.point({ lat: (b.south + b.north) / 2, lng: (b.west + b.east) / 2 });
      expect(cellAt(cells, projection, c)?.id, cell.id).toBe(cell.id);
    }
  });

  it('answers null off the cells, and gives a point on a shared edge to exactly one neighbour', () => {
    expect(cellAt(cells, projection, { x: 1, y: 1 })).toBeNull();
    expect(cellAt(cells, projection, { x: size.width / 2, y: -5 })).toBeNull();
    expect(cellAt([], projection, { x: 150, y: 100 })).toBeNull();
    // The centre of the area is the corner of four cells: it belongs to the one right and below.
    const mid = projection.point({ lat: 0, lng: 0 });
    expect(cellAt(cells, projection, { x: Math.round(mid.x), y: Math.round(mid.y) })?.id).toBe('se.0');
  });

  it('agrees with the drawing for random points (seeded): the hit cell’s snapped rectangle holds the point', () => {
    const rng = createRng(3);
    for (let i = 0; i < 500; i++) {
      const p = { x: rng.next() * size.width, y: rng.next() * size.height };
      const hit = cellAt(cells, projection, p);
      if (!hit) continue;
      const r = projection.rect(hit.bbox);
      expect(p.x).toBeGreaterThanOrEqual(Math.round(r.x));
      expect(p.x).toBeLessThan(Math.round(r.x + r.w));
      expect(p.y).toBeGreaterThanOrEqual(Math.round(r.y));
      expect(p.y).toBeLessThan(Math.round(r.y + r.h));
      expect(hit.status).not.toBe('split');
    }
  });

  it('still answers for a split cell whose children are not there', () => {
    const c = projection.point({ lat: -0.5, lng: 0.5 });
    expect(cellAt([{ id: 'se', bbox: se, status: 'split', depth: 0 }], projection, c)?.id).toBe('se');
  });
});

describe('hatching unresolved cells', () => {
  it('cuts diagonal lines to the rectangle, every spacing pixels', () => {
    const rect = { x: 10, y: 20, w: 30, h: 12 };
    const segments = hatchSegments(rect, 6);
    // k runs over (x0 + y0, x1 + y1) = (30, 72) in steps of 6: 36, 42, 48, 54, 60, 66.
    expect(segments.map(([a]) => a.x + a.y)).toEqual([36, 42, 48, 54, 60, 66]);
    // The first is cut by the left and top edges: from (10, 26) to (16, 20).
    expect(segments[0]).toEqual([
      { x: 10, y: 26 },
      { x: 16, y: 20 },
    ]);
    for (const [a, b] of segments) {
      for (const p of [a, b]) {
        expect(p.x).toBeGreaterThanOrEqual(rect.x);
        expect(p.x).toBeLessThanOrEqual(rect.x + rect.w);
        expect(p.y).toBeGreaterThanOrEqual(rect.y);
        expect(p.y).toBeLessThanOrEqual(rect.y + rect.h);
      }
      expect(a.x + a.y).toBeCloseTo(b.x + b.y, 9); // on one "/" line
      // Each end touches the rectangle's border.
      const onEdge = (p: { x: number; y: number }) =>
        [p.x - rect.x, rect.x + rect.w - p.x, p.y - rect.y, rect.y + rect.h - p.y].some((d) => Math.abs(d) < 1e-9);
      expect(onEdge(a) && onEdge(b)).toBe(true);
    }
    expect(hatchSegments({ x: 0, y: 0, w: 0, h: 10 }, 6)).toEqual([]);
  });

  it('strokes stripes over unresolved saturated cells only, and keeps their saturated fill', () => {
    const fills: { colour: string; rect: number[] }[] = [];
    const strokes: { colour: string; lines: number }[] = [];
    let lines = 0;
    const ctx: { fillStyle: unknown; strokeStyle: unknown; lineWidth: number; [k: string]: unknown } = {
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      fillRect(x: number, y: number, w: number, hh: number) {
        fills.push({ colour: String(ctx.fillStyle), rect: [x, y, w, hh] });
      },
      strokeRect() {},
      beginPath() {
        lines = 0;
      },
      moveTo() {},
      lineTo() {
        lines += 1;
      },
      closePath() {},
      stroke() {
        strokes.push({ colour: String(ctx.strokeStyle), lines });
      },
    };
    const area = { kind: 'bbox' as const, bbox: { south: 0, west: 0, north: 1, east: 3 } };
    const cellsDrawn: CoverageCell[] = [
      { bbox: { south: 0, west: 0, north: 1, east: 1 }, status: 'saturated', depth: 0, result: { reason: 'min-size' } },
      { bbox: { south: 0, west: 1, north: 1, east: 2 }, status: 'saturated', depth: 0, result: { reason: 'view-not-covering' } },
      { bbox: { south: 0, west: 2, north: 1, east: 3 }, status: 'done', depth: 0, result: { reason: 'view-not-covering' } },
    ];
    const size = { width: 300, height: 100 };
    drawCoverage(ctx as unknown as CoverageContext, { size, cells: cellsDrawn, places: [], area }, fitProjection(area.bbox, size));
    const saturatedFills = fills.filter((f) => f.colour === STATUS_COLOURS.saturated);
    expect(saturatedFills).toHaveLength(2);
    expect(strokes).toHaveLength(1);
    expect(strokes[0]!.colour).toBe(UNRESOLVED_HATCH);
    expect(strokes[0]!.lines).toBeGreaterThan(10);
  });
});

describe('dense areas on the coverage map', () => {
  it('outlines each area over the cells, a tiny one grown to stay visible', () => {
    const strokes: { colour: string; rect: number[] }[] = [];
    const ctx: { fillStyle: unknown; strokeStyle: unknown; lineWidth: number; [k: string]: unknown } = {
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      fillRect() {},
      strokeRect(x: number, y: number, w: number, hh: number) {
        strokes.push({ colour: String(ctx.strokeStyle), rect: [x, y, w, hh] });
      },
      beginPath() {},
      moveTo() {},
      lineTo() {},
      closePath() {},
      stroke() {},
    };
    const area = { kind: 'bbox' as const, bbox: { south: 0, west: 0, north: 1, east: 3 } };
    const size = { width: 300, height: 100 };
    const denseAreas = [{ bbox: { south: 0, west: 1, north: 1, east: 2 } }, { bbox: { south: 0.5, west: 2.5, north: 0.5001, east: 2.5001 } }];
    drawCoverage(ctx as unknown as CoverageContext, { size, cells: [], places: [], area, denseAreas }, fitProjection(area.bbox, size));
    const outlines = strokes.filter((s) => s.colour === DENSE_AREA_OUTLINE);
    expect(outlines).toHaveLength(2);
    const [big, tiny] = outlines;
    expect(big!.rect[2]).toBeGreaterThan(90); // a third of the 300 px map, and a pixel more each side
    expect(tiny!.rect[2]).toBeGreaterThanOrEqual(8);
    expect(tiny!.rect[3]).toBeGreaterThanOrEqual(8);
  });
});

describe('what the popup calls incomplete', () => {
  // Two touching 0.001° cells of one crowd, and one far away; each crowded search listed 120.
  const at = (id: string, status: Cell['status'], reason: CellDecisionReason | undefined, south: number, west: number) => ({
    id,
    status,
    bbox: { south, west, north: south + 0.001, east: west + 0.001 },
    result: result(reason, 120),
  });
  const cells = [
    at('a', 'saturated', 'min-size', 37.511, 127.059),
    at('b', 'saturated', 'zoomed-out-capped', 37.511, 127.06), // shares a's east edge
    at('c', 'saturated', undefined, 37.6, 127.2), // older version: saturated, not known unresolved
    at('d', 'done', 'end-of-list', 37.512, 127.059),
  ];
  const place = (key: string, lat: number | null, lng: number | null, listedBy: string[] = []) => ({ key, lat, lng, cells: listedBy });

  it('counts distinct places on the saturated ground, not the results their searches listed', () => {
    const places = [
      place('p1', 37.5115, 127.0595, ['a', 'b']),
      place('p2', 37.5115, 127.0605, ['a', 'b', 'd']),
      place('p2', 37.5115, 127.0605), // the same key again: counted once
      place('p3', 37.5125, 127.0595, ['a']), // listed by a, but on d's proven ground
      place('p4', null, null, ['b']), // no coordinates: its listing cell places it
      place('p5', 37.6005, 127.2005),
    ];
    const c = incompleteCoverage(cells, places)!;
    expect(c.saturated).toBe(3);
    expect(c.unresolved).toBe(1);
    // The old sum of listed results would say 360 (3 × 120).
    expect(c.places).toBe(4);
    expect(c.areas.map((a) => [a.cells, a.unresolved, a.places])).toEqual([
      [2, 1, 3],
      [1, 0, 1],
    ]);
    expect(incompleteCoverage(cells.slice(3), places)).toBeNull();
    expect(incompleteCoverage([], [])).toBeNull();
  });
});

describe('the popup’s health line for a sweep with saturated cells', () => {
  const data = (overrides: Partial<HealthData> = {}): HealthData => ({
    now: 10_000_000,
    since: 0,
    errors: [],
    coverage: summariseAudits([]),
    pageChanged: null,
    lastNewPlaceAt: null,
    searches: [],
    ...overrides,
  });

  it('says how many cells and places are not proven instead of "ok"', () => {
    expect(renderText(healthLine(data()).text, en, time)).toBe('Health: ok · last new place never · 0 errors in 24 h');
    const both = healthLine(data(), { saturated: 3, unresolved: 1, places: 240, areas: [] });
    expect(both.state).toBe('needs-a-look');
    expect(renderText(both.text, en, time)).toBe(
      'Health: 3 cells saturated, 1 of them unresolved: 240 places found in them may be incomplete · last new place never · 0 errors in 24 h',
    );
    expect(renderText(both.text, ko, time)).toContain('미확인 1개');
    const crowdedOnly = healthLine(data(), { saturated: 2, unresolved: 0, places: 240, areas: [] });
    expect(renderText(crowdedOnly.text, en, time)).toMatch(/^Health: 2 cells saturated: 240 places found in them may be incomplete · /);
  });

  it('keeps "the map page changed" first, and adds the gaps to "needs a look"', () => {
    const changed = healthLine(data({ pageChanged: { sweepId: 's', at: 1, message: '' } }), { saturated: 3, unresolved: 1, places: 9, areas: [] });
    expect(changed.state).toBe('page-changed');
    expect(renderText(changed.text, en, time)).toMatch(/^Health: the map page changed · /);
  });
});
