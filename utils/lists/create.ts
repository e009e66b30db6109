/**
 * A confirmed list becomes a collection and its queues, in ONE transaction (`durability:
 * 'strict'`): the list's record, one pending job per place to load (one queue per site), one per
 * share link, and the places stored before whose page could add nothing, put in the collection at
 * once with their jobs done (no load). A kill half-way leaves no list at all, never half of one.
 */
import type { ProviderId } from '../domain/place';
import type { StoredListing } from '../domain/listing';
import { needsDetails } from '../details/needs';
import { newPlaceJob, withPlaceQueueKey } from '../details/records';
import type { PlaceListResult } from '../input';
import { placePageUrl } from '../providers/registry';
import { handled, StoreError, type Store } from '../store';
import { isListId, listQueueId, MAX_KEPT_BAD_LINES, MAX_LIST_NAME, shareKey, type ListSettings, type PlaceList } from './records';

export type ReadList = Extract<PlaceListResult, { status: 'read' }>;

export interface CreateListRequest {
  id: string;
  name: string;
  list: ReadList;
  settings: ListSettings;
  now: number;
}

/** Why a confirmed list cannot be collected, in the person's words; null when it can. */
export function listRefusal(req: Pick<CreateListRequest, 'name' | 'list'>): string | null {
  const name = req.name.trim();
  if (name === '') return 'Give the list a name: it becomes the collection you export.';
  if (name.length > MAX_LIST_NAME) return `The list's name is ${name.length} characters long (at most ${MAX_LIST_NAME}).`;
  if (req.list.places.length + req.list.shares.length === 0) return 'The list names no place to collect: every line was blank, a comment, a repeat or refused.';
  return null;
}

export async function createList(store: Store, req: CreateListRequest): Promise<PlaceList> {
  if (!isListId(req.id)) throw new StoreError('invalid', `Not a list id: ${req.id}`);
  const refused = listRefusal(req);
  if (refused) throw new StoreError('invalid', refused);
  const { list, now } = req;
  const sites = [...new Set<ProviderId>([...list.places.map((p) => p.provider), ...list.shares.map((s) => s.provider)])];
  return store.transact(
    ['placeLists', 'placeQueue', 'listings'],
    'readwrite',
    async (tx): Promise<PlaceList> => {
      const lists = tx.objectStore('placeLists');
      if ((await lists.count(req.id)) > 0) throw new StoreError('exists', `A list ${req.id} exists already.`);
      const queue = tx.objectStore('placeQueue');
      const listings = tx.objectStore('listings');
      const writes: Promise<unknown>[] = [];
      let storedBefore = 0;
      for (const place of list.places) {
        const queueId = listQueueId(req.id, place.provider);
        const stored = (await listings.get(place.key)) as StoredListing | undefined;
        const url = placePageUrl(stored ?? place, req.settings.lang) ?? place.url;
        const job = { ...newPlaceJob(queueId, place, url, now), line: place.line };
        if (stored && !needsDetails(stored)) {
          // Known already, and its page could add nothing: in the collection now, for no load.
          storedBefore++;
          const collections = stored.collections.includes(req.id) ? stored.collections : [...stored.collections, req.id];
          writes.push(handled(listings.put({ ...stored, collections })));
          writes.push(handled(queue.put(withPlaceQueueKey({ ...job, status: 'done', filled: [] }))));
        } else {
          writes.push(handled(queue.put(withPlaceQueueKey(job))));
        }
      }
      for (const share of list.shares) {
        const job = newPlaceJob(listQueueId(req.id, share.provider), { key: shareKey(share.url), provider: share.provider }, share.url, now);
        writes.push(handled(queue.put(withPlaceQueueKey({ ...job, line: share.line }))));
      }
      const record: PlaceList = {
        id: req.id,
        name: req.name.trim(),
        status: 'running',
        problem: null,
        createdAt: now,
        updatedAt: now,
        sites,
        counts: { places: list.places.length, shares: list.shares.length, bad: list.bad.length, duplicates: list.duplicates, storedBefore },
        bad: list.bad.slice(0, MAX_KEPT_BAD_LINES),
        settings: req.settings,
      };
      writes.push(handled(lists.add(record)));
      await Promise.all(writes);
      return record;
    },
    { durability: 'strict' },
  );
}
