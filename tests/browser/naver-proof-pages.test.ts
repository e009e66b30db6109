/**
 * Issue 21 end to end, the list's pages: a page turn that lands on the wrong page (page 3 after
 * page 1), and sponsored cards above an empty list with no notice. Each sweep ends equal to the
 * ground truth, or with what it could not prove reported or stopped with its reason — never a
 * cell done short, never an empty cell done on ads alone. One browser for every sweep.
 *
 * Budget: 120 s (alone on 2 cores; measured 93 s).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { NaverSwitches } from '../replica/naver/switches';
import { readCells } from './harness';
import { areaAround, KEYWORD } from './provider-suite';
import { type CellRow, expectNothingSilentlyDone, naverSuite, SMALL } from './naver-suite';

const suite = naverSuite();

describe("a Naver sweep proves each cell from the list's own pages (issue 21)", () => {
  for (const [what, switches] of [['a next control that lands two pages on (page 3 after page 1)', { pageTurn: 'skip' }]] as [string, Partial<NaverSwitches>][])
    it(`${what}: the truth, or reported or stopped, never a cell done short`, async () => {
      suite.resetSwitches(switches);
      const { popup, sweep } = await suite.sweepToEnd({ keywords: KEYWORD, area: SMALL }, `the sweep under ${JSON.stringify(switches)}`);
      const r = await expectNothingSilentlyDone(suite, popup, sweep.id, SMALL);
      // A finished sweep with places missing must say where: cells not done.
      if (sweep.status === 'finished' && r.missing > 0) expect((r.cells.quarantined ?? 0) + (r.cells.saturated ?? 0)).toBeGreaterThan(0);
      if (sweep.status === 'failed') expect(sweep.problem?.message ?? '').not.toBe('');
      console.log(
        `naver proof, ${JSON.stringify(switches)}: ${sweep.status}${sweep.problem ? ` (${sweep.problem.message})` : ''}, ${r.exported} of ${r.truth} exported, ${r.missing} missing, cells ${JSON.stringify(r.cells)}`,
      );
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
    const r = await expectNothingSilentlyDone(suite, popup, sweep.id, area, keyword);
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
