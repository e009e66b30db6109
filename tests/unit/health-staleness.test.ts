import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { auditObservation } from '../../utils/domain/audit-page';
import { loadHealth } from '../../utils/health/queries';
import { staleness } from '../../utils/health/staleness';
import { renderText } from '../../utils/i18n/text';
import type { PageAudit } from '../../utils/domain/page-audit';
import { healthLine, healthPanel } from '../../utils/health/view';
import type { Listing } from '../../utils/domain/listing';
import { leaseNextCell } from '../../utils/queue';
import { createSavedSearch } from '../../utils/schedule/saved-searches';
import { createScheduler, SCHEDULE_ALARM } from '../../utils/schedule/scheduler';
import type { Store } from '../../utils/store';
import type { Observation } from '../../utils/domain/sweep';
import { MESSAGES } from '../../scripts/locales';
import { cafe, DAY, MINUTE, restartableStore, SEOUL, searchInput, seoul, sweepStarter } from './schedule-fixtures';
import { resultsObservation } from '../helpers/observations';

const en = (key: string, ...params: (string | number)[]) =>
  (MESSAGES[key]?.[0] ?? `«${key}»`).replace(/\$(\d)/g, (_, i: string) => String(params[Number(i) - 1]));
const time = (at: number) => new Date(at).toISOString();

function resultsPage(listings: Listing[], cardsVisible = listings.length): Observation {
  return resultsObservation({ url: 'https://www.google.com/maps/search/cafe/@37.563,126.98,16z', listings, cardsVisible });
}

const okAudit = (listings: Listing[]): PageAudit => auditObservation(resultsPage(listings));

describe('staleness (pure)', () => {
  const search = { thresholdDays: 10, createdAt: 0, lastNewPlaceAt: 5 * DAY, lastSuccessfulRunAt: 20 * DAY };
  const confirming = { at: 20 * DAY, audit: { ...okAudit([cafe('1'), cafe('2')]), firstKnown: 2 } };

  it('is fresh up to the threshold, a candidate after it', () => {
    expect(staleness({ search, latestAudit: null }, 15 * DAY).state).toBe('fresh');
    expect(staleness({ search, latestAudit: null }, 15 * DAY + 1)).toMatchObject({ state: 'needs-a-look', reason: 'no-audit', candidate: true });
  });

  it('a candidate with a confirming audit is quiet; without one it needs a look', () => {
    expect(staleness({ search, latestAudit: confirming }, 21 * DAY)).toMatchObject({ state: 'quiet', reason: null, quietForMs: 16 * DAY });
    const unconfirmed = { ...confirming, audit: { ...confirming.audit, firstKnown: 1 } };
    expect(staleness({ search, latestAudit: unconfirmed }, 21 * DAY)).toMatchObject({ state: 'needs-a-look', reason: 'audit-unconfirmed' });
    expect(staleness({ search: { ...search, lastSuccessfulRunAt: null }, latestAudit: confirming }, 21 * DAY)).toMatchObject({
      state: 'needs-a-look',
      reason: 'never-finished',
    });
  });

  it('counts from the creation while no new place was ever found', () => {
    expect(staleness({ search: { ...search, lastNewPlaceAt: null }, latestAudit: confirming }, 10 * DAY + 1).state).toBe('quiet');
    expect(staleness({ search: { ...search, lastNewPlaceAt: null }, latestAudit: confirming }, 10 * DAY).state).toBe('fresh');
  });
});

/**
 * A weekly saved search (Sundays 09:00, threshold 10 days) run by the scheduler. Each run's one
 * page is committed as the driver would, with or without the audit the driver is to pass.
 */
async function weeklySearch() {
  const { store } = await restartableStore();
  let clock = seoul(0, 8);
  const starter = sweepStarter(
    () => store,
    () => clock,
  );
  await createSavedSearch(store, searchInput({ repeat: 'weekly', weekday: 0 }), 'ss1', clock);
  const scheduler = createScheduler({ store, alarms: fakeBrowser.alarms, now: () => clock, tzOffset: SEOUL, startSweep: starter.startSweep });

  async function run(day: number, listings: Listing[], page: 'audited' | 'not-audited' | 'changed') {
    clock = seoul(day, 9);
    const report = await scheduler.onAlarm({ name: SCHEDULE_ALARM });
    const sweepId = report!.started[0]!.sweepId;
    const cell = await leaseNextCell(store, { sweepId, holder: 'tab:1', now: clock + MINUTE, leaseMs: 60_000 });
    if (!cell) throw new Error('no cell');
    if (page === 'changed') {
      // The driver's extractor path: the page's audit is logged, the sweep stops.
      const audit = auditObservation(resultsPage([], 20));
      await store.addEvent({ sweepId, at: clock + 2 * MINUTE, kind: 'audit', cellId: cell.id, audit, message: 'not readable' });
      await store.patchSweep(sweepId, {
        status: 'failed',
        problem: { kind: 'extractor', message: '20 result cards on screen but none could be read.', at: clock + 2 * MINUTE },
      });
    } else {
      await store.commitCell({
        sweepId,
        cellId: cell.id,
        holder: 'tab:1',
        now: clock + 2 * MINUTE,
        keyword: cell.keyword,
        listings,
        outcome: { status: 'done', result: { organic: listings.length, newListings: 0, endOfList: true, capHit: false, zoomedOut: false, insideShare: 1 } },
        ...(page === 'audited' && { audit: okAudit(listings), url: resultsPage(listings).url }),
      });
      await store.patchSweep(sweepId, { status: 'finished' });
    }
    clock = seoul(day, 9, 30);
    await scheduler.onSweepEnded();
  }
  return { store: store as Store, run };
}

