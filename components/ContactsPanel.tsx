import { useEffect, useState } from 'preact/hooks';
import { sendContactsMessage, type ContactsStatus } from '../utils/contacts/wire';
import { t } from '../utils/i18n/t';
import { findContacts } from './find-contacts';

/** How long after an answer the popup asks again for the pass's coverage: it walks the collection's listings. */
const POLL_MS = 3000;

/**
 * The contacts pass in the popup, for the places the export would write: its coverage
 * ("contacts checked for 812 of 903 places with a website: 540 with an e-mail"), Find contacts
 * (without the permission it opens the options page, which asks for it) and Pause. Numbers only: no text of any website is shown here.
 */
export function ContactsPanel(props: { collection: string | undefined }) {
  const [status, setStatus] = useState<ContactsStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const req = props.collection === undefined ? {} : { collection: props.collection };

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // One question at a time: the next is asked POLL_MS after the last answer, never on top of it.
    const read = () =>
      void sendContactsMessage('contactsStatus', req)
        .then((r) => live && r.ok && setStatus(r.status), () => {})
        .finally(() => {
          if (live) timer = setTimeout(read, POLL_MS);
        });
    read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.collection]);

  async function find() {
    setError(await findContacts(props.collection));
    const r = await sendContactsMessage('contactsStatus', req);
    if (r.ok) setStatus(r.status);
  }
  async function pause() {
    await sendContactsMessage('contactsPause', undefined);
    const r = await sendContactsMessage('contactsStatus', req);
    if (r.ok) setStatus(r.status);
  }

  const c = status?.coverage;
  const state = status?.state;
  const line =
    state?.status === 'running'
      ? t('contactsRunning', (c?.open ?? 0).toLocaleString())
      : state?.status === 'paused'
        ? t(state.reason === 'permission' ? 'contactsPausedPermission' : 'contactsPausedUser')
        : '';
  return (
    <section class="contacts" data-testid="contacts">
      {c && c.withWebsite > 0 && (
        <p class="health" data-testid="contacts-coverage">
          {t('contactsCoverage', c.checked.toLocaleString(), c.withWebsite.toLocaleString(), c.withEmail.toLocaleString())}
        </p>
      )}
      <div class="row">
        {state?.status === 'running' ? (
          <button type="button" onClick={() => void pause()}>
            {t('buttonPauseContacts')}
          </button>
        ) : (
          <button type="button" disabled={!c || c.withWebsite === 0} onClick={() => void find()}>
            {t('buttonFindContacts')}
          </button>
        )}
      </div>
      <p role="status" class="health" data-testid="contacts-status">
        {line}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
