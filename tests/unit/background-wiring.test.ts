import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { leaseNextCell } from '../../utils/queue';
import { openStore } from '../../utils/store';
import { makeCells, makeSweep } from './store-fixtures';

/** A fresh background module: its messaging allows one listener per name and module instance. */
async function freshBackground() {
  vi.resetModules();
  return (await import('../../utils/app/background')).createBackground;
}

/** A message as @webext-core/messaging sends it, delivered with the given sender. */
async function deliver(type: string, data: unknown, sender: Record<string, unknown>): Promise<unknown> {
  const replies = await fakeBrowser.runtime.onMessage.trigger({ id: 1, type, data, timestamp: Date.now() }, sender, () => {});
  return replies.find((r) => r !== undefined);
}

describe('background wiring (fakeBrowser)', () => {
  it("commands only from the extension's own pages: a web page, a content script or another extension is refused", async () => {
    const store = await openStore(); // the background's own database
    await store.createSweep(makeSweep('bg1', { status: 'paused', pauseReason: 'user' }), makeCells('bg1', 2));
    await fakeBrowser.storage.session.set({ 'session-alive': true });
    (await freshBackground())(fakeBrowser);
    const own = { id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL('/popup.html') };
    const refused = [
      { id: fakeBrowser.runtime.id, url: 'https://www.google.com/maps/search/cafe', tab: { id: 3 } }, // our content script
      { id: 'another-extension', url: 'chrome-extension://another-extension/popup.html' },
      { url: 'https://example.com/' },
      { id: fakeBrowser.runtime.id }, // no page at all
    ];
    for (const sender of refused) {
      const reply = (await deliver('stopSweep', 'bg1', sender)) as { err?: { message: string } };
      expect(reply?.err?.message).toMatch(/stopSweep is accepted only from MapSweep.s own pages/);
    }
    expect((await store.getSweep('bg1'))?.status).toBe('paused');
    expect(await deliver('stopSweep', 'bg1', own)).toEqual({ res: { ok: true } });
    expect((await store.getSweep('bg1'))?.status).toBe('stopped');
    store.close();
  });

  it('the restart path: a browser restart (no session flag) pauses running sweeps and gives back their leases at once', async () => {
    const store = await openStore();
    await store.createSweep(makeSweep('bg2'), makeCells('bg2', 2));
    expect(await leaseNextCell(store, { sweepId: 'bg2', holder: 'loop:old', now: Date.now(), leaseMs: 600_000 })).not.toBeNull();
    (await freshBackground())(fakeBrowser); // session storage is empty: the browser was restarted
    await vi.waitFor(async () => expect((await store.getSweep('bg2'))?.pauseReason).toBe('restart'), { timeout: 3000 });
    expect(await store.listCells('bg2', 'leased')).toEqual([]);
    expect((await fakeBrowser.storage.session.get('session-alive'))['session-alive']).toBe(true);
    store.close();
  });

  it("a worker restart (session flag set) does not pause as after a browser restart, and gives the dead loops' leases back", async () => {
    const store = await openStore();
    await store.createSweep(makeSweep('bg3'), makeCells('bg3', 2));
    // The stopped worker's loop held a cell with a long lease.
    const held = await leaseNextCell(store, { sweepId: 'bg3', holder: 'loop:old', now: Date.now(), leaseMs: 600_000 });
    expect(held?.status).toBe('leased');
    await fakeBrowser.storage.session.set({ 'session-alive': true });
    (await freshBackground())(fakeBrowser);
    // No map tab in this fake browser: the sweep asks for one, which shows the loops were started.
    await vi.waitFor(async () => expect((await store.getSweep('bg3'))?.status).toBe('paused'), { timeout: 3000 });
    expect((await store.getSweep('bg3'))?.pauseReason).toBe('user');
    expect((await store.getCell(held!.id))?.leaseHolder).not.toBe('loop:old');
    store.close();
  });
});
