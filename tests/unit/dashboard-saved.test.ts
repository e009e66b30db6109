// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { SavedSearchesPanel, type SavedSearchCommands } from '../../components/dashboard/SavedSearchesPanel';
import {
  areaToText,
  draftFromSearch,
  draftFromSweep,
  emptyDraft,
  hourLabel,
  parseDraft,
  providerChoice,
  weekdayNames,
  type SavedSearchDraft,
} from '../../utils/dashboard/saved-search-form';
import { parseAreaText } from '../../utils/geo/area';
import type { Area } from '../../utils/geo/types';
import type { SavedSearchHealth } from '../../utils/health/queries';
import type { SavedSearch } from '../../utils/domain/saved-search';
import { makeSweep, seeded } from './store-fixtures';
import { useEnglishMessages } from '../helpers/english-messages';
import { PROVIDERS } from '../../utils/providers/registry';

const AREA = '37.56,126.97,37.57,126.99';
const good = (overrides: Partial<SavedSearchDraft> = {}): SavedSearchDraft => ({
  ...emptyDraft(),
  name: '  Cafes near City Hall ',
  provider: 'kakao',
  keywordsText: 'cafe\nbakery',
  areaText: AREA,
  ...overrides,
});

describe('reading the saved-search form', () => {
  it('turns what was typed into the input the background takes', () => {
    expect(parseDraft(good({ repeat: 'weekly', hour: '18', weekday: '5', thresholdDays: '2.5' }))).toEqual({
      ok: true,
      input: {
        name: 'Cafes near City Hall',
        provider: 'kakao',
        areaText: AREA,
        keywordsText: 'cafe\nbakery',
        repeat: 'weekly',
        hour: 18,
        weekday: 5,
        thresholdDays: 2.5,
      },
    });
    // Editing sends the id along; a new search has none.
    const edited = parseDraft({ ...good(), id: 'abc' });
    expect(edited.ok && edited.input.id).toBe('abc');
    const created = parseDraft(good());
    expect(created.ok && 'id' in created.input).toBe(false);
  });

  it.each<[string, Partial<SavedSearchDraft>, string]>([
    ['no name', { name: '   ' }, 'saved-search-name'],
    ['no map site chosen', { provider: null }, 'saved-search-provider'],
    ['no keywords', { keywordsText: '\n  \n' }, 'no-keywords'],
    ['no area', { areaText: '' }, 'empty'],
    ['corners the wrong way round', { areaText: '37.57,126.99,37.56,126.97' }, 'swapped-corners'],
    ['an hour past 23', { hour: '24' }, 'saved-search-hour'],
    ['half an hour', { hour: '9.5' }, 'saved-search-hour'],
    ['a weekday past Saturday', { weekday: '7' }, 'saved-search-weekday'],
    ['no threshold', { thresholdDays: '' }, 'saved-search-threshold'],
    ['a zero threshold', { thresholdDays: '0' }, 'saved-search-threshold'],
    ['a threshold in exponent form', { thresholdDays: '1e3' }, 'saved-search-threshold'],
    ['a threshold with words', { thresholdDays: '7 days' }, 'saved-search-threshold'],
    ['a threshold over ten years', { thresholdDays: '3651' }, 'saved-search-threshold'],
  ])('refuses %s', (_, change, code) => {
    const result = parseDraft(good(change));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe(code);
  });

  it('writes any area back as text that reads as the same area (seeded boxes and polygons)', () => {
    const random = seeded(6);
    const areas: Area[] = [];
    for (let i = 0; i < 40; i++) {
      const lat = -60 + random() * 120;
      const lng = -170 + random() * 340;
      const size = 0.01 + random() * 0.5;
      const box = parseAreaText(`${lat},${lng},${lat + size},${lng + size * 1.3}`);
      // A star-shaped ring (angles sorted) never crosses itself; some get a square hole, some a second polygon.
      const ring = (cLat: number, cLng: number, r: number) => {
        const angles = Array.from({ length: 3 + Math.floor(random() * 8) }, () => random() * 2 * Math.PI).sort((a, b) => a - b);
        return angles.map((a) => [cLng + r * (0.6 + 0.4 * random()) * Math.cos(a), cLat + r * (0.6 + 0.4 * random()) * Math.sin(a)]);
      };
      const hole = (cLat: number, cLng: number, r: number) => [
        [cLng - r, cLat - r],
        [cLng + r, cLat - r],
        [cLng + r, cLat + r],
        [cLng - r, cLat + r],
      ];
      const polygon = [ring(lat, lng, size), ...(i % 3 === 0 ? [hole(lat, lng, size * 0.1)] : [])];
      const geometry =
        i % 4 === 0 ? { type: 'MultiPolygon', coordinates: [polygon, [ring(lat + 3 * size, lng, size)]] } : { type: 'Polygon', coordinates: polygon };
      for (const parsed of [box, parseAreaText(JSON.stringify(geometry))]) if (parsed.ok) areas.push(parsed.area);
    }
    expect(areas.filter((a) => a.kind === 'polygon').length).toBeGreaterThan(20);
    expect(areas.filter((a) => a.kind === 'bbox').length).toBe(40);
    for (const area of areas) {
      const back = parseAreaText(areaToText(area));
      expect(back).toEqual({ ok: true, area });
    }
  });

  it('fills site, keywords and area from a sweep, keeping the schedule and a name already typed', () => {
    const sweep = makeSweep('s', { keywords: ['bakery', 'florist'], provider: 'naver' });
    const draft = { ...emptyDraft(), repeat: 'weekly' as const, hour: '7' };
    expect(draftFromSweep(draft, sweep)).toEqual({
      ...draft,
      name: 'bakery, florist',
      provider: 'naver',
      keywordsText: 'bakery\nflorist',
      areaText: '48.8,2.3,48.9,2.4',
    });
    expect(draftFromSweep({ ...draft, name: 'Mine' }, sweep).name).toBe('Mine');
    // A sweep from before providers was Google's.
    expect(draftFromSweep({ ...draft, provider: 'kakao' }, makeSweep('old')).provider).toBe('google');
  });

  it('sends the site of the form, so the search runs there', () => {
    for (const provider of ['google', 'naver', 'kakao'] as const) {
      const parsed = parseDraft(good({ provider }));
      expect(parsed.ok && parsed.input.provider).toBe(provider);
    }
  });

  it('reads the site select back as one of the registry’s sites, or none', () => {
    expect([providerChoice('naver'), providerChoice('kakao'), providerChoice(''), providerChoice('bing')]).toEqual(['naver', 'kakao', null, null]);
  });

  it('names hours and weekdays as a person reads them', () => {
    expect([hourLabel(0), hourLabel(9), hourLabel(23)]).toEqual(['00:00', '09:00', '23:00']);
    expect(weekdayNames('en-US')).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
    expect(weekdayNames('ko-KR')[0]).toBe('일요일');
  });
});

