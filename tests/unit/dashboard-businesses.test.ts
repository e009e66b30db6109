// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BusinessesPanel } from '../../components/dashboard/BusinessesPanel';
import {
  businessFilters,
  emptyFacts,
  factsOfBatch,
  filterById,
  filterCounts,
  filterId,
  indexRecords,
  membersToRead,
  pageOf,
  rowsOf,
  subjectId,
  subjectsOf,
  type FactsIndex,
} from '../../utils/dashboard/businesses';
import { t } from '../../utils/i18n/t';
import type { StoredListing } from '../../utils/domain/listing';
import type { AmbiguityRecord, BusinessRecord, LinkRunRecord } from '../../utils/match/records';
import { decideLink } from '../../utils/match/read';
import type { SweptAt } from '../../utils/match/swept';
import type { BusinessLink } from '../../utils/match/types';
import type { ProviderId } from '../../utils/domain/place';
import { PROVIDERS } from '../../utils/providers/registry';
import { openStore, type Store } from '../../utils/store';
import { useEnglishMessages } from '../helpers/english-messages';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { freshFactory, makeCell, makeListing, makeSweep } from './store-fixtures';

const SITES: ProviderId[] = PROVIDERS.map((p) => p.id);
const [FIRST, SECOND, THIRD] = SITES as [ProviderId, ProviderId, ProviderId];
/** Swept (by the second and third sites) south of 37.55 only; the first site everywhere. */
const SOUTH = 37.5;
const NORTH = 37.6;
const swept: SweptAt = (site, p) => site === FIRST || p.lat < 37.55;

function listing(site: ProviderId, id: string, over: Partial<StoredListing> = {}): StoredListing {
  return {
    ...makeListing(id, { key: `${site}:${id}`, provider: site, providerId: id, cid: null, url: `https://example.test/${id}`, lat: SOUTH, lng: 127.03 }),
    address: '서울 강남구 테헤란로 1',
    phoneE164: '+8221234567',
    firstSeen: 1,
    lastSeen: 1,
    collections: ['browsing'],
    keywords: [],
    cells: [],
    ...over,
  } as StoredListing;
}

function link(a: string, b: string, score: number, by: BusinessLink['by'] = 'score'): BusinessLink {
  return {
    a,
    b,
    score,
    metres: 12,
    by,
    reasons: [
      { kind: 'distance', points: 3, detail: '12 m' },
      { kind: 'phone', points: score - 3, detail: '+8221234567' },
    ],
  };
}

function business(members: string[], links: BusinessLink[]): BusinessRecord {
  return { id: `b:${members[0]}`, members, links, since: 1 };
}

/**
 * Two businesses, a place left for the user with two candidates, and lone places:
 * - b1 (first+second, south): phones differ; the third site swept there lacks it.
 * - b2 (first+third, north): closed on one site; the second site never swept there.
 * - lone first:3 (south) is missing on the second and third; lone first:4 (north) nowhere.
 * - first:5 with candidates second:5 and second:6 (south), left for the user: in no "missing".
 */
function world() {
  const listings = [
    listing(FIRST, '1', { name: 'Cafe One' }),
    listing(SECOND, '1', { name: 'Cafe One', phoneE164: '+8227654321' }),
    listing(FIRST, '2', { name: 'Bakery Two', lat: NORTH }),
    listing(THIRD, '2', { name: 'Bakery Two', lat: NORTH, closed: 'permanently' }),
    listing(FIRST, '3', { name: 'Lone Three' }),
    listing(FIRST, '4', { name: 'Lone Four', lat: NORTH }),
    listing(FIRST, '5', { name: 'Branch Five' }),
    listing(SECOND, '5', { name: 'Branch Five A' }),
    listing(SECOND, '6', { name: 'Branch Five B' }),
  ];
  const businesses = [
    business([`${FIRST}:1`, `${SECOND}:1`], [link(`${FIRST}:1`, `${SECOND}:1`, 7)]),
    business([`${FIRST}:2`, `${THIRD}:2`], [link(`${FIRST}:2`, `${THIRD}:2`, 9, 'user')]),
  ];
  const ambiguities: AmbiguityRecord[] = [
    {
      id: `close:${FIRST}:5`,
      why: 'close-runner-up',
      places: [`${FIRST}:5`, `${SECOND}:5`, `${SECOND}:6`],
      candidates: [
        { a: `${FIRST}:5`, b: `${SECOND}:5`, metres: 20, score: 6.5, reasons: [{ kind: 'name', points: 3, detail: 'branch five ≈ branch five a (0.9)' }] },
        { a: `${FIRST}:5`, b: `${SECOND}:6`, metres: 25, score: 6.2, reasons: [{ kind: 'name', points: 3, detail: 'branch five ≈ branch five b (0.9)' }] },
      ],
    },
  ];
  return { listings, businesses, ambiguities };
}