const five = ['1', '2', '3', '4', '5'].map((c) => cafe(c));

describe('staleness from the store, with fake time: quiet vs needs a look', () => {
  it('no new place for 14 days, the latest audit found the first results all stored → quiet', async () => {
    const { store, run } = await weeklySearch();
    await run(0, five, 'audited');
    await run(7, five, 'audited');
    expect((await loadHealth(store, seoul(7, 10), SEOUL)).searches[0]!.staleness.state).toBe('fresh');
    await run(14, five, 'audited');

    const data = await loadHealth(store, seoul(14, 10), SEOUL);
    const s = data.searches[0]!;
    expect(s.staleness).toMatchObject({ state: 'quiet', candidate: true, lastNewPlaceAt: seoul(0, 9, 30), lastSuccessfulRunAt: seoul(14, 9, 30) });
    expect(s.latestAudit?.audit).toMatchObject({ firstKnown: 5, firstKeys: five.map((l) => l.key) });
    const panel = healthPanel(data);
    expect(panel.state).toBe('ok');
    expect(renderText(panel.searches[0]!.stalenessText, en, time)).toBe(
      'Quiet: no new place for 14 days, and the latest check found the first results all stored already.',
    );
    expect(renderText(panel.searches[0]!.scheduleText, en, time)).toBe(`Last run 1 h ago; next ${time(seoul(21, 9))}.`);
    expect(renderText(panel.coverage.text, en, time)).toBe('Last page checked 58 min ago: 5 cards visible, 5 read, no page data seen.');
    expect(renderText(healthLine(data).text, en, time)).toBe('Health: ok · last new place 14 days ago · 0 errors in 24 h');
    expect(panel.searches[0]!.runs.map((r) => renderText(r.changesText!, en, time))).toEqual([
      '0 new · 0 not seen any more · 0 changed',
      '0 new · 0 not seen any more · 0 changed',
      'First run: 5 places',
    ]);
  });

  it('the same silence without an audit → needs a look', async () => {
    const { store, run } = await weeklySearch();
    await run(0, five, 'not-audited');
    await run(7, five, 'not-audited');
    await run(14, five, 'not-audited');
    const data = await loadHealth(store, seoul(14, 10), SEOUL);
    expect(data.searches[0]!.staleness).toMatchObject({ state: 'needs-a-look', reason: 'no-audit' });
    const panel = healthPanel(data);
    expect(panel.state).toBe('needs-a-look');
    expect(renderText(panel.searches[0]!.stalenessText, en, time)).toBe(
      'Needs a look: no new place for 14 days, and no page check confirms it is really quiet.',
    );
    expect(renderText(healthLine(data).text, en, time)).toBe('Health: needs a look · last new place 14 days ago · 0 errors in 24 h');
  });

  it('silence because the page changed → needs a look, and the page-changed state wins', async () => {
    const { store, run } = await weeklySearch();
    await run(0, five, 'audited');
    await run(7, five, 'audited');
    await run(14, [], 'changed');
    const data = await loadHealth(store, seoul(14, 10), SEOUL);
    expect(data.searches[0]!.staleness).toMatchObject({ state: 'needs-a-look', reason: 'audit-unconfirmed' });
    expect(data.searches[0]!.runs[0]).toMatchObject({ status: 'failed', error: { code: 'page-changed' } });
    const panel = healthPanel(data);
    expect(panel.state).toBe('page-changed');
    expect(renderText(panel.coverage.text, en, time)).toBe(
      'The map page changed 58 min ago: cards are visible but cannot be read. The sweep stopped; nothing stored was changed.',
    );
  });

  it('a new place ends the silence', async () => {
    const { store, run } = await weeklySearch();
    await run(0, five, 'audited');
    await run(7, five, 'audited');
    await run(14, [...five, cafe('6')], 'audited');
    const s = (await loadHealth(store, seoul(14, 10), SEOUL)).searches[0]!;
    expect(s.staleness).toMatchObject({ state: 'fresh', lastNewPlaceAt: seoul(14, 9, 30) });
    expect(s.runs[0]?.changes).toMatchObject({ added: 1, gone: 0, changed: 0 });
    expect(s.latestAudit?.audit).toMatchObject({ firstKnown: 5 });
  });
});
