/**
 * The Firefox preferences of a test profile, written to its user.js before every launch (Firefox
 * reads user.js at start-up over whatever prefs.js holds, so a relaunch gets the same ones).
 * Four groups: the add-on (unsigned, installed from the profile, its moz-extension UUID fixed),
 * the replica proxy, downloads into a known folder, and Firefox's own traffic turned off, so
 * that the proxy's list of refused requests holds only what pages and the extension asked for.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export type Prefs = Record<string, string | number | boolean>;

/**
 * `hostsAtInstall`: whether Firefox grants the manifest's host_permissions when it installs the
 * add-on (extensions.originControls.grantByDefault: true in Firefox 153; Firefox 109–126 left
 * them to the person, and a person may withdraw them in about:addons). Undefined: Firefox's own.
 */
export function addonPrefs(addonId: string, uuid: string, hostsAtInstall?: boolean): Prefs {
  return {
    ...(hostsAtInstall === undefined ? {} : { 'extensions.originControls.grantByDefault': hostsAtInstall }),
    // ESR honours this (release builds do not): the build is unsigned.
    'xpinstall.signatures.required': false,
    // Add-ons in <profile>/extensions are installed enabled at start-up, without asking.
    'extensions.autoDisableScopes': 0,
    'extensions.enabledScopes': 15,
    // The popup is at moz-extension://<uuid>/popup.html on every launch of every profile.
    'extensions.webextensions.uuids': JSON.stringify({ [addonId]: uuid }),
    // permissions.request (the popup's "Allow access to the map sites") granted without a doorhanger.
    'extensions.webextOptionalPermissionPrompts': false,
    'extensions.installDistroAddons': false,
    'extensions.update.enabled': false,
    'extensions.update.autoUpdateDefault': false,
    'extensions.getAddons.cache.enabled': false,
    'extensions.getAddons.showPane': false,
    'extensions.htmlaboutaddons.recommendations.enabled': false,
    'extensions.systemAddon.update.enabled': false,
    'extensions.blocklist.enabled': false,
    'extensions.webservice.discoverURL': '',
  };
}

/** Every request through the test's proxy (./proxy.ts), none straight to the network. */
export function proxyPrefs(port: number): Prefs {
  return {
    'network.proxy.type': 1,
    'network.proxy.http': '127.0.0.1',
    'network.proxy.http_port': port,
    'network.proxy.ssl': '127.0.0.1',
    'network.proxy.ssl_port': port,
    'network.proxy.share_proxy_settings': false,
    'network.proxy.no_proxies_on': '',
    'network.proxy.allow_hijacking_localhost': true,
    // A proxy that cannot be reached is an error, not a reason to go direct.
    'network.proxy.failover_direct': false,
    // No DNS over HTTPS: names go to the proxy in the CONNECT.
    'network.trr.mode': 5,
  };
}

export function downloadPrefs(dir: string): Prefs {
  return {
    'browser.download.folderList': 2,
    'browser.download.dir': dir,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    'browser.download.manager.showWhenStarting': false,
    'browser.download.panel.shown': true,
    'browser.download.start_downloads_in_tmp_dir': false,
    'browser.helperApps.deleteTempFileOnExit': false,
  };
}

