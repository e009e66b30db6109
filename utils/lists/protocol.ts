/**
 * The dashboard's list commands (issue 40), on a messaging instance of their own: check a list
 * (nothing written), confirm it (the collection and its queues, one transaction), and its
 * Pause, Resume, Stop and Delete. Accepted only from MapSweep's own pages (utils/messaging/senders.ts).
 */
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { Reply } from '../domain/errors';
import type { ProviderId } from '../domain/place';
import type { BadLine, ListEstimate } from '../input';
import type { Covered } from '../messaging/senders';

/** A list as the person gave it: its text (pasted, or a file's), and the CSV columns they chose. */
export interface ListInput {
  text: string;
  column?: string | null;
  siteColumn?: string | null;
}

/** What a list holds, said before anything is spent. */
export type ListCheck =
  | {
      status: 'read';
      /** Places by site, one per key. */
      places: Record<ProviderId, number>;
      shares: number;
      /** The first lines refused (at most MAX_SHOWN_BAD_LINES), and how many in all. */
      bad: BadLine[];
      badCount: number;
      duplicates: number;
      entries: number;
      column: string | null;
      header: string | null;
      /** Places stored before whose page could add nothing: no load. */
      storedBefore: number;
      /** The loads left and their time at the options' pacing. */
      estimate: ListEstimate;
    }
  | { status: 'choose-column'; reason: string; columns: string[]; suggested: string | null }
  | { status: 'refused'; reason: string };

export const MAX_SHOWN_BAD_LINES = 200;

export interface ListMessages {
  checkList(req: ListInput): Reply<{ check: ListCheck }>;
  startList(req: ListInput & { name: string }): Reply<{ listId: string }>;
  pauseList(listId: string): Reply;
  resumeList(listId: string): Reply;
  stopList(listId: string): Reply;
  deleteList(listId: string): Reply;
  /** Read the reviews of a collected list's places (those the filters of the moment keep), with the options' limits. */
  readListReviews(listId: string): Reply<{ places: number }>;
}

export const { sendMessage: sendListMessage, onMessage: onListMessage } = defineExtensionMessaging<ListMessages>();
void (true satisfies Covered<ListMessages>);
