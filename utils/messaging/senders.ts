/**
 * The one table of who sends what to whom, and the one sender check. Every message of every
 * messaging instance (the sweep's protocol.ts, details-protocol.ts, the long exports', the
 * contacts', the linking's and the team's) is named here with the context that sends it and the
 * one that answers; every handler is registered through `guarded`, which refuses any other
 * sender before the handler runs. The payloads stay typed where they are defined; each message
 * map proves at compile time that its names are in this table (`Covered`).
 *
 * Who may send is decided from what the browser itself puts in a message's sender, never from
 * the message: the extension's id, whether it came from a tab, and that tab's or page's URL.
 */

/** The contexts of the extension. */
export type Context =
  /** The extension's own pages: popup, options, dashboard, the offscreen document. */
  | 'page'
  /** The service worker. */
  | 'background'
  /** A content script in a tab on a map site (the person's tabs and the sweep's worker tabs). */
  | 'map-tab';

export const MESSAGES = {
  // Pages → background: sweeps and saved searches (protocol.ts).
  estimate: { from: 'page', to: 'background' },
  startSweep: { from: 'page', to: 'background' },
  pauseSweep: { from: 'page', to: 'background' },
  resumeSweep: { from: 'page', to: 'background' },
  stopSweep: { from: 'page', to: 'background' },
  retryFailed: { from: 'page', to: 'background' },
  useMapView: { from: 'page', to: 'background' },
  deleteSweep: { from: 'page', to: 'background' },
  resumeReviews: { from: 'page', to: 'background' },
  readReviews: { from: 'page', to: 'background' },
  saveSearch: { from: 'page', to: 'background' },
  deleteSavedSearch: { from: 'page', to: 'background' },
  runSavedSearchNow: { from: 'page', to: 'background' },
  // Map tab → background: what the person browsed, and whether the tab is a sweep's.
  browsingListings: { from: 'map-tab', to: 'background' },
  isSweepTab: { from: 'map-tab', to: 'background' },
  // Background → the content script of a worker tab (its top frame).
  collect: { from: 'background', to: 'map-tab' },
  nextPage: { from: 'background', to: 'map-tab' },
  firstPageReady: { from: 'background', to: 'map-tab' },
  pressFirstPageControl: { from: 'background', to: 'map-tab' },
  collectPlace: { from: 'background', to: 'map-tab' },
  reviewsStep: { from: 'background', to: 'map-tab' },
  // Long exports: started by a page, built in the offscreen document (export/long-export.ts).
  startLongExport: { from: 'page', to: 'background' },
  offscreenBuildExport: { from: 'background', to: 'page' },
  offscreenExportProgress: { from: 'page', to: 'background' },
  offscreenRevoke: { from: 'background', to: 'page' },
  // Pages → background: the contacts pass (contacts/wire.ts).
  contactsStart: { from: 'page', to: 'background' },
  contactsPause: { from: 'page', to: 'background' },
  contactsResume: { from: 'page', to: 'background' },
  contactsStatus: { from: 'page', to: 'background' },
  // Pages → background: linking the same business across sites (match/wire.ts).
  linkRun: { from: 'page', to: 'background' },
  linkDecide: { from: 'page', to: 'background' },
  // Pages → background: the team's database (team/wire.ts).
  teamCheck: { from: 'page', to: 'background' },
  teamCreateDatabase: { from: 'page', to: 'background' },
  teamList: { from: 'page', to: 'background' },
  teamShare: { from: 'page', to: 'background' },
  teamJoin: { from: 'page', to: 'background' },
  teamProgress: { from: 'page', to: 'background' },
  // Dashboard → background: a list of places collected as a collection (lists/protocol.ts).
  checkList: { from: 'page', to: 'background' },
  startList: { from: 'page', to: 'background' },
  pauseList: { from: 'page', to: 'background' },
  resumeList: { from: 'page', to: 'background' },
  stopList: { from: 'page', to: 'background' },
  deleteList: { from: 'page', to: 'background' },
  readListReviews: { from: 'page', to: 'background' },
  // Check this page (check-protocol.ts): the popup asks the background, the background the tab.
  checkPage: { from: 'page', to: 'background' },
  lookAtPage: { from: 'background', to: 'map-tab' },
  pageSnapshot: { from: 'background', to: 'map-tab' },
  pageReportSource: { from: 'page', to: 'background' },
} as const satisfies Record<string, { from: Context; to: Context }>;

export type MessageName = keyof typeof MESSAGES;

/** `true` when every name of the message map `M` is in the table; a compile error names the one that is not. */
export type Covered<M> = [Exclude<keyof M, MessageName>] extends [never] ? true : { notInTheTable: Exclude<keyof M, MessageName> };

/** What the browser says of a message's sender. */
export interface Sender {
  id?: string;
  url?: string;
  tab?: { id?: number; url?: string };
}

/** What the receiving context knows to judge a sender: its own extension, and (in the background) which URLs are map sites. */
export interface SenderEnv {
  runtime: { id?: string; getURL(path: string): string };
  isMapUrl?(url: string): boolean;
}

/** Whether `sender` is `context` of this extension. */
export function sentFrom(context: Context, sender: Sender, env: SenderEnv): boolean {
  if (!env.runtime.id || sender.id !== env.runtime.id) return false;
  const ownUrl = !!sender.url && sender.url.startsWith(env.runtime.getURL('/'));
  switch (context) {
    case 'page':
      return ownUrl;
    case 'background':
      // A tabs.sendMessage from the worker has no tab; a content script's message always has one.
      return !sender.tab;
    case 'map-tab': {
      const url = sender.url ?? sender.tab?.url;
      return !!sender.tab?.id && !ownUrl && !!url && !!env.isMapUrl?.(url);
    }
  }
}

const WHO: Record<Context, string> = {
  page: 'MapSweep\u2019s own pages',
  background: 'MapSweep\u2019s background',
  'map-tab': 'MapSweep on a map site\u2019s tab',
};

export class MessageRefused extends Error {
  constructor(name: MessageName) {
    super(`${name} is accepted only from ${WHO[MESSAGES[name].from]}.`);
    this.name = 'MessageRefused';
  }
}

/**
 * The handler of `name`, run only for the sender the table names; any other is refused before
 * it runs, as an error reply (a rejection, never an exception thrown into the runtime's listener).
 */
export function guarded<N extends MessageName, M extends { sender: Sender }, R>(
  name: N,
  env: SenderEnv,
  handler: (message: M) => Promise<R>,
): (message: M) => Promise<R> {
  return async (message) => {
    if (!sentFrom(MESSAGES[name].from, message.sender, env)) throw new MessageRefused(name);
    return handler(message);
  };
}
