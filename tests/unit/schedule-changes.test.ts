import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseAreaText } from '../../utils/geo';
import { diffPlaces, fieldsHash, trackedFields } from '../../utils/schedule/changes';
import { CHANGE_COLUMNS, changesCsv } from '../../utils/schedule/changes-csv';
import { listChanges, listRuns } from '../../utils/schedule/runs';
import { createSavedSearch, getSavedSearch } from '../../utils/schedule/saved-searches';
import { createScheduler, SCHEDULE_ALARM } from '../../utils/schedule/scheduler';
import type { PlaceSnapshot } from '../../utils/domain/saved-search';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { groundTruth } from '../replica/search';
import { worldFromSpecs, type PlaceSpec, type ReplicaPhone } from '../replica/world';
import { simSweep } from '../helpers/sim-sweep';
import { AREA, cafe, restartableStore, SEOUL, searchInput, seoul, sweepStarter } from './schedule-fixtures';

function snapshot(key: string, fields: PlaceSnapshot['fields']): PlaceSnapshot {
  return { savedSearchId: 'ss', key, hash: fieldsHash(fields), fields, runId: 'r0', seenAt: 0 };
}

describe('diffPlaces (pure)', () => {
  const a = trackedFields(cafe('1'));
  const b = trackedFields(cafe('2'));
  const c = trackedFields(cafe('3'));
  const before = new Map([
    ['google:1', snapshot('google:1', a)],
    ['google:2', snapshot('google:2', b)],
    ['google:3', snapshot('google:3', c)],
  ]);

  it('tells new, gone and changed places apart, field by field', () => {
    const diff = diffPlaces(before, [
      { key: 'google:3', fields: { ...c, rating: 4.6, name: 'Cafe Three' } },
      { key: 'google:1', fields: a },
      { key: 'google:9', fields: trackedFields(cafe('9')) },
    ]);
    expect(diff.added.map((p) => p.key)).toEqual(['google:9']);
    expect(diff.gone.map((p) => p.key)).toEqual(['google:2']);
    expect(diff.changed.map((p) => [p.key, p.diff])).toEqual([
      [
        'google:3',
        [
          { field: 'name', before: 'Cafe 3', after: 'Cafe Three' },
          { field: 'rating', before: 4.2, after: 4.6 },
        ],
      ],
    ]);
    expect(diff.unchanged).toBe(1);
  });

  it('does not call a reformatted phone number or re-wrapped text a change', () => {
    const reformatted = trackedFields({ ...cafe('1'), phone: ' 02 1000 0001 ', address: `  1   Sejong-daero,\nJung District, Seoul` });
    expect(fieldsHash(reformatted)).toBe(fieldsHash(a));
    expect(diffPlaces(before, [{ key: 'google:1', fields: reformatted }]).changed).toEqual([]);
    // A different number is a change.
    expect(fieldsHash(trackedFields({ ...cafe('1'), phone: '02-1000-0002' }))).not.toBe(fieldsHash(a));
  });
});

// ---------------------------------------------------------------------------------------------
// A re-collection against the replica: between two runs, 5 places closed, 7 opened, 3 changed phone.

const phone = (mid: number, last: number): ReplicaPhone => {
  const l = String(last).padStart(4, '0');
  return { display: `02-${mid}-${l}`, international: `+82 2-${mid}-${l}`, digits: `+822${mid}${l}` };
};

/** Places on a 6 × 7 lattice inside the area (37.560–37.566, 126.975–126.985). */
function inside(i: number): { lat: number; lng: number } {
  return { lat: 37.5605 + (i % 6) * 0.001, lng: 126.9755 + Math.floor(i / 6) * 0.0013 };
}

const KEPT = 30;
const CLOSING = 5;
const OPENING = 7;
const CHANGED_PHONE = [2, 11, 23];

