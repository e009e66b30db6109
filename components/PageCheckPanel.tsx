import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { formatNumber, t } from '../utils/i18n/t';
import { sendCheckMessage } from '../utils/messaging/check-protocol';
import { CHECKED_FIELDS, type PageCheck } from '../utils/report/check';
import { userErrorText } from './user-error';
import { downloadParts } from './download';
import { buildPageReport, reportFileName, type PageReport } from '../utils/report/report';
import type { ProviderId } from '../utils/domain/place';
import { blockedPageKindOf, providerOfUrl } from '../utils/providers/registry';

/**
 * Check this page (issue 41): what MapSweep's readers make of the map page in this window's tab,
 * before a sweep is spent on it. Nothing is scrolled, pressed or loaded; the answer is a short
 * table and one line of verdict. Page content is shown as text (Preact escapes it).
 */
export function PageCheckPanel() {
  const [check, setCheck] = useState<PageCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<PageReport | null>(null);

  /** The map tab the popup was opened over; a popup opened as a tab of its own names none (the map tab used last). */
  async function tabToCheck(): Promise<{ tabId?: number }> {
    const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
    return tab?.id !== undefined && tab.url && (providerOfUrl(tab.url) || blockedPageKindOf(tab.url)) ? { tabId: tab.id } : {};
  }

  /** The report, redacted here before anything is shown or saved; saved only on the second press. */
  async function prepareReport() {
    setBusy(true);
    setError(null);
    setReport(null);
    try {
      const reply = await sendCheckMessage('pageReportSource', await tabToCheck());
      if (!reply.ok) return setError(userErrorText(reply.error));
      const made = buildPageReport(
        {
          site: reply.site as ProviderId,
          url: reply.url,
          html: reply.html,
          check: reply.check as PageCheck,
          now: new Date(),
          version: browser.runtime.getManifest().version,
        },
        (html) => new DOMParser().parseFromString(html, 'text/html'),
      );
      setCheck(made.check);
      setReport(made);
    } catch (e) {
      setError(t('actionFailed', e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(false);
    }
  }

  async function run() {
    setBusy(true);
    setError(null);
    setCheck(null);
    try {
      setReport(null);
      const reply = await sendCheckMessage('checkPage', await tabToCheck());
      if (reply.ok) setCheck(reply.check as PageCheck);
      else setError(userErrorText(reply.error));
    } catch (e) {
      setError(t('actionFailed', e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="page-check" aria-labelledby="page-check-title">
      <h2 id="page-check-title">{t('sectionPageCheck')}</h2>
      <button type="button" disabled={busy} onClick={() => void run()}>
        {t('buttonCheckPage')}
      </button>
      <button type="button" disabled={busy} onClick={() => void prepareReport()}>
        {t('buttonPageReport')}
      </button>
      {busy && <p role="status">{t('checkingPage')}</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {check && (
        <>
          <p role="status" class={check.ok ? 'ok' : 'error'} data-testid="page-check-verdict">
            {t(check.verdictKey, ...check.verdictParams) || check.verdict}
          </p>
          <table aria-label={t('pageCheckTable')}>
            <tbody>
              <tr>
                <th scope="row">{t('checkPageKind')}</th>
                <td>{t(`checkKind_${check.kind.replace('-', '_')}`)}</td>
              </tr>
              <tr>
                <th scope="row">{t('checkLanguage')}</th>
                <td>{check.lang ?? '—'}</td>
              </tr>
              <tr>
                <th scope="row">{t('checkCards')}</th>
                <td>{t('checkCardsLine', formatNumber(check.cardsSeen), formatNumber(check.cardsRead))}</td>
              </tr>
              {CHECKED_FIELDS.map((f) => (
                <tr key={f}>
                  <th scope="row">{t(`checkField_${f}`)}</th>
                  <td>{t('checkFieldLine', formatNumber(check.fields[f]), formatNumber(check.cardsRead))}</td>
                </tr>
              ))}
              <tr>
                <th scope="row">{t('checkEndOfList')}</th>
                <td>{check.endOfList ? t('checkYes') : t('checkNotSeen')}</td>
              </tr>
              <tr>
                <th scope="row">{t('checkPageData')}</th>
                <td>{check.pageData ? t('checkYes') : t('checkNotSeen')}</td>
              </tr>
            </tbody>
          </table>
        </>
      )}
      {report && (
        <section aria-label={t('pageReportTitle')}>
          <p>{t('pageReportHolds')}</p>
          <ul data-testid="page-report-contents">
            <li>{t('pageReportStructure', formatNumber(report.stats.elements))}</li>
            <li>
              {t('pageReportTexts', formatNumber(report.stats.textNodes.redacted + report.stats.textNodes.partly), formatNumber(report.stats.textNodes.kept))}
            </li>
            <li>
              {t('pageReportIds', formatNumber(report.stats.ids), formatNumber(report.stats.attributes.urls), formatNumber(report.stats.scripts.redacted))}
            </li>
            <li>{t('pageReportAddress', report.url)}</li>
            <li>{t('pageReportCheck')}</li>
          </ul>
          <p>{t('pageReportNothingSent')}</p>
          <button type="button" onClick={() => downloadParts([JSON.stringify(report, null, 1)], reportFileName(report), 'application/json')}>
            {t('buttonSaveReport')}
          </button>
        </section>
      )}
    </section>
  );
}
