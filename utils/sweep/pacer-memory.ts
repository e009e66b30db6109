import type { HostPace, PacerMemory } from '../queue/pacing';

/** storage.local key of the pacer's lanes: { [host]: { lastLoadAt, penaltyMs } }. */
export const PACER_KEY = 'pacer';

/** The part of a browser.storage area the pacer needs (storage.local in the background). */
export interface KeyValueArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/**
 * The pacer's memory in extension storage. storage.local, not session: session storage is
 * emptied by a browser restart, which is exactly the restart that must not shorten the delay.
 * Wall-clock times, so they mean the same thing to the next browser session.
 *
 * Only one pacer (the background's) writes, so the whole record is kept here and written
 * back on each save, one write after another (two saves never interleave a stale copy).
 */
export function storagePacerMemory(area: KeyValueArea): PacerMemory {
  let paces: Record<string, HostPace> | null = null;
  let writing: Promise<void> = Promise.resolve();

  async function current(): Promise<Record<string, HostPace>> {
    if (!paces) paces = readPaces((await area.get(PACER_KEY))[PACER_KEY]);
    return paces;
  }

  return {
    async load() {
      return { ...(await current()) };
    },
    save(host, pace) {
      const next = writing.then(async () => {
        const all = await current();
        all[host] = { lastLoadAt: pace.lastLoadAt, penaltyMs: pace.penaltyMs };
        await area.set({ [PACER_KEY]: { ...all } });
      });
      writing = next.catch(() => {});
      return next;
    },
  };
}

/** A stored value read defensively: anything that is not a finite time is dropped, not trusted. */
export function readPaces(value: unknown): Record<string, HostPace> {
  const out: Record<string, HostPace> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [host, raw] of Object.entries(value as Record<string, unknown>)) {
    const p = (raw ?? {}) as Partial<HostPace>;
    if (typeof p.lastLoadAt !== 'number' || !Number.isFinite(p.lastLoadAt)) continue;
    const penalty = typeof p.penaltyMs === 'number' && Number.isFinite(p.penaltyMs) && p.penaltyMs > 0 ? p.penaltyMs : 0;
    out[host] = { lastLoadAt: p.lastLoadAt, penaltyMs: penalty };
  }
  return out;
}
