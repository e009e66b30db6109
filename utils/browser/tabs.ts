import type { WxtBrowser as Browser } from 'wxt/browser';

export const MAPS_TAB_PATTERN = 'https://www.google.com/maps/*';

/**
 * The map tab the user means: the most recently used tab of the map site (`patterns`, a
 * provider's tabPatterns; default Google Maps). Not "the active tab", because a popup opened as
 * a tab (or the dashboard) is itself the active tab.
 */
export async function findMapTab(
  browser: Browser,
  exclude: ReadonlySet<number> = new Set(),
  patterns: string[] = [MAPS_TAB_PATTERN],
): Promise<{ id: number; url: string; width: number; height: number } | null> {
  const tabs = await browser.tabs.query({ url: patterns });
  const best = tabs
    .filter((t) => t.id !== undefined && t.url && !exclude.has(t.id))
    .sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
  if (!best) return null;
  return { id: best.id!, url: best.url!, width: best.width ?? 1280, height: best.height ?? 800 };
}

/** Worker tabs in a window of their own, so the user's tab stays free. */
export async function openWorkerWindow(browser: Browser, count: number, start = 'https://www.google.com/maps'): Promise<number[]> {
  const win = await browser.windows.create({ url: start, focused: false, width: 1280, height: 900 });
  const ids = (win?.tabs ?? []).map((t) => t.id!).filter((id) => id !== undefined);
  for (let i = ids.length; i < count; i++) {
    const tab = await browser.tabs.create({ windowId: win!.id, url: start, active: false });
    if (tab.id !== undefined) ids.push(tab.id);
  }
  return ids;
}
