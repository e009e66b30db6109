/**
 * The team's progress for the popup: cells settled by each browser and places collected in all.
 * Each browser keeps one small document per sweep, `progress:{sweep}:{browser}`, that only it
 * writes: the cells it settled and the places it was first to write. A place's document is
 * created exactly once (CouchDB refuses a second create), so the sum over browsers is the
 * team's number of distinct places. A poll reads a handful of documents however large the
 * sweep. (A view would count it too, but only a database admin may write one, and the
 * README's member user is not one.)
 *
 * CouchDB has no transaction across documents, so a count written after the write it counts is
 * lost when the browser dies in between (a killed browser, a service worker stopped, an answer
 * that never came). So a write that may create places or settle a cell is *announced* first:
 * its documents, with the write's own id, go on the progress document's `pending` list before
 * the write, and leave it, counted from the write's answer, after. A write whose answer never
 * came stays pending for good, and is counted from the documents themselves by whoever reads: a
 * place whose `addedIn` for the sweep is that very write, a cell whose settlement is that very
 * one (its browser, generation and time). Exact whatever moment the browser died at, whenever a
 * late write lands, and however many of one browser's writes raced for one place (only one of
 * them is the write that added it). Only those few documents are read.
 */
import type { Couch, CouchDoc } from './couch';
import { isCellDoc, isPlaceDoc, placeDocId, TEAM_SCHEMA, type CellDoc, type PlaceDoc } from './docs';

export interface ProgressDoc extends CouchDoc {
  type: 'progress';
  schema: typeof TEAM_SCHEMA;
  sweepId: string;
  browser: string;
  name: string;
  cells: number;
  places: number;
  /** Writes announced and not yet counted (see the head comment): `place:{key}#{write}` or `cell:{…}#{generation}#{at}`. */
  pending?: string[];
  /** The last write's own mark: a write whose answer was lost is known applied when the document bears it. */
  mark?: string;
}

export const progressDocId = (sweepId: string, browser: string) => `progress:${sweepId}:${browser}`;

/** A place that the write `write` may add the sweep to. */
export const placeToken = (key: string, write: string) => `${placeDocId(key)}#${write}`;
/** A cell whose settlement of this generation, made at `at`, is being written. */
export const cellToken = (cellDocId: string, generation: number, at: number) => `${cellDocId}#${generation}#${at}`;

function isProgressDoc(d: unknown): d is ProgressDoc {
  const p = d as ProgressDoc | null;
  return (
    !!p &&
    p.type === 'progress' &&
    p.schema === TEAM_SCHEMA &&
    typeof p.browser === 'string' &&
    Number.isFinite(p.cells) &&
    Number.isFinite(p.places) &&
    (p.pending === undefined || (Array.isArray(p.pending) && p.pending.every((t) => typeof t === 'string')))
  );
}

interface Counts {
  cells: number;
  places: number;
}

/** What the announced writes of `browser` did, read from the documents they wrote. */
async function countPending(couch: Couch, sweepId: string, browser: string, tokens: readonly string[]): Promise<Counts> {
  const out = { cells: 0, places: 0 };
  const parsed = tokens.map((t) => {
    const parts = t.split('#');
    return t.startsWith('cell:')
      ? { id: parts.slice(0, -2).join('#'), generation: Number(parts.at(-2)), at: Number(parts.at(-1)), write: '' }
      : { id: parts.slice(0, -1).join('#'), generation: 0, at: 0, write: parts.at(-1) ?? '' };
  });
  for (let i = 0; i < parsed.length; i += 200) {
    const docs = await couch.getMany<CouchDoc>(parsed.slice(i, i + 200).map((p) => p.id));
    docs.forEach((doc, j) => {
      const p = parsed[i + j]!;
      if (p.id.startsWith('cell:')) {
        const settle = doc && isCellDoc(doc) ? (doc as CellDoc).settle : null;
        if (settle?.by === browser && settle.generation === p.generation && settle.at === p.at) out.cells++;
      } else if (doc && isPlaceDoc(doc)) {
        const place = doc as PlaceDoc;
        if (place.addedBy?.[sweepId] === browser && place.addedIn?.[sweepId] === p.write) out.places++;
      }
    });
  }
  return out;
}

/** This browser's side of one sweep's progress document. */
interface Owed {
  counts: Counts;
  /** Announced, to be added to `pending`. */
  add: Set<string>;
  /** Answered and counted in `counts`, to leave `pending`. */
  drop: Set<string>;
}

const nothingOwed = (): Owed => ({ counts: { cells: 0, places: 0 }, add: new Set(), drop: new Set() });

export interface ProgressLedger {
  /**
   * Before a write that may create places or settle cells: its documents are recorded as
   * pending. Throws when they could not be (the write must then not be made).
   */
  announce(sweepId: string, tokens: readonly string[]): Promise<void>;
  /** The write was answered: what it created is counted, its documents leave `pending` (written now or with the next write; never throws). */
  answered(sweepId: string, tokens: readonly string[], created: Partial<Counts>): Promise<void>;
  /** Writes whatever is owed; resolves when nothing is (a failure stays owed, and rejects). */
  settle(): Promise<void>;
}

