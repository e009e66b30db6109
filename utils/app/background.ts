import type { WxtBrowser as Browser } from 'wxt/browser';
import { createPageDriver } from '../browser/page-driver';
import { t } from '../i18n/t';
import { onMessage, sendMessage, type UiToBackground } from '../messaging/protocol';
import { guarded, type SenderEnv } from '../messaging/senders';
import { createScheduleCommands } from '../schedule/commands';
import { createScheduler, SCHEDULE_ALARM } from '../schedule/index';
import { openStore } from '../store/index';
import { createController, WATCHDOG_ALARM } from '../sweep/controller';
import { createPacer } from '../queue/pacing';
import { storagePacerMemory } from '../sweep/pacer-memory';
import { storageCalibrationStore } from '../coverage/calibration-storage';
import { normaliseSettings } from '../config/settings';
import { KEEP_RUNS_KEY, pageHiddenKey, readKeepRuns } from '../config/storage-keys';
import type { Sweep } from '../domain/sweep';
import { DISK_FULL_KEY, diskFullOf } from '../sweep/disk-full';
import { wireLongExports } from '../export/long-export';
import { createDocumentExports } from '../export/document-export';
import { hasHostAccess } from '../browser/host-access';
import { blockedPageKindOf, PROVIDERS, providerOfUrl } from '../providers/registry';
import { watchBlockRedirects } from '../browser/block-redirects';
import { wireContacts } from '../contacts/wire';
import { wireLinking } from '../match/wire';
import { wireTeam } from '../team/wire';
import { onListMessage, type ListMessages, type PlaceList } from '../lists';
import { createPageCheck } from '../report/command';
import { onCheckMessage, sendCheckMessage } from '../messaging/check-protocol';
import { withTimeout } from '../browser/page-driver';

const SETTINGS_KEY = 'settings';
const SESSION_ALIVE_KEY = 'session-alive';

type Attention = 'blocked' | 'consent' | 'signed-out' | 'reviews-signed-out' | 'extractor' | 'finished' | 'quota' | 'team' | 'host-access';

/**
 * Wires the service worker: listeners are registered synchronously (MV3 only wakes a worker
 * for listeners that exist at start-up), everything else goes through the controller (sweeps)
 * and the scheduler (saved searches).
 */
