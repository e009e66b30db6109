import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { readReviewsPause, reviewsPausedKey, type ReviewsPause } from '../utils/config/storage-keys';
import type { Sweep } from '../utils/domain/sweep';
import { buildReviewsExport, type ReviewsFormat } from '../utils/export/reviews';
import { formatNumber, t } from '../utils/i18n/t';
import { sendMessage } from '../utils/messaging/protocol';
import { countReviews, type ReviewCounts } from '../utils/reviews/queue';
import { reviewsOn } from '../utils/reviews/wire';
import { providerFor } from '../utils/providers/registry';
import type { UserError } from '../utils/messaging/protocol';
import { userErrorText } from './user-error';
import type { Store } from '../utils/store';
import { downloadParts } from './download';
import type { PlaceFilter } from '../utils/config/settings';

const POLL_MS = 3000;

/**
 * The reviews pass in the popup (issue 38), for the sweep shown with the pass on: its progress
 * ("Reviews: 412 places of 903, 18,220 reviews"), why it waits (signed out) with Resume reviews,
 * and the reviews as CSV or JSON. On a finished sweep of a site whose reviews are read: Read
 * reviews (the pass was off for it) or Read new reviews (its reading is over), with the options'
 * limits. Numbers only: no review text is shown here.
 */
export function ReviewsPanel(props: {
  store: Store | null;
  sweep: Sweep /** The options' filters now: the file holds the reviews of the places that pass. */;
  filter?: PlaceFilter;
}) {
  const { store, sweep } = props;
  const on = reviewsOn(sweep.settings);
  const [counts, setCounts] = useState<ReviewCounts | null>(null);
  const [paused, setPaused] = useState<ReviewsPause | null>(null);
  const [busy, setBusy] = useState(false);
  const [askError, setAskError] = useState<UserError | null>(null);
  const [asked, setAsked] = useState(false);
  const readable = sweep.status === 'finished' && !!providerFor(sweep.provider).reviews;
  useEffect(() => {
    if (!store || !on) return;
    let live = true;
    const read = () => {
      void countReviews(store, sweep.id).then(
        (c) => live && setCounts(c),
        () => {},
      );
      void browser.storage.local.get(reviewsPausedKey(sweep.id)).then((v) => live && setPaused(readReviewsPause(v[reviewsPausedKey(sweep.id)])));
    };
    read();
    const timer = setInterval(read, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [store, sweep.id, on]);
  // A reading asked for is under way once its places are open again: the next one may be asked for when it is over.
  useEffect(() => {
    if (counts && counts.done + counts.failed < counts.places) setAsked(false);
  }, [counts]);

  async function ask() {
    setAskError(null);
    const reply = await sendMessage('readReviews', sweep.id);
    if (reply.ok) {
      setAsked(true);
      setPaused(null);
    } else setAskError(reply.error);
  }
  const askButton = (label: string) => (
    <>
      <button type="button" disabled={asked} onClick={() => void ask()}>
        {label}
      </button>
      {askError && (
        <p class="error" role="alert">
          {userErrorText(askError)}
        </p>
      )}
    </>
  );

  if (!on) return readable && !asked ? <section aria-label={t('optionReviewsLegend')}>{askButton(t('readReviews'))}</section> : null;
  if (!counts || counts.places === 0) return null;
  const over = counts.done + counts.failed === counts.places;

  async function download(format: ReviewsFormat) {
    if (!store) return;
    setBusy(true);
    try {
      const scope = { collection: sweep.id, fileWords: sweep.keywords, ...(props.filter ? { filter: props.filter } : {}) };
      const file = await buildReviewsExport(store, scope, format, new Date());
      downloadParts(file.parts, file.fileName, file.type);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-label={t('optionReviewsLegend')}>
      <p data-testid="reviews-progress">
        {t('reviewsProgress', formatNumber(counts.done + counts.failed), formatNumber(counts.places), formatNumber(counts.reviews))}
      </p>
      {paused && (
        <p class="error" role="alert">
          {t(paused === 'signed-out' ? 'reviewsPausedSignedOut' : paused === 'host-access' ? 'warning_host_access' : 'reviewsPausedBlocked')}{' '}
          <button type="button" onClick={() => void sendMessage('resumeReviews', sweep.id).then(() => setPaused(null))}>
            {t('resumeReviews')}
          </button>
        </p>
      )}
      {readable && over && askButton(t('readNewReviews'))}
      <button type="button" disabled={busy || counts.reviews === 0} onClick={() => void download('csv')}>
        {t('exportReviewsCsv')}
      </button>
      <button type="button" disabled={busy || counts.reviews === 0} onClick={() => void download('json')}>
        {t('exportReviewsJson')}
      </button>
    </section>
  );
}
