import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { hasMapHostAccess, mapHostOrigins } from '../utils/browser/host-access';
import { t } from '../utils/i18n/t';

/**
 * Where the browser leaves the map hosts to the person (Firefox's Manifest V3), the popup asks
 * for them: one button, whose click is the user gesture `permissions.request` needs. Shown only
 * while they are missing, so Chrome (which grants them at install) never shows it. Granted or
 * withdrawn elsewhere (about:addons), the notice follows.
 */
export function HostAccessNotice() {
  const [granted, setGranted] = useState<boolean | null>(null);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    const check = () => void hasMapHostAccess(browser).then(setGranted);
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
