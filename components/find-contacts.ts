import { browser } from 'wxt/browser';
import { CONTACT_ORIGINS, sendContactsMessage } from '../utils/contacts/wire';
import { userErrorText } from './user-error';

/**
 * Find contacts for a collection (every place: undefined), from the popup or the dashboard: the
 * pass queues the collection's websites and runs. Without the permission it opens the options
 * page, which asks for it (Chrome closes a popup the moment its permission prompt takes the
 * focus, before the answer could reach the popup's code). The error to show, or null.
 */
export async function findContacts(collection: string | undefined): Promise<string | null> {
  if (!(await browser.permissions.contains({ origins: CONTACT_ORIGINS }).catch(() => false))) {
    await browser.runtime.openOptionsPage();
    return null;
  }
  const reply = await sendContactsMessage('contactsStart', collection === undefined ? {} : { collection });
  return reply.ok ? null : userErrorText(reply.error);
}
