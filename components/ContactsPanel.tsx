import { useEffect, useRef, useState } from 'preact/hooks';
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
  /** Asks for the status now (and goes on asking while the pass runs). */
  const polls = useRef<(() => void) | null>(null);
  const req = props.collection === undefined ? {} : { collection: props.collection };

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // One question at a time, and again only while the pass runs: the coverage walks the
    // collection's listings, which a popup left open must not do every few seconds for nothing.
    const read = () => {
      clearTimeout(timer);
      void sendContactsMessage('contactsStatus', req).then(
        (r) => {
          if (!live || !r.ok) return;
          setStatus(r.status);
          if (r.status.state.status === 'running') timer = setTimeout(read, POLL_MS);
        },
        () => {},
      );
    };
    read();
    polls.current = read;
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.collection]);

  async function find() {
    setError(await findContacts(props.collection));
    polls.current?.();
  }
  async function pause() {
    await sendContactsMessage('contactsPause', undefined);
    polls.current?.();
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
          <button type="button" disabled={!status || c?.withWebsite === 0} onClick={() => void find()}>
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
