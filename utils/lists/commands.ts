/**
 * The list commands (protocol.ts): each checks what it is given and changes the store in one
 * transaction; the driver (drive.ts) runs what they start. The list is parsed again here from
 * its text, never taken from the page that shows it: what is collected is what this check read.
 */
import type { AllSettings } from '../config/settings';
import type { ProviderId } from '../domain/place';
import type { StoredListing } from '../domain/listing';
import { needsDetails } from '../details/needs';
import { estimateList, parsePlaceList, type PlaceListResult } from '../input';
import type { CommandTable } from '../messaging/protocol';
import { StoreError, type Store } from '../store';
import { createList, listRefusal, type ReadList } from './create';
import { deleteList } from './delete';
import { MAX_SHOWN_BAD_LINES, type ListInput, type ListMessages } from './protocol';
import { listTransition, type ListEvent } from './status';
import { askListReviews } from './reviews';
import { keeper } from '../filters';
import { SITE_FILTER_CONTEXT } from '../providers/registry';

export interface ListCommandDeps {
  store: Store;
  now(): number;
  /** A new list id (`list-…`). */
  newListId(): string;
  settings(): Promise<AllSettings>;
  /** Ends a list's loop after the place in hand. */
  stop(listId: string): void;
  /** Starts loops for running lists (and sweeps) not driven yet. */
  ensureDriving(): Promise<void>;
}

function parse(req: ListInput): PlaceListResult {
  if (!req || typeof req.text !== 'string') return { status: 'refused', reason: 'The list is not text.' };
  const column = typeof req.column === 'string' && req.column !== '' ? req.column : null;
  const siteColumn = typeof req.siteColumn === 'string' && req.siteColumn !== '' ? req.siteColumn : null;
  return parsePlaceList(req.text, { column, siteColumn });
}

/** Places of the list already stored with nothing their page could add (they cost no load). */
function storedComplete(store: Store, list: ReadList): Promise<number> {
  return store.transact(['listings'], 'readonly', async (tx) => {
    const listings = tx.objectStore('listings');
    let n = 0;
    for (const place of list.places) {
      const stored = (await listings.get(place.key)) as StoredListing | undefined;
      if (stored && !needsDetails(stored)) n++;
    }
    return n;
  });
}

const notReadable = (r: Exclude<PlaceListResult, { status: 'read' }>) => ({
  ok: false as const,
  error: { code: r.status === 'choose-column' ? 'list-choose-column' : 'list-refused', message: r.reason, params: { reason: r.reason } },
});

export function createListCommands(deps: ListCommandDeps): CommandTable<ListMessages> {
  async function setStatus(listId: string, e: ListEvent) {
    const r = await listTransition(deps.store, listId, e, deps.now());
    if (r.ok) return { ok: true as const };
    if (r.status === null) return { ok: false as const, error: { code: 'no-list', message: 'That list no longer exists.' } };
    return { ok: false as const, error: { code: 'list-bad-state', message: `The list is ${r.status}.`, params: { status: r.status } } };
  }

  return {
    async checkList(req) {
      const read = parse(req);
      if (read.status !== 'read') return { ok: true, check: read };
      const storedBefore = await storedComplete(deps.store, read);
      const s = await deps.settings();
      const places = { google: 0, naver: 0, kakao: 0 } as Record<ProviderId, number>;
      for (const p of read.places) places[p.provider] = (places[p.provider] ?? 0) + 1;
      return {
        ok: true,
        check: {
          status: 'read',
          places,
          shares: read.shares.length,
          bad: read.bad.slice(0, MAX_SHOWN_BAD_LINES),
          badCount: read.bad.length,
          duplicates: read.duplicates,
          entries: read.entries,
          column: read.column,
          header: read.header,
          storedBefore,
          estimate: estimateList({ places: read.places.length - storedBefore, shares: read.shares.length }, s),
        },
      };
    },
    async startList(req) {
      const read = parse(req);
      if (read.status !== 'read') return notReadable(read);
      const name = typeof req.name === 'string' ? req.name : '';
      const refused = listRefusal({ name, list: read });
      if (refused) return { ok: false, error: { code: 'list-refused', message: refused, params: { reason: refused } } };
      const s = await deps.settings();
      try {
        const list = await createList(deps.store, {
          id: deps.newListId(),
          name,
          list: read,
          settings: { lang: s.lang, maxAttempts: s.maxAttempts, loadTimeoutMs: s.cellTimeoutMs },
          now: deps.now(),
        });
        await deps.ensureDriving();
        return { ok: true, listId: list.id };
      } catch (e) {
        if (e instanceof StoreError && e.code === 'quota')
          return { ok: false, error: { code: 'quota', message: 'The disk is full: nothing of the list was saved. Free some space and confirm again.' } };
        throw e;
      }
    },
    async pauseList(id) {
      deps.stop(id);
      return setStatus(id, { event: 'pause', problem: { kind: 'user', message: 'Paused.', at: deps.now() } });
    },
    async resumeList(id) {
      const reply = await setStatus(id, { event: 'resume' });
      if (reply.ok) await deps.ensureDriving();
      return reply;
    },
    async stopList(id) {
      deps.stop(id);
      return setStatus(id, { event: 'stop' });
    },
    async readListReviews(id) {
      const s = await deps.settings();
      const limits = { reviewsPerPlace: s.reviewsPerPlace, reviewsSince: s.reviewsSince, reviewsKeepAuthor: s.reviewsKeepAuthor };
      // The places the person would export now: those that pass the filters of the moment.
      const asked = await askListReviews(deps.store, { listId: id, limits, now: deps.now(), keep: keeper(s.filters, SITE_FILTER_CONTEXT) });
      if (!asked.ok) {
        const error = {
          'no-list': { code: 'no-list', message: 'That list no longer exists.' },
          'not-collected': {
            code: 'list-not-collected',
            message: "A list's reviews are read once its places are collected: wait for it to finish, or stop it.",
          },
          'no-reviews': { code: 'no-reviews', message: "This version does not read the reviews of this list's sites." },
        }[asked.reason];
        return { ok: false, error };
      }
      await deps.ensureDriving();
      return { ok: true, places: asked.added + asked.reopened };
    },
    async deleteList(id) {
      const r = await deleteList(deps.store, id);
      if (r === 'running') return { ok: false, error: { code: 'list-busy', message: 'This list is being collected. Pause or stop it, then delete it.' } };
      if (r === 'not-found') return { ok: false, error: { code: 'no-list', message: 'That list no longer exists.' } };
      return { ok: true };
    },
  };
}
