import type { WxtBrowser as Browser } from 'wxt/browser';

/**
 * The map tab the user means: the most recently used tab of the map site (`patterns`, a
 * provider's tabPatterns). Not "the active tab", because a popup opened as
 * a tab (or the dashboard) is itself the active tab.
 */
export async function findMapTab(
  browser: Browser,
  patterns: string[],
  exclude: ReadonlySet<number> = new Set(),
): Promise<{ id: number; url: string; width: number; height: number } | null> {
  const tabs = await browser.tabs.query({ url: patterns });
  const best = tabs.filter((t) => t.id !== undefined && t.url && !exclude.has(t.id)).sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
  if (!best) return null;
  return { id: best.id!, url: best.url!, width: best.width ?? 1280, height: best.height ?? 800 };
}

/** How a worker window's start page is loaded: in its turn of the host's pacing lane (utils/queue/pacing.ts). */
export interface StartPage {
  url: string;
  /** The pacer's acquire: resolves at the host's turn, with the function that ends it. */
  turn(url: string): Promise<() => void>;
  /** Loads `url` in the tab and waits until it has loaded (PageDriver.load). */
  load(tabId: number, url: string): Promise<unknown>;
  /** The window's tabs exist (nothing loaded yet): told before the start page waits its turn. */
  opened?(tabIds: number[]): Promise<unknown>;
}

/**
 * Worker tabs in a window of their own, so the user's tab stays free. The window opens blank;
 * only its first tab loads the map site's start page, in its turn of the host's lane, and the
 * others load nothing until their loop's first search takes its own turn (utils/sweep/driver.ts):
 * a window of 3 never sends its page loads back to back.
 */
export async function openWorkerWindow(browser: Browser, count: number, start: StartPage): Promise<number[]> {
  const win = await browser.windows.create({ url: BLANK, focused: false, width: 1280, height: 900 });
  const ids = (win?.tabs ?? []).map((t) => t.id!).filter((id) => id !== undefined);
  for (let i = ids.length; i < count; i++) {
    const tab = await browser.tabs.create({ windowId: win!.id, url: BLANK, active: false });
    if (tab.id !== undefined) ids.push(tab.id);
  }
  await start.opened?.(ids);
  const first = ids[0];
  if (first !== undefined) {
    const release = await start.turn(start.url);
    // A start page that fails to load is no reason not to sweep: the first search tells.
    await start
      .load(first, start.url)
      .catch(() => {})
      .finally(release);
  }
  return ids;
}

/** A tab with nothing loaded: no request to any site. */
const BLANK = 'about:blank';
