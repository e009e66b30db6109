import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { readReviewsPause, reviewsPausedKey, type ReviewsPause } from '../utils/config/storage-keys';
import type { Sweep } from '../utils/domain/sweep';
import { buildReviewsExport, type ReviewsFormat } from '../utils/export/reviews';
import { formatNumber, t } from '../utils/i18n/t';
import { sendMessage } from '../utils/messaging/protocol';
import { countReviews, type ReviewCounts } from '../utils/reviews/queue';
import { reviewsOn } from '../utils/reviews/wire';
import type { Store } from '../utils/store';
import { downloadParts } from './download';

const POLL_MS = 3000;

/**
 * The reviews pass in the popup (issue 38), for the sweep shown with the pass on: its progress
 * ("Reviews: 412 places of 903, 18,220 reviews"), why it waits (signed out) with Resume reviews,
 * and the reviews as CSV or JSON. Numbers only: no review text is shown here.
 */
export function ReviewsPanel(props: { store: Store | null; sweep: Sweep }) {
  const { store, sweep } = props;
  const on = reviewsOn(sweep.settings);
  const [counts, setCounts] = useState<ReviewCounts | null>(null);
  const [paused, setPaused] = useState<ReviewsPause | null>(null);
  const [busy, setBusy] = useState(false);
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
  if (!on || !counts || counts.places === 0) return null;

  async function download(format: ReviewsFormat) {
    if (!store) return;
    setBusy(true);
    try {
      const file = await buildReviewsExport(store, { collection: sweep.id, fileWords: sweep.keywords }, format, new Date());
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
          {t(paused === 'signed-out' ? 'reviewsPausedSignedOut' : 'reviewsPausedBlocked')}{' '}
          <button type="button" onClick={() => void sendMessage('resumeReviews', sweep.id).then(() => setPaused(null))}>
            {t('resumeReviews')}
          </button>
        </p>
      )}
      <button type="button" disabled={busy || counts.reviews === 0} onClick={() => void download('csv')}>
        {t('exportReviewsCsv')}
      </button>
      <button type="button" disabled={busy || counts.reviews === 0} onClick={() => void download('json')}>
        {t('exportReviewsJson')}
      </button>
    </section>
  );
}
