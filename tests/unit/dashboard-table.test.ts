// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEADER_HEIGHT, ListingsTable, OVERSCAN, ROW_HEIGHT } from '../../components/dashboard/ListingsTable';
import type { ListingRow } from '../../utils/dashboard/rows';
import { useEnglishMessages } from '../helpers/english-messages';

/** t() reads the real English messages, so the test finds controls by the names a person reads. */
const N = 100_000;
function makeRows(): ListingRow[] {
  return Array.from({ length: N }, (_, i) => ({
    key: `google:${1_000_000 + i}`,
    provider: 'google' as const,
    cid: String(1_000_000 + i),
    url: `https://www.google.com/maps?cid=${1_000_000 + i}`,
    name: i === 77_777 ? 'Needle Noodles' : i === 5 ? 'needle & thread' : `Place ${String(i).padStart(6, '0')}`,
    category: i % 2 ? 'Cafe' : 'Bakery',
    address: `${i} Main St`,
    phone: null,
    website: i === 1 ? 'javascript:alert(1)' : i === 2 ? 'https://ok.example/' : null,
    rating: (i % 50) / 10,
    reviews: i,
    lat: 37.5,
    lng: 127,
    lastSeen: Date.UTC(2026, 10, 1),
  }));
}

const VIEWPORT = 480;
const IN_VIEW = Math.ceil((VIEWPORT - HEADER_HEIGHT) / ROW_HEIGHT);

let host: HTMLElement;
beforeEach(() => {
  useEnglishMessages();
  host = document.createElement('div');
  document.body.append(host);
});
afterEach(() => {
  render(null, host);
  host.remove();
  vi.restoreAllMocks();
});

function dataRows(): HTMLTableRowElement[] {
  return [...host.querySelectorAll<HTMLTableRowElement>('tbody tr')].filter((r) => !r.classList.contains('spacer'));
}
function spacerHeight(): number {
  return [...host.querySelectorAll<HTMLTableCellElement>('tbody tr.spacer td')].reduce((sum, td) => sum + parseFloat(td.style.height), 0);
}
/** The place's name (the first cell also shows which site the place is from). */
const firstCellText = (r: HTMLTableRowElement) => r.cells[0]!.querySelector('.name')!.textContent;

async function mount(rows: ListingRow[]) {
  await act(() => {
    render(h(ListingsTable, { rows, loaded: rows.length, loading: false, expected: rows.length, viewportHeight: VIEWPORT }), host);
  });
}

describe('the listings table', () => {
  it('puts only the rows in view plus overscan in the DOM for 100,000 places, and keeps the full scroll height', async () => {
    const rows = makeRows();
    await mount(rows);
    const shown = dataRows();
    expect(shown).toHaveLength(IN_VIEW + OVERSCAN);
    expect(firstCellText(shown[0]!)).toBe('Place 000000');
    expect(shown.length * ROW_HEIGHT + spacerHeight()).toBe(N * ROW_HEIGHT);
    expect(host.querySelector('table')!.getAttribute('aria-rowcount')).toBe(String(N + 1));
    expect(host.querySelector('[role="status"]')!.textContent).toBe('100,000 of 100,000 places');
  });

  it('shows the rows at the scroll position after a scroll', async () => {
    await mount(makeRows());
    const scroller = host.querySelector<HTMLDivElement>('.table-scroll')!;
    await act(() => {
      scroller.scrollTop = 50_000 * ROW_HEIGHT;
      scroller.dispatchEvent(new Event('scroll'));
    });
    const shown = dataRows();
    const names = shown.map(firstCellText);
    expect(names).toContain('Place 050000');
    expect(names).toContain(`Place 0${50_000 + IN_VIEW - 1}`);
    expect(shown.length).toBeLessThanOrEqual(IN_VIEW + 1 + 2 * OVERSCAN);
    expect(shown[0]!.getAttribute('aria-rowindex')).toBe(String(50_000 - OVERSCAN + 2));
    expect(shown.length * ROW_HEIGHT + spacerHeight()).toBe(N * ROW_HEIGHT);
  });

  it('searches by substring and tells how many places match', async () => {
    await mount(makeRows());
    const search = host.querySelector<HTMLInputElement>('input[type="search"]')!;
    expect(search.getAttribute('aria-label')).toBe('Search places');
    await act(() => {
      search.value = 'NEEDLE';
      search.dispatchEvent(new Event('input'));
    });
    expect(dataRows().map(firstCellText)).toEqual(['needle & thread', 'Needle Noodles']);
    expect(host.querySelector('[role="status"]')!.textContent).toBe('2 of 100,000 places');
  });

  it('sorts by a column when its header is pressed, and says so to assistive technology', async () => {
    await mount(makeRows());
    const reviewsHeader = [...host.querySelectorAll('th')].find((th) => th.textContent?.startsWith('Reviews'))!;
    await act(() => reviewsHeader.querySelector('button')!.click());
    expect(reviewsHeader.getAttribute('aria-sort')).toBe('descending');
    expect(firstCellText(dataRows()[0]!)).toBe('Place 099999');
    await act(() => reviewsHeader.querySelector('button')!.click());
    expect(reviewsHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(firstCellText(dataRows()[0]!)).toBe('Place 000000');
  });

  it('renders page text as text and links only http(s) websites', async () => {
    const rows = makeRows().slice(0, 10);
    rows[0] = { ...rows[0]!, name: '<img src=x onerror=alert(1)>', address: '<b>bold</b>' };
    await mount(rows);
    expect(host.querySelector('tbody img, tbody b')).toBeNull();
    expect(firstCellText(dataRows()[0]!)).toBe('<img src=x onerror=alert(1)>');
    const hrefs = [...host.querySelectorAll('tbody a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toContain('https://ok.example/');
    expect(hrefs.some((href) => href?.startsWith('javascript:'))).toBe(false);
    expect(dataRows()[1]!.cells[4]!.textContent).toBe('javascript:alert(1)');
  });

  it("names each place's site and links the place to its own URL (Google, Naver, Kakao mixed)", async () => {
    const rows = makeRows().slice(0, 4);
    rows[1] = { ...rows[1]!, provider: 'naver', cid: null, url: 'https://map.naver.com/p/entry/place/1234567' };
    rows[2] = { ...rows[2]!, provider: 'kakao', cid: null, url: 'https://place.map.kakao.com/98765' };
    rows[3] = { ...rows[3]!, provider: 'kakao', cid: null, url: null };
    await mount(rows);
    const shown = dataRows();
    expect(shown.map((r) => r.cells[0]!.querySelector('.provider')!.textContent)).toEqual(['Google', 'Naver', 'Kakao', 'Kakao']);
    expect(shown.map((r) => r.cells[0]!.querySelector('a.name')?.getAttribute('href') ?? null)).toEqual([
      'https://www.google.com/maps?cid=1000000',
      'https://map.naver.com/p/entry/place/1234567',
      'https://place.map.kakao.com/98765',
      null,
    ]);
    expect(firstCellText(shown[3]!)).toBe('Place 000003');
  });

  it('says it is loading, with the count so far, while the first batches arrive', async () => {
    const rows = makeRows().slice(0, 3000);
    await act(() => {
      render(h(ListingsTable, { rows, loaded: 2000, loading: true, expected: 3000, viewportHeight: VIEWPORT }), host);
    });
    expect(host.querySelector('[role="status"]')!.textContent).toBe('Loading places… 2,000 of 3,000');
    expect(host.querySelector('table')!.getAttribute('aria-rowcount')).toBe(String(2001));
  });
});
