// @vitest-environment happy-dom
/**
 * The popup's count of places the store refused (issue 22), with their reasons: page text in a
 * reason stays text, never markup.
 */
import { h, render } from 'preact';
import { describe, expect, it } from 'vitest';
import { SweepStatus } from '../../components/SweepStatus';
import { initialCounters } from '../../utils/domain/counters';
import { useEnglishMessages } from '../helpers/english-messages';
import { makeSweep } from './store-fixtures';

describe('the popup shows refused places', () => {
  it('"N places refused" with the reasons, escaped', () => {
    useEnglishMessages();
    const reason = 'key "<img src=x onerror=alert(1)>" does not match cid 5';
    const sweep = makeSweep('s1', {
      counters: { ...initialCounters([]), listingsRefused: 2 },
      refusedReasons: ['name, categories beyond the listing bounds', reason],
    });
    const host = document.createElement('div');
    render(h(SweepStatus, { sweep, quarantined: [], currentKeyword: null, pageHidden: false, places: 10, now: 2_000 }), host);
    const item = host.querySelector('.warning-refused');
    expect(item?.textContent).toBe(`2 places refused (not saved; the rest of their cells was): name, categories beyond the listing bounds; ${reason}`);
    expect(host.querySelector('img')).toBeNull();
    render(null, host);
  });
});