/** Firefox's own background traffic and first-run screens, off. */
export function quietPrefs(): Prefs {
  return {
    'app.update.enabled': false,
    'app.update.auto': false,
    'app.update.disabledForTesting': true,
    'app.update.checkInstallTime': false,
    'app.normandy.enabled': false,
    'app.normandy.api_url': '',
    'app.shield.optoutstudies.enabled': false,
    'messaging-system.rsexperimentloader.enabled': false,
    'services.settings.server': 'data:,#remote-settings-off',
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'captivedetect.canonicalURL': '',
    'network.dns.disablePrefetch': true,
    'network.prefetch-next': false,
    'network.http.speculative-parallel-limit': 0,
    'browser.urlbar.speculativeConnect.enabled': false,
    'browser.places.speculativeConnect.enabled': false,
    'browser.safebrowsing.malware.enabled': false,
    'browser.safebrowsing.phishing.enabled': false,
    'browser.safebrowsing.downloads.enabled': false,
    'browser.safebrowsing.downloads.remote.enabled': false,
    'browser.safebrowsing.blockedURIs.enabled': false,
    'browser.safebrowsing.provider.mozilla.updateURL': '',
    'browser.safebrowsing.provider.google4.updateURL': '',
    'browser.safebrowsing.provider.google.updateURL': '',
    'privacy.trackingprotection.enabled': false,
    'datareporting.healthreport.uploadEnabled': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'datareporting.policy.dataSubmissionPolicyBypassNotification': true,
    'datareporting.usage.uploadEnabled': false,
    'toolkit.telemetry.enabled': false,
    'toolkit.telemetry.unified': false,
    'toolkit.telemetry.archive.enabled': false,
    'toolkit.telemetry.server': 'data:,',
    'browser.ping-centre.telemetry': false,
    'browser.newtabpage.enabled': false,
    'browser.newtabpage.activity-stream.feeds.system.topstories': false,
    'browser.newtabpage.activity-stream.feeds.topsites': false,
    'browser.newtabpage.activity-stream.feeds.telemetry': false,
    'browser.newtabpage.activity-stream.telemetry': false,
    'browser.topsites.contile.enabled': false,
    'browser.search.update': false,
    'browser.region.update.enabled': false,
    'browser.region.network.url': '',
    'browser.discovery.enabled': false,
    'browser.translations.enable': false,
    'browser.translations.automaticallyPopup': false,
    'browser.ml.enable': false,
    'browser.aboutwelcome.enabled': false,
    'browser.shell.checkDefaultBrowser': false,
    'browser.startup.page': 0,
    'browser.startup.homepage': 'about:blank',
    'browser.startup.homepage_override.mstone': 'ignore',
    'startup.homepage_welcome_url': 'about:blank',
    'startup.homepage_welcome_url.additional': '',
    'browser.uitour.enabled': false,
    'browser.tabs.warnOnClose': false,
    'browser.warnOnQuit': false,
    'identity.fxaccounts.enabled': false,
    'dom.push.connection.enabled': false,
    'media.gmp-manager.updateEnabled': false,
    'media.gmp-gmpopenh264.enabled': false,
    'geo.provider.network.url': '',
    'security.OCSP.enabled': 0,
    'security.remote_settings.crlite_filters.enabled': false,
    'security.remote_settings.intermediates.enabled': false,
    'security.certerrors.mitm.priming.enabled': false,
    'network.sntp.pools': '',
  };
}

/** How the test browser behaves, beyond the network. */
export function behaviourPrefs(): Prefs {
  return {
    // After the SIGKILL: no tabs restored (Chromium's tests restore none either) and no Safe Mode question.
    'browser.sessionstore.resume_from_crash': false,
    'toolkit.startup.max_resumed_crashes': -1,
    // The crash reporter must not wait for a person after a SIGKILL.
    'browser.crashReports.unsubmittedCheck.enabled': false,
    // English pages and messages, as the Chromium tests' --lang=en-US.
    'intl.locale.requested': 'en-US',
    'intl.accept_languages': 'en-US, en',
    // Background tabs keep Firefox's own timer throttling (a person's Firefox): the tests bring the
    // map tab to the front as a real action popup leaves it (popup.ts showCoveredTab).
    'browser.tabs.unloadOnLowMemory': false,
    'focusmanager.testmode': true,
    // Stricter than a person's Firefox (30 s): the event page is suspended 15 s after its last API
    // call or event, still longer than the product's keep-alive period while it works (10 s,
    // utils/browser/keep-alive.ts). At 3 s, under load, a collection outlasted the window between
    // two calls: the page was suspended mid-visit, woken by the tab's next event, and searched the
    // same cell again and again (seen in a rehearsal: 11 loads of one cell in 60 s, none committed).
    'extensions.background.idle.timeout': 15_000,
    'signon.rememberSignons': false,
  };
}

/** user.js in `profileDir`: one user_pref line per preference. */
export function writeUserJs(profileDir: string, prefs: Prefs): void {
  const lines = Object.entries(prefs).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`);
  writeFileSync(path.join(profileDir, 'user.js'), `${lines.join('\n')}\n`);
}