/** Feeds the listings to the facts in batches of `size`, reading the rest of each business as the panel does. */
function gather(listings: readonly StoredListing[], businesses: BusinessRecord[], ambiguities: AmbiguityRecord[], size: number): FactsIndex {
  const all = new Map(listings.map((l) => [l.key, l]));
  const index = indexRecords(businesses, ambiguities);
  const facts = emptyFacts();
  for (let i = 0; i < listings.length; i += size) {
    const batch = listings.slice(i, i + size);
    const wanted = membersToRead(batch, index, facts);
    expect(wanted.every((k) => !batch.some((l) => l.key === k))).toBe(true);
    factsOfBatch(facts, batch, new Map(wanted.map((k) => [k, all.get(k)!])), index, SITES, swept);
  }
  return facts;
}

describe('the businesses view model', () => {
  it('counts each filter: differences, missing only where that site was swept, lone places only through missing', () => {
    const { listings, businesses, ambiguities } = world();
    const facts = gather(listings, businesses, ambiguities, 100);
    const counts = filterCounts(businessFilters(SITES), businesses, ambiguities, facts);
    expect(Object.fromEntries(counts)).toEqual({
      linked: 2,
      left: 1,
      'differs:phone': 1,
      'differs:address': 0,
      'differs:name': 0,
      'differs:hours': 0,
      'differs:closed': 1,
      [`missing:${FIRST}`]: 0,
      [`missing:${SECOND}`]: 1,
      [`missing:${THIRD}`]: 2,
    });
    const ids = (id: string) => subjectsOf(filterById(businessFilters(SITES), id)!, businesses, ambiguities, facts).map(subjectId);
    expect(ids(`missing:${THIRD}`)).toEqual([`b:${FIRST}:1`, `${FIRST}:3`]);
    expect(ids(`missing:${SECOND}`)).toEqual([`${FIRST}:3`]);
    expect(ids('differs:phone')).toEqual([`b:${FIRST}:1`]);
    expect(ids('differs:closed')).toEqual([`b:${FIRST}:2`]);
    expect(ids('left')).toEqual([`close:${FIRST}:5`]);
    // The least sure business first.
    expect(ids('linked')).toEqual([`b:${FIRST}:1`, `b:${FIRST}:2`]);
  });

  it('gathers the same facts whatever the batches and their order', () => {
    const { listings, businesses, ambiguities } = world();
    const whole = gather(listings, businesses, ambiguities, 100);
    for (const size of [1, 2, 4]) {
      for (const order of [listings, [...listings].reverse()]) {
        const facts = gather(order, businesses, ambiguities, size);
        expect(new Map([...facts.businesses].sort())).toEqual(new Map([...whole.businesses].sort()));
        expect(new Map([...facts.lone].sort())).toEqual(new Map([...whole.lone].sort()));
      }
    }
  });

  it('offers one "missing on" filter per registry site, and reads a filter back from its id', () => {
    const filters = businessFilters(SITES);
    expect(filters.filter((f) => f.kind === 'missing').map(filterId)).toEqual(SITES.map((s) => `missing:${s}`));
    for (const f of filters) expect(filterById(filters, filterId(f))).toEqual(f);
    expect(filterById(filters, 'missing:elsewhere')).toBeNull();
  });

  it('pages the subjects 50 at a time and clamps a page past the end', () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    expect(pageOf(items, 0)).toMatchObject({ page: 0, pages: 3 });
    expect(pageOf(items, 0).items).toHaveLength(50);
    expect(pageOf(items, 2).items).toEqual(items.slice(100));
    expect(pageOf(items, 9)).toMatchObject({ page: 2, pages: 3 });
    expect(pageOf([], 3)).toEqual({ items: [], page: 0, pages: 1 });
  });

  it('builds a page of rows from the listings read for it alone: sites side by side, weakest score, a gone listing named by its key', () => {
    const { listings } = world();
    const two = business([`${FIRST}:1`, `${SECOND}:1`], [link(`${FIRST}:1`, `${SECOND}:1`, 8), link(`${SECOND}:1`, `${THIRD}:9`, 6.5)]);
    const two3 = { ...two, members: [...two.members, `${THIRD}:9`] };
    const byKey = new Map(listings.map((l) => [l.key, l]));
    const [row, lone] = rowsOf(
      [
        { kind: 'business', record: two3 },
        { kind: 'lone', key: `${FIRST}:3` },
      ],
      byKey,
      SITES,
      swept,
    );
    expect(row!.kind).toBe('business');
    if (row!.kind !== 'business') return;
    expect(row!.bySite.map((ms) => ms.map((m) => m.shown?.name ?? null))).toEqual([['Cafe One'], ['Cafe One'], [null]]);
    expect(row!.bySite[2]![0]!.key).toBe(`${THIRD}:9`);
    expect(row!.score).toBe(6.5);
    expect(row!.links[0]!.reasons).toEqual([
      { kind: 'distance', points: 3, detail: '12 m' },
      { kind: 'phone', points: 5, detail: '+8221234567' },
    ]);
    expect(row!.differs).toEqual(['phone']);
    expect(row!.missingOn).toEqual([]);
    expect(lone).toMatchObject({ kind: 'lone', missingOn: [SECOND, THIRD] });
  });
});

