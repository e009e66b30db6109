/**
 * A list's place, read from its page, committed with its job in ONE transaction (`durability:
 * 'strict'`), like a place-details commit (utils/details/queue.ts commitPlace), with two
 * differences: the place need not be stored before (the list is what names it, so the page's
 * reading is stored as a new place of the collection), and a share link's job records the place
 * it landed on, and settles an open job of the same place in the same queue (a list naming a place
 * twice, once by its link and once by a share link, costs one load).
 *
 * Trust: the page is page content. The runner has checked that it shows the place the job names
 * (its key); a reading the store refuses (listingProblem) or one that contradicts the place stored
 * under that key (another name, a pin far away: utils/listing/contradiction.ts) is dropped whole,
 * the job left failed and the list's log told, never merged.
 */
import type { NotApplied } from '../domain/job';
import type { Listing, StoredListing } from '../domain/listing';
import { filledFields } from '../details/needs';
import { placeSettleCheck } from '../details/queue';
import { fromPlaceRecord, isMarker, placeJobId, withPlaceQueueKey } from '../details/records';
import { contradiction, type Contradiction } from '../listing/contradiction';
import { handled, type Store } from '../store';
import { listingProblem, mergeListing } from '../store/listing-merge';
import { isShareKey } from './records';

export type ListCommitResult =
  | { applied: true; key: string; added: boolean }
  | { applied: true; dropped: Contradiction | 'invalid' }
  | { applied: false; reason: NotApplied };

export async function commitListed(
  store: Store,
  req: { listId: string; jobId: string; holder: string; now: number; listing: Listing },
): Promise<ListCommitResult> {
  return store.transact(
    ['placeQueue', 'listings', 'events'],
    'readwrite',
    async (tx): Promise<ListCommitResult> => {
      const queue = tx.objectStore('placeQueue');
      const record = await queue.get(req.jobId);
      if (!record || isMarker(record)) return { applied: false, reason: 'not-found' };
      const job = fromPlaceRecord(record);
      const check = placeSettleCheck(job, req.holder, req.now);
      if (!check.ok) return { applied: false, reason: check.reason };
      const found: Listing = { ...req.listing, sponsored: false };
      const settled = { ...job, leaseHolder: null, leaseUntil: 0, updatedAt: req.now };
      const stored = (await tx.objectStore('listings').get(found.key)) as StoredListing | undefined;
      const why: Contradiction | 'invalid' | null = listingProblem(found) !== null ? 'invalid' : stored ? contradiction(stored, found) : null;
      if (why !== null) {
        await Promise.all([
          handled(queue.put(withPlaceQueueKey({ ...settled, status: 'failed', lastError: `the page's place was refused (${why})` }))),
          handled(
            tx.objectStore('events').add({
              sweepId: req.listId,
              at: req.now,
              kind: 'warning',
              url: job.url,
              message: `${found.key} of line ${job.line ?? '?'} not stored: ${why === 'invalid' ? 'the page gave a place the store refuses' : `it disagrees with the place stored under its id (${why})`}.`,
            }),
          ),
        ]);
        return { applied: true, dropped: why };
      }
      const next = mergeListing(stored, found, { now: req.now, collection: req.listId, keyword: null, cellId: null });
      const writes: Promise<unknown>[] = [
        handled(tx.objectStore('listings').put(next)),
        handled(
          queue.put(
            withPlaceQueueKey({
              ...settled,
              status: 'done',
              filled: stored ? filledFields(stored, next) : [],
              lastError: null,
              ...(isShareKey(job.key) ? { landed: found.key } : {}),
            }),
          ),
        ),
      ];
      if (isShareKey(job.key)) {
        // The place's own line, still waiting in this queue: this load read it already.
        const twin = await queue.get(placeJobId(job.sweepId, found.key));
        if (twin && twin.status === 'pending')
          writes.push(handled(queue.put(withPlaceQueueKey({ ...fromPlaceRecord(twin), status: 'done', filled: [], updatedAt: req.now }))));
      }
      await Promise.all(writes);
      return { applied: true, key: found.key, added: !stored };
    },
    { durability: 'strict' },
  );
}

/** A share link whose place the list read already (on its own line): its job done, with where it landed; no place written. */
export async function settleShareRead(store: Store, req: { jobId: string; holder: string; now: number; key: string }): Promise<boolean> {
  return store.transact(
    ['placeQueue'],
    'readwrite',
    async (tx) => {
      const queue = tx.objectStore('placeQueue');
      const record = await queue.get(req.jobId);
      if (!record || isMarker(record)) return false;
      const job = fromPlaceRecord(record);
      if (!placeSettleCheck(job, req.holder, req.now).ok) return false;
      await queue.put(
        withPlaceQueueKey({ ...job, status: 'done', leaseHolder: null, leaseUntil: 0, updatedAt: req.now, filled: [], lastError: null, landed: req.key }),
      );
      return true;
    },
    { durability: 'strict' },
  );
}
