/**
 * Kakao Map in real Chromium under the page behaviours the notes leave open (each a replica
 * switch; the same build, no setting changed): the rect searched less than asked, fetch instead
 * of XHR, a wide panel, drifted field names, the older map.daum by JSONP, "현 지도 내 장소검색" in
 * other markup, a script forging the answers' coordinates, the block page.
 *
 * Budget: 150 s (alone on 2 cores; measured 115 s).
 */
import { describe, expect, it } from 'vitest';
import { exportCsvFromPopup } from './extension';
import { DISTRICT, kakaoSuite, SMALL, truthOf } from './kakao-suite';
import { KEYWORD } from './provider-suite';

const suite = kakaoSuite();
const { resetSwitches, sweepToEnd, expectCsvIsTruth } = suite;

describe('a Kakao sweep in real Chromium, under the page behaviours the notes leave open', () => {
  it('passes unchanged with the rect searched 5% less a side, fetch instead of XHR, a wide panel, drifted field names and the control, a toggle button, ticked already', async () => {
    resetSwitches({
      rectMode: 'inset',
      transport: 'fetch',
      panelWidth: 460,
      fieldDrift: true,
      boundsSearchDefault: true,
      boundsMarkup: 'toggle-button',
      moreLandsOn: 1,
    });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Kakao sweep under other switches');
    expect(sweep.status).toBe('finished');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, SMALL);
    console.log(`kakao small, inset/fetch/460px/drift/toggle-button: ${rows.length} of ${truth}, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  it('passes unchanged on the older map.daum by JSONP, "현 지도 내 장소검색" a checkbox of another id', async () => {
    resetSwitches({ endpoint: 'map.daum', transport: 'jsonp', boundsMarkup: 'checkbox' });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Kakao sweep on map.daum');
    expect(sweep.status).toBe('finished');
    const { rows, truth } = await expectCsvIsTruth(popup, sweep.id, SMALL);
    console.log(`kakao small, map.daum/jsonp/checkbox: ${rows.length} of ${truth}, cells ${JSON.stringify(sweep.counters)}`);
    await popup.close();
  });

  it("a script forging the answers' coordinates drops no place and stops nothing: every place of the truth exported, no coordinate moved", async () => {
    resetSwitches({ forged: 'coords' });
    const { popup, sweep } = await sweepToEnd({ keywords: KEYWORD, area: SMALL }, 'the Kakao sweep under forged coordinates');
    expect(sweep.status).toBe('finished');
    const truth = truthOf(suite.replica, SMALL);
    const { rows } = await exportCsvFromPopup(popup);
    const got = new Set(rows.map((r) => r.provider_id));
    expect([...truth.keys()].filter((id) => !got.has(id))).toEqual([]);
    // Coordinates the copies disputed are left out, never taken: a place without them cannot be cut
    // to the area, so places of the searched box beyond it are kept too (more, never fewer).
    const at = (id: string) => suite.replica.kakao.byConfirmId.get(id);
    const moved = rows.filter(
      (r) =>
        r.lat && (!at(r.provider_id!) || Math.abs(Number(r.lat) - at(r.provider_id!)!.lat) > 1e-5 || Math.abs(Number(r.lng) - at(r.provider_id!)!.lng) > 1e-5),
    );
    expect(moved.map((r) => [r.provider_id, r.lat, r.lng])).toEqual([]);
    console.log(
      `kakao small, forged coords: ${[...truth.keys()].filter((id) => got.has(id)).length} of ${truth.size}, ${rows.length} rows, cells ${JSON.stringify(sweep.counters)}`,
    );
    await popup.close();
  });

  it('pauses at the block page with a visible message, then finishes after Resume', async () => {
    resetSwitches({ blockAfter: 8 });
    const { popup, sweep: paused } = await sweepToEnd({ keywords: '약국', area: DISTRICT }, 'the block pause');
    expect(paused.status).toBe('paused');
    expect(paused.pauseReason).toBe('captcha');
    await popup
      .getByText(/prove you are not a robot, or is limiting access/)
      .first()
      .waitFor({ timeout: 10_000 });
    await suite.resumeAfterBlock(popup, paused.id);
    await popup.close();
  });
});
