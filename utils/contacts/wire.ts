/**
 * The contacts pass in the service worker (utils/app/background.ts calls wireContacts once,
 * synchronously): its commands from MapSweep pages only, on a messaging instance of its own;
 * its state in storage.local (what Resume means after a restart); the optional host permission
 * it fetches under, watched so that withdrawing it stops the pass at once.
 */
import type { PlaceFilter } from '../config/settings';
import { guarded, type Covered, type SenderEnv } from '../messaging/senders';
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { Reply } from '../domain/errors';
import type { Store } from '../store';
import { createContactsPass, DEFAULT_CONTACTS_SETTINGS, type ContactsPass, type ContactsPassState } from './pass';
import { contactCoverage, type ContactCoverage } from './read';
import type { ContactEnqueueResult } from './queue';
import { createNetworkWatch, type NetworkEvent } from './network-watch';
import { abortableSleep } from './sleep';
import { keeper } from '../filters';
import { SITE_FILTER_CONTEXT } from '../providers/registry';

/**
 * The optional host permission (wxt.config.ts `optional_host_permissions`): any http or https
 * website, because the websites are the businesses' own, unknown until a sweep lists them.
 * Asked for only when the user turns the pass on.
 */
export const CONTACT_ORIGINS = ['http://*/*', 'https://*/*'];

export const CONTACTS_STATE_KEY = 'contacts-pass';
export const CONTACTS_ALARM = 'contacts-watchdog';

export interface ContactsStatus {
  state: ContactsPassState;
  granted: boolean;
  /** Null until a website was ever queued (nothing to count yet). */
  coverage: ContactCoverage | null;
}

/** Popup, options, dashboard → background. */
export interface ContactsMessages {
  /** Queue the websites of a collection (every place: no collection) and run the pass. */
  contactsStart(req: { collection?: string }): Reply<{ queued: ContactEnqueueResult }>;
  contactsPause(): Reply;
  contactsResume(): Reply;
  contactsStatus(req: { collection?: string }): Reply<{ status: ContactsStatus }>;
}

export const { sendMessage: sendContactsMessage, onMessage: onContactsMessage } = defineExtensionMessaging<ContactsMessages>();
void (true satisfies Covered<ContactsMessages>);

export function readContactsState(v: unknown): ContactsPassState {
  if (v && typeof v === 'object') {
    const s = v as { status?: unknown; reason?: unknown };
    if (s.status === 'running') return { status: 'running' };
    if (s.status === 'paused' && (s.reason === 'user' || s.reason === 'permission')) return { status: 'paused', reason: s.reason };
  }
  return { status: 'idle' };
}

interface NetworkEventSource {
  addListener(cb: (e: NetworkEvent) => undefined, filter: { urls: string[]; tabId?: number }, extraInfoSpec?: string[]): void;
}

interface WiringBrowser {
  permissions: {
    contains(p: { origins: string[] }): Promise<boolean>;
    onRemoved: { addListener(cb: (p: { origins?: string[] }) => void): void };
  };
  storage: { local: { get(key: string): Promise<Record<string, unknown>>; set(items: Record<string, unknown>): Promise<void> } };
  webRequest?: {
    onHeadersReceived?: NetworkEventSource;
    onBeforeRedirect?: NetworkEventSource;
    onResponseStarted?: NetworkEventSource;
  };
  alarms: {
    create(name: string, info: { periodInMinutes: number }): Promise<void> | undefined;
    clear(name: string): Promise<boolean> | undefined;
    onAlarm: { addListener(cb: (alarm: { name: string }) => void): void };
  };
}

const permissionError = { code: 'contacts_permission', message: 'Allow MapSweep to read websites first: without that permission nothing is fetched.' };

