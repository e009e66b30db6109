/**
 * The team's progress for the popup: cells settled by each browser and places collected in all.
 * Each browser keeps one small document per sweep, `progress:{sweep}:{browser}`, that only it
 * writes: the cells it settled and the places it was first to write. A place's document is
 * created exactly once (CouchDB refuses a second create), so the sum over browsers is the
 * team's number of distinct places. A poll reads a handful of documents however large the
 * sweep. (A view would count it too, but only a database admin may write one, and the
 * README's member user is not one.)
 */
import type { Couch, CouchDoc } from './couch';
import { TEAM_SCHEMA } from './docs';

export interface ProgressDoc extends CouchDoc {
  type: 'progress';
  schema: typeof TEAM_SCHEMA;
  sweepId: string;
  browser: string;
  name: string;
  cells: number;
  places: number;
}

export const progressDocId = (sweepId: string, browser: string) => `progress:${sweepId}:${browser}`;

function isProgressDoc(d: unknown): d is ProgressDoc {
  const p = d as ProgressDoc | null;
  return !!p && p.type === 'progress' && p.schema === TEAM_SCHEMA && typeof p.browser === 'string' && Number.isFinite(p.cells) && Number.isFinite(p.places);
}

/** Adds to this browser's counts; several adds at once are written as one. */
export function createProgressWriter(couch: Couch, me: { browserId: string; name: string }) {
  const owed = new Map<string, { cells: number; places: number }>();
  let writing: Promise<void> | null = null;

  async function writeAll(): Promise<void> {
    for (const [sweepId, add] of [...owed]) {
      owed.delete(sweepId);
      try {
        await writeOne(sweepId, add);
      } catch (e) {
        // Owed again: written with the next add, or the next flush.
        const again = owed.get(sweepId) ?? { cells: 0, places: 0 };
        owed.set(sweepId, { cells: again.cells + add.cells, places: again.places + add.places });
        throw e;
      }
    }
  }

  async function writeOne(sweepId: string, add: { cells: number; places: number }) {
    const id = progressDocId(sweepId, me.browserId);
    for (let i = 0; i < 5; i++) {
      const doc = await couch.get<ProgressDoc>(id);
      const base = doc && isProgressDoc(doc) ? doc : null;
      const next: ProgressDoc = {
        _id: id,
        ...(doc?._rev ? { _rev: doc._rev } : {}),
        type: 'progress',
        schema: TEAM_SCHEMA,
        sweepId,
        browser: me.browserId,
        name: me.name,
        cells: (base?.cells ?? 0) + add.cells,
        places: (base?.places ?? 0) + add.places,
      };
      if ((await couch.put(next)).ok) return;
    }
    throw new Error('This browser\u2019s progress document kept conflicting.');
  }

  return {
    /** Adds to what is owed (nothing, for `{}`) and writes everything owed. */
    add(sweepId: string, add: { cells?: number; places?: number }): Promise<void> {
      if (add.cells || add.places) {
        const o = owed.get(sweepId) ?? { cells: 0, places: 0 };
        owed.set(sweepId, { cells: o.cells + (add.cells ?? 0), places: o.places + (add.places ?? 0) });
      }
      if (owed.size === 0) return writing ?? Promise.resolve();
      const run = async () => {
        while (owed.size > 0) await writeAll();
      };
      writing ??= run().finally(() => (writing = null));
      return writing;
    },
  };
}

export interface TeamProgress {
  browsers: { id: string; name: string; cells: number; me: boolean }[];
  cells: number;
  places: number;
}

export async function teamProgress(couch: Couch, sweepId: string, browserId: string): Promise<TeamProgress> {
  const docs = (await couch.byPrefix<ProgressDoc>(`progress:${sweepId}:`)).filter(isProgressDoc);
  const browsers = docs.map((d) => ({ id: d.browser, name: d.name, cells: d.cells, me: d.browser === browserId }));
  browsers.sort((a, b) => b.cells - a.cells || a.name.localeCompare(b.name));
  return { browsers, cells: browsers.reduce((n, b) => n + b.cells, 0), places: docs.reduce((n, d) => n + d.places, 0) };
}
