/**
 * A Google sweep in real Chromium when the site fights back: a captcha (a pause with a visible
 * message, nothing loaded until Resume), 10% HTTP 500s and slow pages (finished anyway), and a
 * search that always fails (quarantined with its reason).
 *
 * Budget: 160 s (alone on 2 cores; measured 125 s).
 */
import { describe, expect, it } from 'vitest';
import type { WxtBrowser } from 'wxt/browser';
import { exportCsvFromPopup, resumeFromPopup, startSweepFromPopup, waitForSweep, TEST_SETTINGS } from './extension';
import { googleSweepSuite, SMALL } from './google-suite';

const suite = googleSweepSuite();

describe('a sweep in real Chromium when the site fails', () => {
  it('pauses at a captcha with a visible message, loads nothing until Resume, then finishes', async () => {
    suite.replica.setSwitches({ captchaAfter: 20 });
    const b = await suite.browser();
    await suite.openMapTab(b);
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe', area: SMALL });
    const paused = await waitForSweep(popup, (s) => s.status === 'paused' && s.pauseReason === 'captcha', 'the captcha pause', 120_000);
    expect(paused.problem?.kind).toBe('blocked');
    // The popup re-reads the store every second.
    await popup
      .getByText(/prove you are not a robot/)
      .first()
      .waitFor({ timeout: 5000 });
    const sw = b.context.serviceWorkers()[0]!;
    expect(await sw.evaluate(() => (globalThis as unknown as { chrome: WxtBrowser }).chrome.action.getBadgeText({}))).toBe('!');
    const loads = suite.replica.pageLoads();
    await new Promise((r) => setTimeout(r, 6000));
    expect(suite.replica.pageLoads()).toBe(loads);
    suite.replica.solveCaptcha();
    suite.replica.setSwitches({ captchaAfter: null });
    await resumeFromPopup(popup);
    const done = await waitForSweep(popup, (s) => s.status === 'finished', 'the sweep to finish after Resume');
    console.log(`captcha after ${loads} page loads; no load for 6 s while paused; finished with ${done.counters.listingsNew} places`);
  });

  it('finishes through 10% HTTP 500s and slow pages; a cell that always fails ends quarantined with its reason', async () => {
    const truth = suite.truthKeys('cafe', SMALL);
    suite.replica.setSwitches({ error500Rate: 0.1, slowMs: 400, error500Paths: ['/maps/search/pharmacy'] });
    const b = await suite.browser();
    await suite.openMapTab(b);
    const popup = await startSweepFromPopup(b.context, { keywords: 'cafe\npharmacy', area: SMALL }, { ...TEST_SETTINGS, maxAttempts: 2 });
    const done = await waitForSweep(popup, (s) => s.status === 'finished', 'the faulty sweep to finish', 400_000);
    const csv = await exportCsvFromPopup(popup);
    const got = new Set(csv.rows.map((r) => r.cid!));
    expect([...truth].filter((c) => !got.has(c))).toEqual([]);
    expect(done.counters.cellsQuarantined).toBeGreaterThan(0);
    await popup
      .getByText(/Failed repeatedly: \d+ cells/)
      .first()
      .waitFor({ timeout: 5000 });
    await popup
      .getByText(/Cells that failed repeatedly/)
      .first()
      .click();
    expect(await popup.getByText(/pharmacy: The map site answered HTTP 500/).count()).toBeGreaterThan(0);
    console.log(
      `faults: ${done.counters.errors} failed attempts retried, ${done.counters.cellsQuarantined} cells quarantined (pharmacy), all ${truth.size} cafes exported`,
    );
  });
});
