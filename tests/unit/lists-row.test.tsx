// @vitest-environment happy-dom
/**
 * A list's row in Collections (issue 40): its state, progress and the reason it waits; why each
 * entry failed (line, what it named, the reason) with the lines refused when it was confirmed; and
 * the controls its state allows. Page text (a line as written) is shown as text, never markup.
 */
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, expect, it } from 'vitest';
import { CollectionsPanel } from '../../components/dashboard/CollectionsPanel';
import { summarise } from '../../utils/dashboard/collections';
import type { PlaceList } from '../../utils/lists';
import { useEnglishMessages } from '../helpers/english-messages';

const host = document.createElement('div');
afterEach(() => render(null, host));

function list(over: Partial<PlaceList> = {}): PlaceList {
  return {
    id: 'list-abcd',
    name: 'Clients',
    status: 'finished',
    problem: null,
    createdAt: 1,
    updatedAt: 2,
    sites: ['naver'],
    counts: { places: 3, shares: 1, bad: 1, duplicates: 0, storedBefore: 0 },
    bad: [{ line: 4, text: '<img src=x onerror=alert(1)>', reason: 'HTML, not a link: paste the link itself' }],
    settings: { maxAttempts: 3, loadTimeoutMs: 30_000 },
    ...over,
  };
}

it("shows a list's progress, what failed and why, and the controls its state allows", async () => {
  useEnglishMessages();
  const progress = new Map([['list-abcd', { open: 0, done: 2, failed: 1, total: 3 }]]);
  const failures = new Map([['list-abcd', [{ line: 2, entry: 'https://naver.me/abc1234', reason: 'the share link led to no place page' }]]]);
  const collections = summarise([], new Map([['list-abcd', 2]]), [list()], progress, failures);
  await act(() => {
    render(
      h(CollectionsPanel, { store: null, collections, selectedId: null, onSelect: () => {}, onChanged: () => {}, confirm: () => true, now: () => 0 }),
      host,
    );
  });
  const row = [...host.querySelectorAll('tbody tr')].find((r) => r.textContent?.includes('Clients'))!;
  expect(row.textContent).toContain('2 of 3 read, 1 failed');
  const table = row.querySelector('table[aria-label="What failed in Clients, and why"]')!;
  const cells = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  expect(cells).toEqual([
    ['2', 'https://naver.me/abc1234', 'the share link led to no place page'],
    ['4', '<img src=x onerror=alert(1)>', 'HTML, not a link: paste the link itself'],
  ]);
  expect(host.querySelector('img')).toBeNull();
  const button = (label: string) =>
    [...host.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === `${label} – Clients`) as HTMLButtonElement;
  expect([button('Pause').disabled, button('Resume').disabled, button('Read reviews').disabled, button('Delete').disabled]).toEqual([true, true, false, false]);
});

it('a paused list says why, in the interface language', async () => {
  useEnglishMessages();
  const collections = summarise([], new Map(), [list({ status: 'paused', problem: { kind: 'no-guard', message: 'x', at: 1 } })]);
  await act(() => {
    render(
      h(CollectionsPanel, { store: null, collections, selectedId: null, onSelect: () => {}, onChanged: () => {}, confirm: () => true, now: () => 0 }),
      host,
    );
  });
  expect(host.textContent).toContain("Paused: this browser cannot keep the list's tab on the map sites");
});