export function createBackground(browser: Browser): void {
  let settingsCache = normaliseSettings(undefined);
  // Watched from the first line: the listener must exist when the worker starts.
  const blockRedirects = watchBlockRedirects(
    browser,
    PROVIDERS.flatMap((p) => p.requestPatterns ?? p.tabPatterns),
  );
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const newId = () => `s${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  // The user's pacing is read before anything can load a page: a worker (or browser) restart
  // that resumed with the defaults spaced loads 2.7 s apart when the user had set 4 s
  // (tests/browser/resume.test.ts).
  const settingsRead = browser.storage.local
    .get(SETTINGS_KEY)
    .then((r) => (settingsCache = normaliseSettings(r[SETTINGS_KEY])))
    .catch(() => settingsCache);
  const storeReady = openStore();
  const services = Promise.all([storeReady, settingsRead]).then(([store]) => {
    // The pacer's last load per host lives in storage.local: "≥ delay apart" holds across restarts.
    const pacer = createPacer({ now: Date.now, sleep, random: Math.random, timing: () => settingsCache, memory: storagePacerMemory(browser.storage.local) });
    const controller = createController({
      browser,
      store,
      pacer,
      // The worker tab's own page (frame 0): the content scripts of a page's iframes never answer for it.
      page: createPageDriver(
        browser,
        {
          collect: (tabId, options) => sendMessage('collect', options, { tabId, frameId: 0 }),
          nextPage: (tabId) => sendMessage('nextPage', undefined, { tabId, frameId: 0 }),
          firstPage: {
            ready: (tabId, options) => sendMessage('firstPageReady', options, { tabId, frameId: 0 }),
            press: (tabId) => sendMessage('pressFirstPageControl', undefined, { tabId, frameId: 0 }),
          },
          blockRedirects,
        },
        sleep,
      ),
      now: Date.now,
      sleep,
      random: Math.random,
      newId,
      settings: async () => (settingsCache = normaliseSettings((await browser.storage.local.get(SETTINGS_KEY))[SETTINGS_KEY])),
      attention: (sweep, reason) => void attention(sweep, reason),
      listAttention: (list, reason) => void listAttention(list, reason),
      // storage.local, not IndexedDB: a full disk may refuse IndexedDB's writes, the pause included.
      diskFull: (sweepId, error) => browser.storage.local.set({ [DISK_FULL_KEY]: diskFullOf(sweepId, error) }),
      pageHidden: (sweepId, hidden) => void browser.storage.session.set({ [pageHiddenKey(sweepId)]: hidden }),
      // What each window size's searches proved about the searched rectangle (utils/coverage).
      calibration: storageCalibrationStore(browser.storage.local),
      // Sweeps shared with other browsers take their cells through the team's database (utils/team).
      team: team.gate,
      // Firefox lets the person withhold or withdraw the map hosts (utils/browser/host-access.ts).
      hostAccess: (site) => hasHostAccess(browser, site.hostAccess),
    });
    const scheduler = createScheduler({
      store,
      alarms: browser.alarms,
      now: Date.now,
      tzOffset: (at) => -new Date(at).getTimezoneOffset(),
      startSweep: (search, sweepId) => controller.startSavedSearch(search, sweepId),
      keepRuns: async () => readKeepRuns((await browser.storage.local.get(KEEP_RUNS_KEY))[KEEP_RUNS_KEY]),
    });
    const commands = {
      ...controller.commands,
      ...createScheduleCommands({ store, scheduler, newId, now: Date.now }),
    };
    return { controller, scheduler, commands };
  });

  async function attention(sweep: Sweep, reason: Attention) {
    if (reason === 'finished' || reason === 'extractor') void services.then((s) => s.scheduler.onSweepEnded());
    // The contacts pass follows a finished sweep when the user turned it on (and granted its permission).
    // Its new places are linked to the other sites' listings of the same businesses (utils/match/).
    if (reason === 'finished') linking.afterSweep();
    if (reason === 'finished' && settingsCache.contactsFromWebsites)
      void contacts.pass.then((p) => p.start(sweep.id)).catch((e) => console.warn('MapSweep: contacts pass', e));
    const needsUser = reason !== 'finished';
    await browser.action.setBadgeText({ text: needsUser ? '!' : '' });
    if (needsUser) await browser.action.setBadgeBackgroundColor({ color: '#d93025' });
    const key = {
      blocked: 'notifyBlocked',
      consent: 'notifyConsent',
      'signed-out': 'notifySignedOut',
      'reviews-signed-out': 'notifyReviewsSignedOut',
      extractor: 'notifyExtractor',
      finished: 'notifyFinished',
      quota: 'notifyQuota',
      team: 'notifyTeam',
      'host-access': 'notifyHostAccess',
    }[reason];
    await browser.notifications
      .create(`mapsweep-${sweep.id}-${reason}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: t('extName'),
        message: t(key, sweep.counters.listingsNew),
      })
      .catch(() => {});
  }

  /** A list finished, or waits for the person in its tab. */
  async function listAttention(list: PlaceList, reason: 'finished' | 'blocked' | 'host-access') {
    const needsUser = reason !== 'finished';
    await browser.action.setBadgeText({ text: needsUser ? '!' : '' });
    if (needsUser) await browser.action.setBadgeBackgroundColor({ color: '#d93025' });
    await browser.notifications
      .create(`mapsweep-${list.id}-${reason}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: t('extName'),
        message: t({ blocked: 'notifyListBlocked', 'host-access': 'notifyListHostAccess', finished: 'notifyListFinished' }[reason], list.name),
      })
      .catch(() => {});
  }

  // Who may send what: the one table and check of utils/messaging/senders.ts.
  const senders: SenderEnv = { runtime: browser.runtime, isMapUrl: (url) => providerOfUrl(url) !== null };

  const commandNames: (keyof UiToBackground)[] = [
    'estimate',
    'startSweep',
    'pauseSweep',
    'resumeSweep',
    'stopSweep',
    'retryFailed',
    'useMapView',
    'deleteSweep',
    'resumeReviews',
    'readReviews',
    'saveSearch',
    'deleteSavedSearch',
    'runSavedSearchNow',
  ];
  for (const name of commandNames) {
    onMessage(
      name,
      guarded(name, senders, async (message) => {
        try {
          // After start-up: a Resume pressed at once must not lease before the old session's
          // leases are given back (controller.onBrowserStart).
          await startup;
          const { commands, scheduler } = await services;
          const command = commands[name] as (arg: unknown) => Promise<unknown>;
          const reply = await command(message.data);
          if (name === 'stopSweep') void scheduler.onSweepEnded();
          return reply as never;
        } catch (e) {
          return { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } } as never;
        }
      }),
    );
  }

  // The dashboard's lists of places (utils/lists).
  const listCommandNames: (keyof ListMessages)[] = ['checkList', 'startList', 'pauseList', 'resumeList', 'stopList', 'deleteList', 'readListReviews'];
  for (const name of listCommandNames) {
    onListMessage(
      name,
      guarded(name, senders, async (message) => {
        try {
          await startup;
          const { controller } = await services;
          const command = controller.listCommands[name] as (arg: unknown) => Promise<unknown>;
          return (await command(message.data)) as never;
        } catch (e) {
          return { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } } as never;
        }
      }),
    );
  }

  // Check this page (utils/report): the popup names its tab, the tab's content script answers a look.
  const checkPage = createPageCheck({
    tabUrl: async (tabId) => (await browser.tabs.get(tabId)).url ?? null,
    // A map site's tab, or one its site sent to a consent or captcha page: the one used last.
    lastMapTab: async () =>
      (await browser.tabs.query({}))
        .filter((t) => t.id !== undefined && t.url && (providerOfUrl(t.url) || blockedPageKindOf(t.url)))
        .sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0]?.id ?? null,
    look: (tabId) => sendCheckMessage('lookAtPage', undefined, { tabId }),
    snapshot: (tabId) => sendCheckMessage('pageSnapshot', undefined, { tabId }),
    timeout: withTimeout,
  });
  onCheckMessage(
    'checkPage',
    guarded('checkPage', senders, async (message) => (await checkPage.checkPage(message.data)) as never),
  );
  onCheckMessage(
    'pageReportSource',
    guarded('pageReportSource', senders, async (message) => (await checkPage.pageReportSource(message.data)) as never),
  );

  // Long exports, handed to the downloads API (utils/export/long-export.ts): built in Chrome's
  // offscreen document; where there is none and this background is a document (Firefox's event
  // page), built here.
  wireLongExports(browser, senders, browserHasNoOffscreenButIsADocument(browser) ? (progress) => createDocumentExports({ openStore, progress }) : undefined);
  // E-mails and social profiles from the businesses' own websites (utils/contacts/wire.ts).
  const contacts = wireContacts(
    browser,
    services.then(() => storeReady),
    senders,
    async () => settingsCache,
  );
  // The same business on Google, Naver and Kakao (utils/match/wire.ts).
  const linking = wireLinking(
    services.then(() => storeReady),
    senders,
  );
  // One sweep shared by several browsers through CouchDB (utils/team/wire.ts).
  const team = wireTeam(browser, storeReady, senders, {
    settings: async () => settingsCache,
    ensureDriving: () => startup.then(() => services).then((s) => s.controller.ensureDriving()),
  });

  onMessage(
    'browsingListings',
    guarded('browsingListings', senders, async (message) => {
      const { sender } = message;
      // Our own content script in a frame of a map site (the table's check); the listings are
      // shape-checked by the store, and a frame may only vouch for its own site's places (a page
      // cannot plant another provider's ids).
      const provider = providerOfUrl(sender.url ?? sender.tab?.url ?? '');
      if (!provider || !sender.tab?.id || !Array.isArray(message.data)) return;
      const listings = message.data.filter((l) => l?.provider === provider.id);
      const { controller } = await services;
      // A failure reaches the tab (which keeps the batch and sends it again) and the popup (totals).
      await controller.commitBrowsing(sender.tab.id, listings).catch((e) => {
        console.warn('MapSweep: browsing listings not saved', e);
        throw e;
      });
    }),
  );

  onMessage(
    'isSweepTab',
    guarded('isSweepTab', senders, async (message) => {
      const tabId = message.sender.tab?.id;
      // A tab the background cannot name is never vouched for as the person's.
      if (tabId === undefined) return true;
      const { controller } = await services;
      return controller.isSweepTab(tabId);
    }),
  );

  browser.alarms.onAlarm.addListener((alarm) => {
    // After start-up: a missed alarm can fire at once, before running sweeps are marked paused.
    if (alarm.name === WATCHDOG_ALARM) void startup.then(() => services).then((s) => s.controller.ensureDriving());
    if (alarm.name === SCHEDULE_ALARM) void startup.then(() => services).then((s) => s.scheduler.onAlarm(alarm));
    team.onAlarm(alarm.name);
  });
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes[SETTINGS_KEY]) settingsCache = normaliseSettings(changes[SETTINGS_KEY].newValue);
  });

  // Session storage survives a service-worker restart but not a browser restart (or an
  // extension reload/update): its absence tells the two apart. After a browser restart,
  // running sweeps wait for Resume; after a worker restart they simply continue. Scheduled
  // runs are caught up after that, so a catch-up run is not paused the moment it starts.
  const startup = (async () => {
    const { controller, scheduler } = await services;
    const alive = (await browser.storage.session.get(SESSION_ALIVE_KEY))[SESSION_ALIVE_KEY];
    if (!alive) {
      await controller.onBrowserStart();
      await browser.storage.session.set({ [SESSION_ALIVE_KEY]: true });
    } else {
      await controller.onWorkerStart();
    }
    await scheduler.onStartup();
    await controller.ensureDriving();
  })().catch((e) => console.error('MapSweep start-up failed', e));
}

/** Firefox: no offscreen documents, and the background is an event page with URL.createObjectURL. */
function browserHasNoOffscreenButIsADocument(browser: Browser): boolean {
  return !(browser as { offscreen?: unknown }).offscreen && typeof document !== 'undefined' && typeof URL.createObjectURL === 'function';
}
