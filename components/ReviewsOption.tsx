import type { AllSettings } from '../utils/config/settings';
import { t } from '../utils/i18n/t';

/**
 * "Reviews" in the options page (issue 38): the pass is off by default; its limit per place; and
 * whether the reviewer's name is kept (personal data, off by default, said so beside the box).
 */
export function ReviewsOption(props: { settings: AllSettings; save(next: AllSettings): Promise<void> }) {
  const { settings, save } = props;
  return (
    <fieldset>
      <legend>{t('optionReviewsLegend')}</legend>
      <label>
        <input type="checkbox" checked={settings.reviews} onChange={(e) => void save({ ...settings, reviews: (e.target as HTMLInputElement).checked })} />{' '}
        {t('optionReviews')}
      </label>
      <label>
        {t('optionReviewsPerPlace')}{' '}
        <input
          type="number"
          min={1}
          max={10_000}
          step={1}
          value={settings.reviewsPerPlace}
          onChange={(e) => void save({ ...settings, reviewsPerPlace: Number((e.target as HTMLInputElement).value) })}
        />
      </label>
      <label>
        {t('optionReviewsSince')}{' '}
        <input type="date" value={settings.reviewsSince} onChange={(e) => void save({ ...settings, reviewsSince: (e.target as HTMLInputElement).value })} />
      </label>
      <label>
        <input
          type="checkbox"
          checked={settings.reviewsKeepAuthor}
          onChange={(e) => void save({ ...settings, reviewsKeepAuthor: (e.target as HTMLInputElement).checked })}
        />{' '}
        {t('optionReviewsKeepAuthor')}
      </label>
      <p class="hint">{t('optionReviewsPersonalData')}</p>
    </fieldset>
  );
}
