/**
 * Linking in the service worker (utils/app/background.ts calls wireLinking once,
 * synchronously): runs start from MapSweep pages (the dashboard's "Link businesses", a user's
 * confirm or break) and after every finished sweep. The worker is a thread of its own, so a
 * run of a few seconds over 100,000 places never holds up the popup or the dashboard. One run
 * at a time; a request during a run is served by one more run when it ends, so the last word
 * (a decision, a sweep's new places) is always in the result.
 */
import { guarded, type Covered, type SenderEnv } from '../messaging/senders';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { Reply } from '../domain/errors';
import type { Store } from '../store';
import { decideLink } from './read';
import type { LinkRunRecord } from './records';
import { linkStoredPlaces } from './run';
import type { LinkDecision } from './types';

/** Dashboard → background. */
export interface LinkMessages {
  linkRun(): Reply<{ run: LinkRunRecord }>;
  /** The user's word on a pair (`a` on the site listed first), null to take it back; then a run. */
  linkDecide(req: { a: string; b: string; decision: LinkDecision | null }): Reply<{ run: LinkRunRecord }>;
}

export const { sendMessage: sendLinkMessage, onMessage: onLinkMessage } = defineExtensionMessaging<LinkMessages>();
void (true satisfies Covered<LinkMessages>);

/** One run at a time, and one more after it for whatever asked while it ran. */
export function singleFlight(run: () => Promise<LinkRunRecord>): () => Promise<LinkRunRecord> {
  let current: Promise<LinkRunRecord> | null = null;
  let next: Promise<LinkRunRecord> | null = null;
  const start = (): Promise<LinkRunRecord> => {
    const p = run().finally(() => {
      if (current === p) current = null;
    });
    current = p;
    return p;
  };
  return () => {
    if (!current) return start();
    // Everyone who asks during a run shares the one run after it.
    next ??= current
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}

export function wireLinking(store: Promise<Store>, senders: SenderEnv): { afterSweep(): void } {
  const link = singleFlight(async () => linkStoredPlaces(await store, Date.now));
  const failed = (e: unknown) => ({ ok: false as const, error: { code: 'link_failed', message: e instanceof Error ? e.message : String(e) } });
  onLinkMessage(
    'linkRun',
    guarded('linkRun', senders, async () => {
      return link().then((run) => ({ ok: true as const, run }), failed);
    }),
  );
  onLinkMessage(
    'linkDecide',
    guarded('linkDecide', senders, async (m) => {
      const { a, b, decision } = m.data;
      if (typeof a !== 'string' || typeof b !== 'string' || (decision !== null && decision !== 'confirmed' && decision !== 'broken')) {
        return { ok: false, error: { code: 'bad_request', message: 'A decision names two places and confirmed, broken or null.' } };
      }
      try {
        await decideLink(await store, a, b, decision, Date.now());
        return { ok: true, run: await link() };
      } catch (e) {
        return failed(e);
      }
    }),
  );
  return { afterSweep: () => void link().catch((e) => console.warn('MapSweep: linking', e)) };
}