export function createProgressLedger(couch: Couch, me: { browserId: string; name: string }): ProgressLedger {
  const owed = new Map<string, Owed>();
  /**
   * Per sweep, a write whose answer never came: it may have been applied. Its document carries
   * the write's mark, so the next write reads whether it was, and applies it again only if not.
   */
  const unsure = new Map<string, { mark: string; o: Owed }>();
  /** The document as last written, so a write needs no read (only this browser writes it). */
  const last = new Map<string, ProgressDoc>();
  let writing: Promise<void> | null = null;

  const owedOf = (sweepId: string) => {
    const o = owed.get(sweepId) ?? nothingOwed();
    owed.set(sweepId, o);
    return o;
  };

  async function read(id: string): Promise<ProgressDoc | null> {
    const doc = await couch.get<CouchDoc>(id);
    // A document this version does not read is replaced (it is this browser's own, display only).
    return doc && isProgressDoc(doc) ? doc : doc ? ({ _id: id, _rev: doc._rev } as ProgressDoc) : null;
  }

  async function writeAll(): Promise<void> {
    for (const sweepId of new Set([...owed.keys(), ...unsure.keys()])) {
      const id = progressDocId(sweepId, me.browserId);
      let o = owed.get(sweepId) ?? nothingOwed();
      owed.delete(sweepId);
      let doc = last.get(id) ?? null;
      const u = unsure.get(sweepId);
      if (u) {
        unsure.delete(sweepId);
        try {
          doc = await read(id);
        } catch (e) {
          unsure.set(sweepId, u);
          owed.set(sweepId, merged(o, owedOf(sweepId)));
          throw e;
        }
        if (doc?.mark !== u.mark) o = merged(u.o, o);
      }
      const mark = crypto.randomUUID();
      try {
        await writeOne(id, sweepId, o, doc, mark);
      } catch (e) {
        unsure.set(sweepId, { mark, o });
        last.delete(id);
        throw e;
      }
    }
  }

  async function writeOne(id: string, sweepId: string, o: Owed, known: ProgressDoc | null, mark: string) {
    let doc = known;
    for (let i = 0; i < 5; i++) {
      const was = doc?.pending ?? [];
      const pending = [...new Set([...was, ...o.add])].filter((t) => !o.drop.has(t));
      const next: ProgressDoc = {
        _id: id,
        ...(doc?._rev ? { _rev: doc._rev } : {}),
        type: 'progress',
        schema: TEAM_SCHEMA,
        sweepId,
        browser: me.browserId,
        name: me.name,
        cells: (doc?.cells ?? 0) + o.counts.cells,
        places: (doc?.places ?? 0) + o.counts.places,
        ...(pending.length > 0 ? { pending } : {}),
        mark,
      };
      const put = await couch.put(next);
      if (put.ok) {
        last.set(id, { ...next, _rev: put.rev });
        return;
      }
      // Refused, so not applied: read the document as it is and write again.
      doc = await read(id);
    }
    throw new Error('This browser\u2019s progress document kept conflicting.');
  }

  function settle(): Promise<void> {
    if (owed.size === 0 && unsure.size === 0) return writing ?? Promise.resolve();
    const run = async () => {
      while (owed.size > 0 || unsure.size > 0) await writeAll();
    };
    writing ??= run().finally(() => (writing = null));
    return writing;
  }

  return {
    async announce(sweepId, tokens) {
      if (tokens.length === 0) return;
      const o = owedOf(sweepId);
      for (const t of tokens) {
        o.add.add(t);
        o.drop.delete(t);
      }
      try {
        // A write already under way may have started before these were owed: settle until they are written.
        while (tokens.some((t) => owed.get(sweepId)?.add.has(t) || unsure.get(sweepId)?.o.add.has(t))) await settle();
      } catch (e) {
        // Not recorded (or not known to be): the write is not made, so nothing these name is written by it.
        for (const t of tokens) {
          owed.get(sweepId)?.add.delete(t);
          unsure.get(sweepId)?.o.add.delete(t);
        }
        throw e;
      }
    },
    answered(sweepId, tokens, created) {
      const o = owedOf(sweepId);
      o.counts.cells += created.cells ?? 0;
      o.counts.places += created.places ?? 0;
      for (const t of tokens) {
        o.add.delete(t);
        o.drop.add(t);
      }
      return settle().catch(() => {});
    },
    settle,
  };
}

function merged(a: Owed, b: Owed): Owed {
  return {
    counts: { cells: a.counts.cells + b.counts.cells, places: a.counts.places + b.counts.places },
    add: new Set([...[...a.add].filter((t) => !b.drop.has(t)), ...b.add]),
    drop: new Set([...[...a.drop].filter((t) => !b.add.has(t)), ...b.drop]),
  };
}

export interface TeamProgress {
  browsers: { id: string; name: string; cells: number; me: boolean }[];
  cells: number;
  places: number;
}

export async function teamProgress(couch: Couch, sweepId: string, browserId: string): Promise<TeamProgress> {
  const docs = (await couch.byPrefix<ProgressDoc>(`progress:${sweepId}:`)).filter(isProgressDoc);
  const counted = await Promise.all(
    docs.map(async (d) => {
      const pending = d.pending?.length ? await countPending(couch, sweepId, d.browser, d.pending) : { cells: 0, places: 0 };
      return { id: d.browser, name: d.name, cells: d.cells + pending.cells, places: d.places + pending.places, me: d.browser === browserId };
    }),
  );
  const browsers = counted.map(({ places: _p, ...b }) => b);
  browsers.sort((a, b) => b.cells - a.cells || a.name.localeCompare(b.name));
  return { browsers, cells: browsers.reduce((n, b) => n + b.cells, 0), places: counted.reduce((n, d) => n + d.places, 0) };
}