function spec(i: number, overrides: Partial<PlaceSpec> = {}): PlaceSpec {
  return {
    name: `Cafe ${i}`,
    category: 'cafe',
    ...inside(i),
    prominence: 0.2 + ((i * 37) % 70) / 100,
    rating: 4 + (i % 10) / 10,
    reviewCount: 10 + i,
    phone: phone(3000, 1000 + i),
    ...overrides,
  };
}

// Ids in worldFromSpecs follow the spec's position, so both worlds list the same places first.
// The closed places stay in the second world far outside the area (to the search, exactly
// like a closed place), which keeps the ids of the places after them.
const before: PlaceSpec[] = Array.from({ length: KEPT + CLOSING }, (_, i) => spec(i));
const after: PlaceSpec[] = [
  ...Array.from({ length: KEPT }, (_, i) => (CHANGED_PHONE.includes(i) ? spec(i, { phone: phone(7000, i) }) : spec(i))),
  ...Array.from({ length: CLOSING }, (_, j) => spec(KEPT + j, { lat: 37.95, lng: 127.45 + j * 0.01 })),
  ...Array.from({ length: OPENING }, (_, j) => spec(KEPT + CLOSING + j, j === 0 ? { name: '=HYPERLINK("https://evil.example","open me")' } : {})),
];
const world1 = worldFromSpecs(before, { seed: 7 });
const world2 = worldFromSpecs(after, { seed: 7 });
const key = (cid: string) => `google:${cid}`;