function saved(id: string, overrides: Partial<SavedSearch> = {}): SavedSearchHealth {
  const search: SavedSearch = {
    id,
    name: `Search ${id}`,
    areaText: AREA,
    keywordsText: 'cafe\nbakery',
    repeat: 'weekly',
    hour: 7,
    weekday: 1,
    thresholdDays: 10,
    createdAt: 1_000,
    lastRunAt: null,
    lastSuccessfulRunAt: null,
    lastNewPlaceAt: null,
    ...overrides,
  };
  return {
    search,
    runs: [],
    latestAudit: null,
    staleness: { state: 'fresh', reason: null, candidate: false, quietForMs: 0, lastNewPlaceAt: null, lastSuccessfulRunAt: null, auditAt: null },
    due: { due: false, slot: null, missed: 0, catchUp: false },
    nextRunAt: null,
  };
}

describe('the saved searches panel', () => {
  let host: HTMLElement;
  let commands: { [K in keyof SavedSearchCommands]: Mock<SavedSearchCommands[K]> };
  let onChanged: Mock<() => void>;
  beforeEach(() => {
    useEnglishMessages();
    host = document.createElement('div');
    document.body.append(host);
    commands = {
      save: vi.fn<SavedSearchCommands['save']>(async () => ({ ok: true, id: 'new-id' })),
      remove: vi.fn<SavedSearchCommands['remove']>(async () => ({ ok: true })),
      runNow: vi.fn<SavedSearchCommands['runNow']>(async () => ({ ok: true })),
    };
    onChanged = vi.fn<() => void>();
  });
  afterEach(() => {
    render(null, host);
    host.remove();
    vi.restoreAllMocks();
  });

  async function mount(searches: SavedSearchHealth[] | null, opts: { confirm?: (m: string) => boolean; sweep?: ReturnType<typeof makeSweep> } = {}) {
    await act(() =>
      render(
        h(SavedSearchesPanel, {
          searches,
          selectedSweep: opts.sweep ?? null,
          commands,
          confirm: opts.confirm ?? (() => true),
          onChanged,
        }),
        host,
      ),
    );
  }
  const field = <T extends HTMLElement>(id: string) => host.querySelector<T>(`#${id}`)!;
  async function type(id: string, value: string) {
    const el = field<HTMLInputElement>(id);
    await act(() => {
      el.value = value;
      el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
    });
  }
  const button = (name: string) => [...host.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === name || b.textContent === name)!;
  const alertText = () => host.querySelector('[role="alert"]')?.textContent ?? null;
  const submit = () => act(async () => void button('Save search').click());

  async function fillGood() {
    await type('saved-name', 'Cafes near City Hall');
    await type('saved-provider', 'naver');
    await type('saved-keywords', 'cafe');
    await type('saved-area', AREA);
  }

  it('refuses bad input with the message and sends nothing', async () => {
    await mount([]);
    await submit();
    expect(alertText()).toBe('Give the saved search a name (at most 200 characters).');

    // No site is chosen for a new search until the user chooses one.
    await type('saved-name', 'Cafes near City Hall');
    await type('saved-keywords', 'cafe');
    await type('saved-area', AREA);
    expect(field<HTMLSelectElement>('saved-provider').value).toBe('');
    await submit();
    expect(alertText()).toBe('Choose the map site the saved search sweeps.');

    await fillGood();
    await type('saved-threshold', '0');
    await submit();
    expect(alertText()).toBe('The staleness threshold must be more than 0 and at most 3650 days.');

    await type('saved-threshold', '14');
    await type('saved-keywords', '');
    await submit();
    expect(alertText()).toBe('Enter at least one keyword (one per line).');

    // Area errors have no translation yet: the English message is shown.
    await type('saved-keywords', 'cafe');
    await type('saved-area', '37.57,126.99,37.56,126.97');
    await submit();
    expect(alertText()).toMatch(/^The first corner must be the south-west one/);

    expect(commands.save).not.toHaveBeenCalled();
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('saves good input, says so, and empties the form', async () => {
    await mount([]);
    expect(host.textContent).toContain('No saved searches yet.');
    await fillGood();
    await type('saved-repeat', 'weekly');
    await type('saved-hour', '18');
    await type('saved-weekday', '5');
    await submit();
    expect(commands.save).toHaveBeenCalledTimes(1);
    expect(commands.save).toHaveBeenCalledWith({
      name: 'Cafes near City Hall',
      provider: 'naver',
      areaText: AREA,
      keywordsText: 'cafe',
      repeat: 'weekly',
      hour: 18,
      weekday: 5,
      thresholdDays: 14,
    });
    expect(alertText()).toBeNull();
    expect(host.querySelector('[role="status"]')!.textContent).toBe('Saved “Cafes near City Hall”.');
    expect(onChanged).toHaveBeenCalled();
    expect(field<HTMLInputElement>('saved-name').value).toBe('');
    expect(field<HTMLSelectElement>('saved-provider').value).toBe('');
  });

  it('offers every site of the registry, labelled', async () => {
    await mount([]);
    const select = field<HTMLSelectElement>('saved-provider');
    expect(host.querySelector('label[for="saved-provider"]')!.textContent).toBe('Map site');
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([['', 'Choose the map site'], ...PROVIDERS.map((p) => [p.id, p.displayName])]);
  });

  it('shows the background’s refusal with role=alert and keeps what was typed', async () => {
    commands.save.mockResolvedValue({ ok: false, error: { code: 'no-saved-search', message: 'That saved search no longer exists.' } });
    await mount([]);
    await fillGood();
    await submit();
    expect(alertText()).toBe('That saved search no longer exists.');
    expect(field<HTMLInputElement>('saved-name').value).toBe('Cafes near City Hall');
  });

  it('asks only the hour for a daily search, the weekday too for a weekly one, neither when off', async () => {
    await mount([]);
    expect(host.querySelector('#saved-hour')).not.toBeNull();
    expect(host.querySelector('#saved-weekday')).toBeNull();
    await type('saved-repeat', 'weekly');
    expect([...field<HTMLSelectElement>('saved-weekday').options].map((o) => o.textContent)[1]).toBe('Monday');
    await type('saved-repeat', 'off');
    expect(host.querySelector('#saved-hour')).toBeNull();
    expect(host.querySelector('#saved-weekday')).toBeNull();
  });

  it('lists saved searches; Edit loads one and saving sends its id', async () => {
    await mount([saved('a'), saved('b', { repeat: 'daily', hour: 21, lastRunAt: Date.UTC(2026, 2, 20, 3) })]);
    const rows = [...host.querySelectorAll('[data-testid="saved-searches"] tbody tr')].map((tr) => [...tr.children].slice(0, 4).map((c) => c.textContent));
    expect(rows).toEqual([
      ['Search a', 'cafe, bakery', 'Every Monday at 07:00', '10 days'],
      ['Search b', 'cafe, bakery', 'Daily at 21:00', '10 days'],
    ]);
    await act(() => button('Edit – Search a').click());
    expect(host.querySelector('#saved-form-title')!.textContent).toBe('Editing “Search a”');
    expect(field<HTMLTextAreaElement>('saved-keywords').value).toBe('cafe\nbakery');
    expect(field<HTMLSelectElement>('saved-weekday').value).toBe('1');
    await type('saved-name', 'Renamed');
    await act(async () => void button('Save changes').click());
    // Saved before searches named their site: it shows, and is saved, as the Google it ran on.
    expect(commands.save).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'a', name: 'Renamed', provider: 'google', hour: 7, weekday: 1, thresholdDays: 10 }),
    );
  });

  it('deletes only after the user confirms', async () => {
    let answer = false;
    const asked: string[] = [];
    await mount([saved('a')], {
      confirm: (m) => {
        asked.push(m);
        return answer;
      },
    });
    await act(async () => void button('Delete – Search a').click());
    expect(asked).toEqual(['Delete the saved search “Search a” with its run history and changes? The places its runs collected stay in their collections.']);
    expect(commands.remove).not.toHaveBeenCalled();
    answer = true;
    await act(async () => void button('Delete – Search a').click());
    expect(commands.remove).toHaveBeenCalledWith('a');
    expect(host.querySelector('[role="status"]')!.textContent).toBe('Deleted “Search a”.');
  });

  it('runs now, and shows why the background would not', async () => {
    await mount([saved('a')]);
    await act(async () => void button('Run now – Search a').click());
    expect(commands.runNow).toHaveBeenCalledWith('a');
    expect(host.querySelector('[role="status"]')!.textContent).toBe('A run of “Search a” started.');
    commands.runNow.mockResolvedValue({ ok: false, error: { code: 'run-run-open', message: 'A run of this saved search is still open.' } });
    await act(async () => void button('Run now – Search a').click());
    expect(alertText()).toBe('A run of this saved search is still going; wait for it to end.');
  });

  it('fills the form from the selected sweep', async () => {
    await mount([]);
    expect(button('Use the selected sweep’s keywords and area').disabled).toBe(true);
    await mount([], { sweep: makeSweep('s', { keywords: ['bakery', 'florist'], provider: 'kakao' }) });
    await act(() => button('Use the selected sweep’s keywords and area').click());
    expect(field<HTMLInputElement>('saved-name').value).toBe('bakery, florist');
    expect(field<HTMLSelectElement>('saved-provider').value).toBe('kakao');
    expect(field<HTMLTextAreaElement>('saved-keywords').value).toBe('bakery\nflorist');
    expect(field<HTMLTextAreaElement>('saved-area').value).toBe('48.8,2.3,48.9,2.4');
  });
});

describe('a saved search loaded for editing', () => {
  it('keeps every field the user chose', () => {
    const s = saved('x', { repeat: 'off', hour: 3, weekday: 6, thresholdDays: 0.5 }).search;
    const parsed = parseDraft(draftFromSearch({ ...s, provider: 'naver' }));
    expect(parsed).toEqual({
      ok: true,
      input: {
        id: 'x',
        name: s.name,
        provider: 'naver',
        areaText: s.areaText,
        keywordsText: s.keywordsText,
        repeat: 'off',
        hour: 3,
        weekday: 6,
        thresholdDays: 0.5,
      },
    });
  });

  it('one an older version saved without a site is Google’s, as it always ran', () => {
    const legacy = saved('x').search;
    expect(legacy.provider).toBeUndefined();
    expect(draftFromSearch(legacy).provider).toBe('google');
  });
});
