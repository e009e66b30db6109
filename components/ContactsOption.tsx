import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { CONTACT_ORIGINS } from '../utils/contacts/wire';
import { contactsCost } from '../utils/contacts/estimate';
import { DEFAULT_CONTACTS_SETTINGS } from '../utils/contacts/pass';
import type { AllSettings } from '../utils/config/settings';
import { t } from '../utils/i18n/t';

/**
 * "Contacts from websites" in the options page: ticking it asks for the optional host
 * permission (the click is the user gesture `permissions.request` needs); refused, the option
 * stays off and says so. Unticking it withdraws the permission, which stops a running pass.
 */
export function ContactsOption(props: { settings: AllSettings; save(next: AllSettings): Promise<void> }) {
  const { settings, save } = props;
  const [granted, setGranted] = useState<boolean | null>(null);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    void browser.permissions.contains({ origins: CONTACT_ORIGINS }).then(setGranted, () => setGranted(false));
  }, []);
  const cost = contactsCost(DEFAULT_CONTACTS_SETTINGS);

  async function toggle(on: boolean) {
    setRefused(false);
    if (on) {
      const ok = await browser.permissions.request({ origins: CONTACT_ORIGINS }).catch(() => false);
      setGranted(ok);
      if (!ok) {
        setRefused(true);
        return;
      }
      await save({ ...settings, contactsFromWebsites: true });
    } else {
      await save({ ...settings, contactsFromWebsites: false });
      await browser.permissions.remove({ origins: CONTACT_ORIGINS }).catch(() => false);
      setGranted(false);
    }
  }

  return (
    <>
      <label>
        <input
          type="checkbox"
          checked={settings.contactsFromWebsites && granted === true}
          disabled={granted === null}
          onChange={(e) => void toggle((e.target as HTMLInputElement).checked)}
        />{' '}
        {t('optionContacts')}
      </label>
      <p class="hint">{t('optionContactsCost', cost.pagesPerSite, cost.gapSeconds, cost.sitesPerHour.toLocaleString())}</p>
      {(refused || (settings.contactsFromWebsites && granted === false)) && (
        <p class="error" role="alert">
          {t('optionContactsRefused')}
        </p>
      )}
      <label>
        {t('optionContactsRecheck')}
        <input
          type="number"
          min={1}
          max={365}
          step={1}
          value={settings.contactsRecheckDays}
          onChange={(e) => void save({ ...settings, contactsRecheckDays: Number((e.target as HTMLInputElement).value) })}
        />
      </label>
    </>
  );
}
