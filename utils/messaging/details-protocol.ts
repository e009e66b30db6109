import type { Covered } from './senders';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { Listing } from '../domain/listing';
import type { ProviderId } from '../domain/place';

/**
 * The place-details pass's one message, on a messaging instance of its own (a second runtime
 * listener, as the long exports have: each instance answers only the names it knows), so the
 * sweep's protocol (utils/messaging/protocol.ts) is untouched.
 *
 * Background → the content script of the worker tab's top frame, after the tab loaded a
 * place page: read the place the page shows. `null` when the page shows no place (yet) or
 * another one than `key` names: the pass counts that as a failed attempt.
 */
export interface CollectPlaceRequest {
  /** The listing's key the page was loaded for. */
  key: string;
  provider: ProviderId;
  /** Wait at most this long for the page to show its place. */
  settleMs: number;
}

export interface DetailsProtocol {
  collectPlace(req: CollectPlaceRequest): Listing | null;
}

export const { sendMessage: sendDetailsMessage, onMessage: onDetailsMessage } = defineExtensionMessaging<DetailsProtocol>();
void (true satisfies Covered<DetailsProtocol>);
