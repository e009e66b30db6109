import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { hasHostAccess, mapHostOrigins } from '../utils/browser/host-access';
import { PROVIDERS } from '../utils/providers/registry';
import { t } from '../utils/i18n/t';

/**
 * Where the browser leaves the map hosts to the person (Firefox's Manifest V3), the popup asks
 * for them: one button, whose click is the user gesture `permissions.request` needs, asking for
 * every map host of the manifest. Shown only while a site's sweep hosts are missing, so Chrome (which grants them at install) never shows it. Granted or
 * withdrawn elsewhere (about:addons), the notice follows.
 */
export function HostAccessNotice() {
  const [granted, setGranted] = useState<boolean | null>(null);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    // What the three sites' sweeps need (MapProvider.hostAccess); Google's other domains, where
    // only the person's own tab may be, are asked for by the button but never required.
    const check = () =>
      void hasHostAccess(
        browser,
        PROVIDERS.flatMap((p) => p.hostAccess),
      ).then(setGranted);
    check();
    browser.permissions.onAdded.addListener(check);
    browser.permissions.onRemoved.addListener(check);
    return () => {
      browser.permissions.onAdded.removeListener(check);
      browser.permissions.onRemoved.removeListener(check);
    };
  }, []);
  if (granted !== false) return null;

  function allow() {
    setRefused(false);
    // Called straight from the click: a request after an await is no longer the person's gesture.
    void browser.permissions
      .request({ origins: mapHostOrigins(browser) })
      .catch(() => false)
      .then((ok) => {
        setGranted(ok);
        setRefused(!ok);
      });
  }

  return (
    <section class="error" role="alert">
      <p>{t('hostAccessNeeded')}</p>
      <button type="button" onClick={allow}>
        {t('hostAccessAllow')}
      </button>
      {refused && <p>{t('hostAccessRefused')}</p>}
    </section>
  );
}
