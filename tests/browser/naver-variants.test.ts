/**
 * Naver Map in real Chromium under the page behaviours the notes leave open (each a replica
 * switch; the same build, no setting changed): the box spilling over, the pager without its end
 * arrow, renamed classes, a state of rendered items only; the box ignored (the sweep stops with
 * its reason); the block page (a pause that loads nothing until Resume).
 *
 * Budget: 130 s (alone on 2 cores; measured 105 s).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BOX_IGNORED_MESSAGE } from '../../utils/sweep/bounds-proof';
import { KEYWORD } from './provider-suite';
import { DISTRICT, expectCsvWithBomIsTruth, naverSuite, SMALL } from './naver-suite';

const suite = naverSuite();
const { resetSwitches, sweepToEnd } = suite;
const expectCsvIsTruth = (popup: Page, sweepId: string, areaText: string) => expectCsvWithBomIsTruth(suite, popup, sweepId, areaText);

describe('a Naver sweep in real Chromium, under the page behaviours the notes leave open', () => {
  it('passes unchanged when the box spills over, the pager hides its end arrow, classes are renamed and the state holds only rendered items', async () => {
    resetSwitches({ boundsMode: 'spill', endMarker: 'no-next', domVariant: 'renamed', apolloHolds: 'rendered', pagerWindow: 3 });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Naver sweep under other switches');
    expect(sweep.status).toBe('finished');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, SMALL);
    console.log(`naver small, spill/no-next/renamed/rendered: ${rows.length} of ${truth}, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  it('stops with its reason, never "Finished", when Naver ignores the box', async () => {
    resetSwitches({ boundsMode: 'ignored' });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the sweep to stop');
    expect(sweep.status).toBe('failed');
    expect(sweep.problem?.message).toBe(BOX_IGNORED_MESSAGE);
    await popup
      .getByText(/no longer restricts its list to the box/)
      .first()
      .waitFor({ timeout: 10_000 });
    await popup.close();
  });

  it('pauses at the block page with a visible message, loads nothing until Resume, then finishes', async () => {
    resetSwitches({ blockAfter: 6 });
    const { popup, sweep: paused } = await sweepToEnd({ keywords: '약국', area: DISTRICT }, 'the block pause');
    expect(paused.pauseReason).toBe('captcha');
    expect(paused.problem?.kind).toBe('blocked');
    const loads = suite.replica.requests.length;
    await new Promise((r) => setTimeout(r, 5000));
    const after = suite.replica.requests.slice(loads).filter((r) => r.kind === 'page');
    // The tab the person has open may reload its own list; the sweep's worker tab loads nothing.
    expect(after.map((r) => `${r.host}${r.path}`)).toEqual([]);
    await suite.resumeAfterBlock(popup, paused.id);
    await popup.close();
  });
});