describe('the businesses panel', () => {
  const HOSTILE = '<img src=x onerror=alert(1)>';
  let host: HTMLElement;
  let store: Store;
  const run = (over: Partial<LinkRunRecord> = {}): LinkRunRecord => ({
    id: 'latest',
    startedAt: Date.UTC(2026, 11, 3, 9),
    finishedAt: Date.UTC(2026, 11, 3, 9, 1),
    places: 9,
    businesses: 2,
    ambiguities: 1,
    pairsScored: 40,
    threshold: 6,
    written: 3,
    deleted: 0,
    ...over,
  });

  beforeEach(async () => {
    useEnglishMessages();
    host = document.createElement('div');
    document.body.append(host);
    store = await openStore({ factory: freshFactory(), name: 'businesses-test' });
    const { listings, businesses, ambiguities } = world();
    listings[0]!.name = HOSTILE;
    // The second and third sites swept the south only, as done cells.
    const cells = [SECOND, THIRD].map((site) =>
      makeCell(`s-${site}`, 'r0c0', { status: 'done', bbox: { south: 37.45, west: 127.0, north: 37.55, east: 127.1 } }),
    );
    await store.transact(['listings', 'businesses', 'ambiguities', 'linkRuns', 'sweeps', 'cells'], 'readwrite', async (tx) => {
      for (const l of listings) await tx.objectStore('listings').put(l);
      for (const b of businesses) await tx.objectStore('businesses').put(b);
      for (const a of ambiguities) await tx.objectStore('ambiguities').put(a);
      await tx.objectStore('linkRuns').put(run());
      for (const site of [SECOND, THIRD]) await tx.objectStore('sweeps').put(makeSweep(`s-${site}`, { provider: site, status: 'finished' }));
      for (const c of cells) await tx.objectStore('cells').put(c);
    });
  });
  afterEach(() => {
    render(null, host);
    host.remove();
    store.close();
    vi.restoreAllMocks();
  });

  async function mount() {
    await act(() => {
      render(h(BusinessesPanel, { store }), host);
    });
    await vi.waitFor(() => expect(rows().length).toBeGreaterThan(0));
  }
  const rows = () => [...host.querySelectorAll('[data-testid=businesses] tbody tr')];
  const buttons = (text: string) => [...host.querySelectorAll('button')].filter((b) => b.textContent === text);
  const choose = async (value: string) => {
    const select = host.querySelector('select')!;
    await act(() => {
      select.value = value;
      select.dispatchEvent(new Event('change'));
    });
  };
  /**
   * The background's answers, as WXT's fake browser delivers them (`true`, then sendResponse):
   * `answer` does to the store what the worker would, then replies.
   */
  function background(answer: (type: string, data: { a: string; b: string; decision: string | null } | undefined) => Promise<unknown>) {
    const asked: Array<{ type: string; data: unknown }> = [];
    fakeBrowser.runtime.onMessage.addListener(((message: { type?: string; data?: never }, _sender: unknown, sendResponse: (reply: unknown) => void) => {
      if (message?.type !== 'linkRun' && message?.type !== 'linkDecide') return undefined;
      asked.push({ type: message.type, data: message.data });
      void answer(message.type, message.data).then((res) => sendResponse({ res }));
      return true;
    }) as never);
    return asked;
  }
  const ranAt = Date.UTC(2026, 11, 3, 10);
  const ok = async () => ({ ok: true, run: run({ finishedAt: ranAt, businesses: 1 }) });

  it('shows the last run with its threshold, the linked businesses side by side, and a hostile name as text', async () => {
    await mount();
    expect(host.querySelector('[data-testid=link-run]')!.textContent).toContain(t('businessesThreshold', '6'));
    expect(rows()).toHaveLength(2);
    expect(host.querySelector('img')).toBeNull();
    expect([...host.querySelectorAll('strong')].map((s) => s.textContent)).toContain(HOSTILE);
    const heads = [...host.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(heads.slice(0, SITES.length)).toEqual(PROVIDERS.map((p) => p.displayName));
    // Only the link the user confirmed can be taken back.
    expect(buttons(t('buttonBreakLink'))).toHaveLength(2);
    expect(buttons(t('buttonUndoLink'))).toHaveLength(1);
  });

  it('breaks a link through the background and re-reads the store', async () => {
    const asked = background(async (_, data) => {
      await store.transact(['businesses'], 'readwrite', (tx) => tx.objectStore('businesses').delete(`b:${data!.a}`));
      return ok();
    });
    await mount();
    const first = rows().find((r) => r.textContent!.includes(HOSTILE))!;
    await act(async () => first.querySelector('button')!.click());
    await vi.waitFor(() => expect(rows()).toHaveLength(1));
    expect(asked).toEqual([{ type: 'linkDecide', data: { a: `${FIRST}:1`, b: `${SECOND}:1`, decision: 'broken' } }]);
    expect(rows()[0]!.textContent).not.toContain(HOSTILE);
    await vi.waitFor(() => expect(host.querySelector('.busy')!.textContent).toBe(t('businessesRunDone', '1', '1')));
  });

  it('takes back a confirmed link with a null decision', async () => {
    const asked = background(ok);
    await mount();
    await act(async () => buttons(t('buttonUndoLink'))[0]!.click());
    await vi.waitFor(() => expect(asked).toEqual([{ type: 'linkDecide', data: { a: `${FIRST}:2`, b: `${THIRD}:2`, decision: null } }]));
  });

  it('lists the links the user broke, which leave no row behind, each with its Undo', async () => {
    await decideLink(store, `${SECOND}:7`, `${FIRST}:7`, 'broken', 1);
    const asked = background(ok);
    await mount();
    const list = host.querySelector('[data-testid=broken-links]')!;
    expect(list.textContent).toContain(`${FIRST}:7 ↔ ${SECOND}:7`);
    await act(async () => list.querySelector('button')!.click());
    await vi.waitFor(() => expect(asked).toEqual([{ type: 'linkDecide', data: { a: `${FIRST}:7`, b: `${SECOND}:7`, decision: null } }]));
  });

  it('lists what was left for the user with each candidate, and confirms the one chosen', async () => {
    const asked = background(ok);
    await mount();
    await choose('left');
    await vi.waitFor(() => expect(rows()[0]?.getAttribute('data-row')).toBe('left'));
    expect(rows()[0]!.textContent).toContain('branch five ≈ branch five b (0.9)');
    const same = buttons(t('buttonSameBusiness'));
    expect(same).toHaveLength(2);
    await act(async () => same[1]!.click());
    await vi.waitFor(() => expect(asked).toEqual([{ type: 'linkDecide', data: { a: `${FIRST}:5`, b: `${SECOND}:6`, decision: 'confirmed' } }]));
  });

  it('lists as missing on a site only what lies where that site was swept, lone places included, with the count', async () => {
    await mount();
    const option = () => [...host.querySelectorAll('option')].find((o) => o.value === `missing:${THIRD}`)!.textContent;
    await vi.waitFor(() => expect(option()).toBe(t('businessesFilterOption', t('businessesFilterMissing', PROVIDERS[2]!.displayName), '2')));
    await choose(`missing:${THIRD}`);
    await vi.waitFor(() => expect(rows().map((r) => r.getAttribute('data-row'))).toEqual(['business', 'lone']));
    expect(rows()[1]!.textContent).toContain('Lone Three');
    await choose(`missing:${SECOND}`);
    await vi.waitFor(() => expect(rows().map((r) => r.textContent!.includes('Lone Three'))).toEqual([true]));
  });

  it('re-reads the records on a poll once a run it did not start (after a sweep) finished', async () => {
    await act(() => {
      render(h(BusinessesPanel, { store, tick: 1 }), host);
    });
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
    await store.transact(['businesses', 'linkRuns'], 'readwrite', async (tx) => {
      await tx.objectStore('businesses').delete(`b:${FIRST}:2`);
      await tx.objectStore('linkRuns').put(run({ finishedAt: ranAt, businesses: 1 }));
    });
    await act(() => {
      render(h(BusinessesPanel, { store, tick: 2 }), host);
    });
    await vi.waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('says why a run failed, from the background’s answer', async () => {
    const asked = background(async () => ({ ok: false, error: { code: 'link_failed', message: 'The disk is full' } }));
    await mount();
    await act(async () => buttons(t('buttonLinkBusinesses'))[0]!.click());
    await vi.waitFor(() => expect(host.querySelector('[role=alert]')?.textContent).toContain('The disk is full'));
    expect(asked).toEqual([{ type: 'linkRun', data: undefined }]);
    expect(buttons(t('buttonLinkBusinesses'))[0]!.disabled).toBe(false);
  });
});
