/**
 * Issue 21 end to end: Naver sweeps in real Chromium (the production build, the Naver replica)
 * under the replica switches where a list does not prove itself the way it used to: a pager of
 * `<button>`s, a search that lists a little less than the box its URL echoes, a lazy batch whose
 * GraphQL request fails. Each sweep must end equal to the ground truth, or with what it could not
 * prove reported (cells not done) or stopped with its reason — never a cell done without the
 * places it holds. A page turn that lands on the wrong page and ads above an empty list are
 * naver-proof-pages.test.ts. One browser for every sweep; areas of about 0.5 km².
 *
 * Budget: 120 s (alone on 2 cores; measured 93 s).
 */
import { describe, expect, it } from 'vitest';
import type { NaverSwitches } from '../replica/naver/switches';
import { KEYWORD } from './provider-suite';
import { expectNothingSilentlyDone, naverSuite, SMALL } from './naver-suite';

const suite = naverSuite();

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
  ] as [string, Partial<NaverSwitches>][])
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
});
