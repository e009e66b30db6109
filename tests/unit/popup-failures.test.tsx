// @vitest-environment happy-dom
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Popup } from '../../components/Popup';
import { openStore } from '../../utils/store';
import { DISK_FULL_KEY } from '../../utils/sweep/disk-full';
import { makeCells, makeSweep } from './store-fixtures';
import { useEnglishMessages } from '../helpers/english-messages';

describe('the popup shows failures', () => {
  const host = document.createElement('div');
  afterEach(() => {
    render(null, host);
    vi.restoreAllMocks();
  });

  it('says "disk full" from the storage.local flag, though IndexedDB still says running; a failed CSV export shows a message', async () => {
    useEnglishMessages();
    const store = await openStore();
    await store.createSweep(makeSweep('pf1', { status: 'running', createdAt: Date.now() }), makeCells('pf1', 2));
    await fakeBrowser.storage.local.set({ [DISK_FULL_KEY]: { sweepId: 'pf1', at: 1, message: 'The disk is full' } });
    document.body.append(host);
    await act(async () => {
      render(h(Popup, {}), host);
      await new Promise((r) => setTimeout(r, 300));
    });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 1200));
    });
    const alerts = [...host.querySelectorAll('[role=alert]')].map((e) => e.textContent);
    expect(alerts.some((t) => t?.includes('Disk full: the sweep is paused. The last saved result is intact'))).toBe(true);
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    // The listings cannot be read (IndexedDB fails the reads the export makes).
    const getAll = IDBObjectStore.prototype.getAll;
    vi.spyOn(IDBObjectStore.prototype, 'getAll').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'listings') throw new DOMException('read failed', 'UnknownError');
      return getAll.apply(this, args);
    });
    const openCursor = IDBIndex.prototype.openCursor;
    vi.spyOn(IDBIndex.prototype, 'openCursor').mockImplementation(function (this: IDBIndex, ...args) {
      if (this.objectStore.name === 'listings') throw new DOMException('read failed', 'UnknownError');
      return openCursor.apply(this, args);
    });
    const exportButton = [...host.querySelectorAll('button')].find((b) => b.textContent === 'Export CSV');
    if (!exportButton) throw new Error([...host.querySelectorAll('button')].map((b) => b.textContent).join('|'));
    await act(async () => {
      exportButton.click();
      await new Promise((r) => setTimeout(r, 100));
    });
    const after = [...host.querySelectorAll('[role=alert]')].map((e) => e.textContent);
    expect(after.some((t) => t?.startsWith('The export failed, nothing was downloaded:'))).toBe(true);
    expect(clicks).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    store.close();
  });
});
