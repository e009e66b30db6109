/**
 * A list's status changes, each ONE transaction guarded by the status it expects, from one table
 * (as a sweep's, utils/domain/sweep-status.ts): a Pause pressed while the loop finishes the list
 * never turns a finished list back into a paused one.
 *
 *   running ──pause──▶ paused ──resume──▶ running ──finish──▶ finished
 *   running | paused ──stop──▶ stopped          finished ──reopen──▶ running (Retry failed)
 */
import type { ListProblem, ListStatus, PlaceList } from './records';
import type { Store } from '../store';

export type ListEvent = { event: 'pause'; problem: ListProblem } | { event: 'resume' } | { event: 'stop' } | { event: 'finish' } | { event: 'reopen' };

const FROM: Record<ListEvent['event'], readonly ListStatus[]> = {
  pause: ['running'],
  resume: ['paused'],
  stop: ['running', 'paused'],
  finish: ['running'],
  reopen: ['finished', 'stopped'],
};

const TO: Record<ListEvent['event'], ListStatus> = { pause: 'paused', resume: 'running', stop: 'stopped', finish: 'finished', reopen: 'running' };

export type ListTransition = { ok: true; list: PlaceList } | { ok: false; status: ListStatus | null };

/** The list after `e`, or why not: its status now (null: no such list). */
export function listTransition(store: Store, listId: string, e: ListEvent, now: number): Promise<ListTransition> {
  return store.transact(
    ['placeLists'],
    'readwrite',
    async (tx): Promise<ListTransition> => {
      const lists = tx.objectStore('placeLists');
      const list = await lists.get(listId);
      if (!list) return { ok: false, status: null };
      if (!FROM[e.event].includes(list.status)) return { ok: false, status: list.status };
      const next: PlaceList = { ...list, status: TO[e.event], problem: e.event === 'pause' ? e.problem : null, updatedAt: now };
      await lists.put(next);
      return { ok: true, list: next };
    },
    { durability: 'strict' },
  );
}
