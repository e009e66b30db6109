/**
 * Issue 21 end to end: Naver sweeps in real Chromium (the production build, the Naver replica)
 * under the replica switches where a list does not prove itself the way it used to: a pager of
 * `<button>`s, a search that lists a little less than the box its URL echoes, a lazy batch whose
 * GraphQL request fails, a page turn that lands on the wrong page, ads above an empty list with no
 * notice. Each sweep must end equal to the ground truth, or with what it could not prove reported
 * (cells not done) or stopped with its reason — never a cell done without the places it holds.
 * One browser for every sweep; areas of about 0.5 km² so the file stays within minutes.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseAreaText } from '../../utils/geo';
import type { NaverSwitches } from '../replica/naver/switches';
import { exportCsvFromPopup } from './extension';
import { readCells } from './harness';
import { areaAround, KEYWORD } from './provider-suite';
import { naverSuite } from './naver-suite';

/** About 0.8 × 0.8 km off the centre: some 200 cafés, a few cells, lists of one to three pages. */
const SMALL = areaAround(0.0035, 37.572, 126.985);

const suite = naverSuite();

type Box = { south: number; west: number; north: number; east: number };
type CellRow = { id: string; status: string; bbox: Box; result?: { organic?: number } | null };
const inside = (p: { lat: number; lng: number }, c: Box) => p.lat >= c.south && p.lat <= c.north && p.lng >= c.west && p.lng <= c.east;

/**
 * What the sweep ended with: every truth place it did not export lies in a cell it did not call
 * done (saturated, quarantined, left open by a stop): reported, never silently missing. Nothing
 * outside the truth, nothing twice.
 */
async function expectNothingSilentlyDone(popup: Page, sweepId: string, areaText: string, keyword = KEYWORD): Promise<{ exported: number; truth: number; missing: number; cells: Record<string, number> }> {
  const area = parseAreaText(areaText);
  if (!area.ok) throw new Error(area.error.message);
  const truth = new Map(suite.replica.groundTruth(keyword, area.area.bbox).map((p) => [p.id, { lat: p.place.lat, lng: p.place.lng }]));
  const csv = await exportCsvFromPopup(popup);
  const ids = csv.rows.map((r) => r.provider_id!);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.filter((id) => !truth.has(id))).toEqual([]);
  const cells = ((await readCells(popup)) as CellRow[]).filter((c) => c.id.startsWith(`${sweepId}/`));
  const done = cells.filter((c) => c.status === 'done');
  const open = cells.filter((c) => c.status !== 'done' && c.status !== 'split');
  const got = new Set(ids);
  const missing = [...truth].filter(([id]) => !got.has(id));
  const silent = missing.filter(([, p]) => done.some((c) => inside(p, c.bbox)) && !open.some((c) => inside(p, c.bbox)));
  expect(silent.map(([id]) => id)).toEqual([]);
  const byStatus: Record<string, number> = {};
  for (const c of cells) byStatus[c.status] = (byStatus[c.status] ?? 0) + 1;
  return { exported: ids.length, truth: truth.size, missing: missing.length, cells: byStatus };
}

describe('a Naver sweep proves each cell from the page itself (issue 21)', () => {
  it('a pager of <button>s named for people (renamed classes, no end arrow): the CSV is the truth', async () => {
    suite.resetSwitches({ pagerMarkup: 'buttons', domVariant: 'renamed', endMarker: 'no-next' });
    const { popup, sweep } = await suite.sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the sweep with a button pager');
    expect(sweep.status).toBe('finished');
    const { rows, truth } = await suite.expectCsvIsTruth(popup, sweep.id, SMALL);
    console.log(`naver proof, buttons pager: ${rows.length} of ${truth}, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  for (const [what, switches] of [
    ['a search that lists 5% less of each side than the box it echoes', { searchInset: 0.05 }],
    ['the second lazy batch of every page failing (HTTP 500 to its GraphQL request)', { apolloHolds: 'rendered', lazyFail: 2 }],
    ['a next control that lands two pages on (page 3 after page 1)', { pageTurn: 'skip' }],
  ] as [string, Partial<NaverSwitches>][])
    it(`${what}: the truth, or reported or stopped, never a cell done short`, async () => {
      suite.resetSwitches(switches);
      const { popup, sweep } = await suite.sweepToEnd({ keywords: KEYWORD, area: SMALL }, `the sweep under ${JSON.stringify(switches)}`);
      const r = await expectNothingSilentlyDone(popup, sweep.id, SMALL);
      // A finished sweep with places missing must say where: cells not done.
      if (sweep.status === 'finished' && r.missing > 0) expect((r.cells.quarantined ?? 0) + (r.cells.saturated ?? 0)).toBeGreaterThan(0);
      if (sweep.status === 'failed') expect(sweep.problem?.message ?? '').not.toBe('');
      console.log(`naver proof, ${JSON.stringify(switches)}: ${sweep.status}${sweep.problem ? ` (${sweep.problem.message})` : ''}, ${r.exported} of ${r.truth} exported, ${r.missing} missing, cells ${JSON.stringify(r.cells)}`);
      await popup.close();
    });

  it('ads above an empty list with no notice: an empty cell is never done (with the notice it is)', async () => {
    // No pharmacy within twice this area's size, a few just beyond: the ads the replica shows above an empty list.
    const keyword = '약국';
    const area = areaAround(0.0014, 37.55, 126.988);
    const emptyDone = async (popup: Page, sweepId: string) =>
      ((await readCells(popup)) as CellRow[]).filter((c) => c.id.startsWith(`${sweepId}/`) && c.status === 'done' && (c.result?.organic ?? 0) === 0).length;
    suite.resetSwitches({ emptyPage: 'ads-only' });
    const { popup, sweep } = await suite.sweepToEnd({ keywords: keyword, area }, 'the sweep with ads-only empty pages');
    const r = await expectNothingSilentlyDone(popup, sweep.id, area, keyword);
    expect(r.truth).toBe(0);
    expect(await emptyDone(popup, sweep.id)).toBe(0);
    expect(sweep.status === 'failed' || (r.cells.quarantined ?? 0) > 0).toBe(true);
    console.log(`naver proof, ads-only empty pages: ${sweep.status}${sweep.problem ? ` (${sweep.problem.message})` : ''}, cells ${JSON.stringify(r.cells)}`);
    await popup.close();
    suite.resetSwitches();
    const notice = await suite.sweepToEnd({ keywords: keyword, area }, 'the same with the notice');
    expect(notice.sweep.status).toBe('finished');
    expect(await emptyDone(notice.popup, notice.sweep.id)).toBeGreaterThan(0);
    await notice.popup.close();
  });
});