export function wireContacts(
  browser: WiringBrowser,
  store: Promise<Store>,
  senders: SenderEnv,
  settings: () => Promise<{ contactsRecheckDays: number; filters?: PlaceFilter }>,
): { pass: Promise<ContactsPass> } {
  const hasPermission = () => browser.permissions.contains({ origins: CONTACT_ORIGINS }).catch(() => false);
  const plainFetch = (url: string, init: RequestInit) => fetch(url, init);
  // What the network saw of the worker's own requests only (tab -1: a person's tabs never wake
  // the worker): redirect targets, which a manual fetch hides, and each answer's address.
  // Registered here, at start-up, as MV3 requires; the events only observe.
  const watch = createNetworkWatch({
    listen(cb) {
      const filter = { urls: CONTACT_ORIGINS, tabId: -1 };
      const sources: [NetworkEventSource | undefined, string[]][] = [
        [browser.webRequest?.onHeadersReceived, ['responseHeaders']],
        [browser.webRequest?.onBeforeRedirect, []],
        [browser.webRequest?.onResponseStarted, []],
      ];
      for (const [source, extra] of sources) {
        try {
          source?.addListener(cb, filter, extra);
        } catch (e) {
          // A browser without one of these events: the watch answers "not seen" for it.
          console.warn('MapSweep: a network event of website pages is not watched', e);
        }
      }
    },
  });
  const pass = store.then((s) =>
    createContactsPass({
      store: s,
      // The worker's own fetch: with the host permission granted it is not bound by CORS, and
      // `credentials: 'omit'` keeps the user's cookies for those sites out of it. Its redirects
      // are followed by hand (follow.ts), each target checked before it is asked.
      fetch: plainFetch,
      watch,
      now: Date.now,
      sleep: abortableSleep,
      random: Math.random,
      newId: () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      hasPermission,
      loadState: async () => readContactsState((await browser.storage.local.get(CONTACTS_STATE_KEY))[CONTACTS_STATE_KEY]),
      saveState: async (state) => {
        await browser.storage.local.set({ [CONTACTS_STATE_KEY]: state });
        // The watchdog wakes a stopped worker while the pass runs (nothing else may, for hours).
        if (state.status === 'running') await browser.alarms.create(CONTACTS_ALARM, { periodInMinutes: 0.5 });
        else await browser.alarms.clear(CONTACTS_ALARM);
      },
      settings: async () => {
        const now = await settings();
        return { ...DEFAULT_CONTACTS_SETTINGS, recheckDays: now.contactsRecheckDays, filters: now.filters };
      },
    }),
  );
  void pass.then((p) => p.onStartup()).catch((e) => console.error('MapSweep: the contacts pass did not start', e));
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === CONTACTS_ALARM) void pass.then((p) => p.revive());
  });

  try {
    // Whatever was withdrawn, and however the browser words it ("on specific sites" included):
    // the grant is asked again, and the pass stops the moment it is gone.
    browser.permissions.onRemoved.addListener(() => {
      void hasPermission().then((still) => (still ? undefined : pass.then((p) => p.onPermissionRemoved())));
    });
  } catch (e) {
    // Without the event (a test double) a withdrawn grant is seen before the next site: every
    // loop asks for the permission before it leases one.
    console.warn('MapSweep: a withdrawn permission is seen at the next website', e);
  }

  onContactsMessage(
    'contactsStart',
    guarded('contactsStart', senders, async (m) => {
      const started = await (await pass).start(m.data?.collection);
      return 'refused' in started ? { ok: false, error: permissionError } : { ok: true, queued: started };
    }),
  );
  onContactsMessage(
    'contactsPause',
    guarded('contactsPause', senders, async () => {
      await (await pass).pause('user');
      return { ok: true };
    }),
  );
  onContactsMessage(
    'contactsResume',
    guarded('contactsResume', senders, async () => {
      return (await (await pass).resume()) === 'running' ? { ok: true } : { ok: false, error: permissionError };
    }),
  );
  onContactsMessage(
    'contactsStatus',
    guarded('contactsStatus', senders, async (m) => {
      const s = await store;
      const [state, granted, coverage] = await Promise.all([
        browser.storage.local.get(CONTACTS_STATE_KEY).then((r) => readContactsState(r[CONTACTS_STATE_KEY])),
        hasPermission(),
        // Counted over the places the filters of the moment keep: the pass reads only theirs.
        settings().then((now) => contactCoverage(s, m.data?.collection, now.filters ? keeper(now.filters, SITE_FILTER_CONTEXT) : undefined)),
      ]);
      return { ok: true, status: { state, granted, coverage } };
    }),
  );
  return { pass };
}
