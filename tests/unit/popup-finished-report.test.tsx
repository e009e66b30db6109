// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Popup } from '../../components/Popup';
import { loadIncompleteCoverage } from '../../utils/dashboard/incomplete';
import { onMessage } from '../../utils/messaging/protocol';
import { openStore } from '../../utils/store';
import { useEnglishMessages } from '../helpers/english-messages';
import { AREA, mallWorld } from '../helpers/mall-world';
import { simSweep } from '../helpers/sim-sweep';

describe('the popup of a finished sweep that missed something', () => {
  const host = document.createElement('div');
  afterEach(() => {
    render(null, host);
    vi.restoreAllMocks();
  });

  it('leads with the failed cells and Retry, then the dense areas, above "Finished"', async () => {
    useEnglishMessages();
    const store = await openStore();
    // One attempt per cell and a fifth of the page loads failing: some cells end quarantined.
    const { sweep } = await simSweep({
      store,
      world: mallWorld(7, 40, 400),
      areaText: AREA,
      keywordsText: 'cafe',
      switches: { signedIn: true, sparseZoomOut: true },
      settings: { maxAttempts: 1 },
      sim: { errorRate: 0.2 },
      seed: 3,
    });
    expect(sweep.status).toBe('finished');
    expect(sweep.counters.cellsQuarantined).toBeGreaterThan(0);
    expect(sweep.counters.cellsSaturated).toBeGreaterThan(0);
    // The background's side of Retry: what the button asks for.
    const retried: string[] = [];
    const stop = onMessage('retryFailed', ({ data }) => {
      retried.push(data);
      return { ok: true as const, cells: 1 };
    });
    document.body.append(host);
    await act(() => {
      render(h(Popup, {}), host);
    });
    // Until the popup has read the store and the report its areas.
    for (let i = 0; i < 100 && !host.querySelector('[data-testid=dense-areas]'); i++) await act(() => new Promise<void>((r) => setTimeout(r, 50)));
    const report = host.querySelector('[data-testid=finished-report]');
    if (!report) throw new Error(host.innerHTML.slice(0, 1500));
    expect(report).not.toBeNull();
    const failed = report!.querySelector('[data-testid=finished-failed]')!;
    expect(failed.getAttribute('role')).toBe('alert');
    expect(failed.textContent).toContain(`${sweep.counters.cellsQuarantined} cells failed and were never searched`);
    const retry = failed.querySelector('button')!;
    expect(retry.textContent).toBe('Retry failed');
    // Above the success text: the report comes before "Finished" and the count in the page.
    const state = [...host.querySelectorAll('.state')].find((e) => e.textContent?.startsWith('Finished'))!;
    expect(report!.compareDocumentPosition(state) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const expected = (await loadIncompleteCoverage(store, sweep.id))!;
    const lines = [...report!.querySelectorAll('[data-testid=dense-areas] li')].map((e) => e.textContent ?? '');
    const [first] = expected.areas;
    if (expected.areas.length === 1) {
      expect(lines).toEqual([
        expect.stringMatching(
          /^1 area of about \d+ × \d+ m near 37\.51\d\d, 127\.0\d{3} (is too dense for the map’s closest zoom|could not be proven complete): \d+ places found there$/,
        ),
      ]);
    } else {
      expect(lines[0]).toBe(
        `${expected.areas.length} areas are too dense for the map’s closest zoom or could not be proven complete: ${expected.places} places found there`,
      );
      expect(lines[1]).toBe(
        `About ${Math.max(10, Math.round(first!.widthM / 10) * 10)} × ${Math.max(10, Math.round(first!.heightM / 10) * 10)} m near ${first!.centre.lat.toFixed(4)}, ${first!.centre.lng.toFixed(4)}: ${first!.places} places`,
      );
    }

    await act(async () => {
      retry.click();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(retried).toEqual([sweep.id]);
    stop();
    store.close();
    // A whole in-process sweep (about 40 searches) and the popup reading it back: its work, not a
    // timing premise; 30 s leaves a busy 2-core machine room (it takes 2–5 s here).
  }, 30_000);
});