describe('a re-collection records what changed since the previous run (real sweeps in-process)', () => {
  it('reports exactly the 7 opened, 5 closed and 3 re-numbered places', async () => {
    // The premise: the same place has the same id in both worlds.
    for (let i = 0; i < KEPT + CLOSING; i++) expect(world2.places[i]!.cid).toBe(world1.places[i]!.cid);
    const area = parseAreaText(AREA);
    if (!area.ok) throw new Error('area');
    expect(groundTruth(world1, 'cafe', area.area)).toHaveLength(KEPT + CLOSING);
    expect(groundTruth(world2, 'cafe', area.area)).toHaveLength(KEPT + OPENING);

    const { store } = await restartableStore();
    let clock = seoul(0, 9);
    const starter = sweepStarter(
      () => store,
      () => clock,
    );
    await createSavedSearch(store, searchInput(), 'ss1', seoul(0, 8));
    const scheduler = createScheduler({ store, alarms: fakeBrowser.alarms, now: () => clock, tzOffset: SEOUL, startSweep: starter.startSweep });

    // Run 1 (the baseline): the alarm starts the sweep, the real driver collects world 1.
    await scheduler.onAlarm({ name: SCHEDULE_ALARM });
    const first = await simSweep({ world: world1, store, areaText: AREA, keywordsText: 'cafe' });
    expect(first.sweep.status).toBe('finished');
    await scheduler.onSweepEnded();

    // Run 2, a day later, against world 2.
    clock = seoul(1, 9);
    await scheduler.onAlarm({ name: SCHEDULE_ALARM });
    const second = await simSweep({ world: world2, store, areaText: AREA, keywordsText: 'cafe' });
    expect(second.sweep.id).not.toBe(first.sweep.id);
    expect(second.sweep.status).toBe('finished');
    clock = seoul(1, 10);
    await scheduler.onSweepEnded();

    const [run1, run2] = await listRuns(store, { savedSearchId: 'ss1' });
    expect(run1?.changes).toEqual({ baseline: true, seen: KEPT + CLOSING, added: 0, gone: 0, changed: 0, complete: true });
    expect(run2?.changes).toEqual({ baseline: false, seen: KEPT + OPENING, added: OPENING, gone: CLOSING, changed: 3, complete: true });
    expect(await listChanges(store, run1!.id)).toEqual([]);

    const changes = await listChanges(store, run2!.id);
    const keysOf = (kind: string) =>
      changes
        .filter((c) => c.kind === kind)
        .map((c) => c.key)
        .sort();
    const cids = (from: number, n: number) =>
      world2.places
        .slice(from, from + n)
        .map((p) => key(p.cid))
        .sort();
    expect(keysOf('added')).toEqual(cids(KEPT + CLOSING, OPENING));
    expect(keysOf('gone')).toEqual(cids(KEPT, CLOSING));
    expect(keysOf('changed')).toEqual(CHANGED_PHONE.map((i) => key(world2.places[i]!.cid)).sort());
    for (const i of CHANGED_PHONE) {
      const change = changes.find((c) => c.key === key(world2.places[i]!.cid));
      expect(change?.diff).toEqual([{ field: 'phone', before: `02-3000-${1000 + i}`, after: `02-7000-${String(i).padStart(4, '0')}` }]);
    }
    // The gone places are remembered as last seen.
    const gone = changes.find((c) => c.kind === 'gone')!;
    expect(gone.fields.name).toMatch(/^Cafe 3[0-4]$/);

    // New places were found: the saved search's "last new place" moved to the run.
    expect((await getSavedSearch(store, 'ss1'))?.lastNewPlaceAt).toBe(seoul(1, 10));

    // Settling again (a restart, a second "sweep ended") changes nothing.
    await scheduler.onSweepEnded();
    expect(await listChanges(store, run2!.id)).toEqual(changes);

    // The export: one row per change (a phone change is one field), formulas neutralised.
    const csv = changesCsv(changes);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(csv.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...CHANGE_COLUMNS]);
    expect(parsed.data).toHaveLength(OPENING + CLOSING + 3);
    const hostile = parsed.data.find((r) => r.name?.includes('HYPERLINK'));
    expect(hostile?.name).toBe(`'=HYPERLINK("https://evil.example","open me")`);
    expect(hostile?.change).toBe('added');
    const renumbered = parsed.data.filter((r) => r.change === 'changed');
    expect(renumbered.map((r) => [r.field, r.before, r.after]).sort()).toEqual(
      CHANGED_PHONE.map((i) => ['phone', `02-3000-${1000 + i}`, `02-7000-${String(i).padStart(4, '0')}`]).sort(),
    );
  });

  it('a run whose cells failed for good reports nothing gone, and the next full run still compares with the old places', async () => {
    const { store } = await restartableStore();
    let clock = seoul(0, 9);
    const starter = sweepStarter(
      () => store,
      () => clock,
    );
    await createSavedSearch(store, searchInput(), 'ss1', seoul(0, 8));
    const scheduler = createScheduler({ store, alarms: fakeBrowser.alarms, now: () => clock, tzOffset: SEOUL, startSweep: starter.startSweep });
    await scheduler.onAlarm({ name: SCHEDULE_ALARM });
    await simSweep({ world: world1, store, areaText: AREA, keywordsText: 'cafe' });
    await scheduler.onSweepEnded();

    // Day 1: every page load fails; the cells are set aside (quarantined) and the sweep ends.
    clock = seoul(1, 9);
    await scheduler.onAlarm({ name: SCHEDULE_ALARM });
    const failing = await simSweep({ world: world1, store, areaText: AREA, keywordsText: 'cafe', sim: { alwaysFail: () => true } });
    expect(failing.sweep.counters.cellsQuarantined).toBeGreaterThan(0);
    await scheduler.onSweepEnded();
    const day1 = (await listRuns(store, { savedSearchId: 'ss1' }))[1]!;
    expect(day1.changes).toMatchObject({ complete: false, gone: 0, added: 0 });
    expect(await listChanges(store, day1.id)).toEqual([]);

    // Day 2: a full run of world 2 sees exactly the same changes as if day 1 had not failed.
    clock = seoul(2, 9);
    await scheduler.onAlarm({ name: SCHEDULE_ALARM });
    await simSweep({ world: world2, store, areaText: AREA, keywordsText: 'cafe' });
    await scheduler.onSweepEnded();
    const day2 = (await listRuns(store, { savedSearchId: 'ss1' }))[2]!;
    expect(day2.changes).toEqual({ baseline: false, seen: KEPT + OPENING, added: OPENING, gone: CLOSING, changed: 3, complete: true });
  });
});
