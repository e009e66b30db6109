/**
 * Functions a browser test runs inside a page, shared by the Chromium harness (playwright-core)
 * and the Firefox one (puppeteer-core): both serialise the function and run it there, so each is
 * self-contained (no import, no closure) and takes one argument. Called as
 * `page.evaluate(readStoreInPage, 'listings')` with either library.
 */
import { parsePlaceUrl } from '../../utils/providers/google/urls';

export type StoreName = 'sweeps' | 'cells' | 'listings' | 'events' | 'businesses' | 'linkRuns' | 'reviews' | 'reviewQueue' | 'placeQueue' | 'placeLists';

/** Every record of one object store of the extension's IndexedDB (an extension page; a store not there yet: none). */
export function readStoreInPage(name: StoreName): Promise<unknown[]> {
  return new Promise<unknown[]>((resolve, reject) => {
    const req = indexedDB.open('mapsweep');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(name)) {
        db.close();
        resolve([]);
        return;
      }
      const all = db.transaction(name, 'readonly').objectStore(name).getAll();
      all.onsuccess = () => {
        db.close();
        resolve(all.result as unknown[]);
      };
      all.onerror = () => reject(all.error);
    };
  });
}

/**
 * `count` places put straight into the extension's IndexedDB (as the store keeps them), in the
 * Browsing collection, 5,000 per transaction; their CIDs start with `cidPrefix` so two seedings
 * never collide.
 */
export async function seedBrowsingInPage(req: { count: number; cidPrefix: string }): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const r = indexedDB.open('mapsweep');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  for (let start = 0; start < req.count; start += 5000) {
    const tx = db.transaction('listings', 'readwrite');
    const store = tx.objectStore('listings');
    for (let i = start; i < Math.min(req.count, start + 5000); i++) {
      const cid = `${req.cidPrefix}${String(i).padStart(18, '0')}`;
      store.put({
        key: `google:${cid}`,
        provider: 'google',
        placeId: null,
        featureId: null,
        cid,
        name: `카페 ${i} 광화문점`,
        category: '카페',
        address: `서울특별시 종로구 세종대로 ${i}`,
        phone: '02-1234-5678',
        website: `https://example.com/${i}`,
        rating: 4.5,
        reviews: i,
        lat: 37.5 + i / 1e6,
        lng: 126.9 + i / 1e6,
        url: `https://www.google.com/maps?cid=${cid}`,
        sponsored: false,
        firstSeen: 1_780_000_000_000,
        lastSeen: 1_780_000_000_000,
        collections: ['browsing'],
        keywords: [],
        cells: [],
      });
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  }
  db.close();
}

/** The place links of a Google results feed's organic cards now (sponsored cards are ads, not results). */
export function organicFeedLinksInPage(): string[] {
  return [...document.querySelectorAll('[role="feed"] [role="article"]')]
    .filter((card) => !card.querySelector('[aria-label="Sponsored"]'))
    .map((card) => card.querySelector('a[href*="/maps/place/"]')?.getAttribute('href') ?? '');
}

/** Those links as the store's place keys. */
export function placeKeysOf(links: readonly string[]): string[] {
  return links.map((h) => parsePlaceUrl(h).key!).filter(Boolean);
}

/**
 * From an extension page shown as a tab: the tab it covers (the one used last before it) back in
 * front, as a real action popup leaves it. A tab behind another is drawn only now and then in
 * both browsers, and the map pages' lists ask for their next batch on scroll events that wait for
 * a drawing (measured in Chromium: 3 scroll events a second covered against 50-60 in front).
 */
export async function showCoveredTabInPage(): Promise<void> {
  type Tab = { id?: number; windowId?: number; lastAccessed?: number };
  type Tabs = { getCurrent(): Promise<Tab | undefined>; query(q: object): Promise<Tab[]>; update(id: number, p: object): Promise<unknown> };
  const g = globalThis as unknown as { browser?: { tabs: Tabs }; chrome?: { tabs: Tabs } };
  const tabs = (g.browser ?? g.chrome)!.tabs;
  const self = await tabs.getCurrent();
  if (!self) return;
  const others = (await tabs.query({ windowId: self.windowId })).filter((t) => t.id !== self.id);
  const covered = others.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
  if (covered?.id !== undefined) await tabs.update(covered.id, { active: true });
}
