import { useState } from 'preact/hooks';
import { formatNumber, t } from '../../utils/i18n/t';
import { sendListMessage, type ListCheck, type ListInput } from '../../utils/lists/protocol';
import type { Reply } from '../../utils/messaging/protocol';
import { userErrorText } from '../user-error';

export interface PlaceListPanelProps {
  /** A new list was confirmed: the collections are read again. */
  onStarted(listId: string): void;
  /** For tests: the background's answers (the page sends them as messages). */
  send?: {
    check(req: ListInput): Promise<Reply<{ check: ListCheck }>>;
    start(req: ListInput & { name: string }): Promise<Reply<{ listId: string }>>;
  };
}

const BACKGROUND = {
  check: (req: ListInput) => sendListMessage('checkList', req),
  start: (req: ListInput & { name: string }) => sendListMessage('startList', req),
};

/**
 * A list of places as input (issue 40): pasted or read from a file, checked by the background
 * (every bad line with its number and reason, what it costs), and collected only once the person
 * confirms what was checked. Changing the text or the columns asks for a new check.
 */
export function PlaceListPanel(props: PlaceListPanelProps) {
  const send = props.send ?? BACKGROUND;
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [column, setColumn] = useState<string | null>(null);
  const [siteColumn, setSiteColumn] = useState<string | null>(null);
  const [check, setCheck] = useState<ListCheck | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const input = (): ListInput => ({ text, column, siteColumn });
  const stale = () => {
    setCheck(null);
    setStarted(null);
  };

  async function act(status: string, body: () => Promise<void>) {
    setBusy(status);
    setError(null);
    try {
      await body();
    } catch (e) {
      setError(t('actionFailed', e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(null);
    }
  }

  const onCheck = () =>
    act(t('listChecking'), async () => {
      const reply = await send.check(input());
      if (!reply.ok) return setError(userErrorText(reply.error));
      setCheck(reply.check);
      if (reply.check.status === 'choose-column' && column === null) setColumn(reply.check.suggested);
    });

  const onStart = () =>
    act(t('listStarting'), async () => {
      const reply = await send.start({ ...input(), name });
      if (!reply.ok) return setError(userErrorText(reply.error));
      setStarted(name.trim());
      setCheck(null);
      setText('');
      setName('');
      props.onStarted(reply.listId);
    });

  const read = check?.status === 'read' ? check : null;
  const toCollect = read ? read.places.google + read.places.naver + read.places.kakao + read.shares : 0;

  return (
    <section class="place-list" aria-labelledby="place-list-title">
      <h2 id="place-list-title">{t('sectionPlaceList')}</h2>
      <p>{t('placeListHelp')}</p>
      <label>
        {t('fieldListName')}
        <input type="text" value={name} maxLength={120} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        {t('fieldPlaceList')}
        <textarea
          rows={8}
          value={text}
          onInput={(e) => {
            setText((e.currentTarget as HTMLTextAreaElement).value);
            setColumn(null);
            setSiteColumn(null);
            stale();
          }}
        />
      </label>
      <label>
        {t('fieldPlaceListFile')}
        <input
          type="file"
          accept=".txt,.csv,.tsv,text/plain,text/csv"
          onChange={(e) => {
            const file = (e.currentTarget as HTMLInputElement).files?.[0];
            if (!file) return;
            void act(t('listReadingFile'), async () => {
              setText(await file.text());
              setColumn(null);
              setSiteColumn(null);
              stale();
            });
          }}
        />
      </label>
      {check?.status === 'choose-column' && (
        <fieldset>
          <legend>{t('listColumns')}</legend>
          <p>{check.reason}</p>
          <label>
            {t('fieldListColumn')}
            <select
              value={column ?? ''}
              onChange={(e) => {
                setColumn((e.currentTarget as HTMLSelectElement).value || null);
                stale();
              }}
            >
              <option value="">—</option>
              {check.columns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('fieldListSiteColumn')}
            <select
              value={siteColumn ?? ''}
              onChange={(e) => {
                setSiteColumn((e.currentTarget as HTMLSelectElement).value || null);
                stale();
              }}
            >
              <option value="">—</option>
              {check.columns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        </fieldset>
      )}
      <p>
        <button type="button" disabled={busy !== null || text.trim() === ''} onClick={() => void onCheck()}>
          {t('buttonCheckList')}
        </button>
      </p>
      {check?.status === 'refused' && (
        <p class="error" role="alert">
          {t('listRefused', check.reason)}
        </p>
      )}
      {read && (
        <section class="list-check" aria-label={t('listCheckTitle')}>
          <p role="status">
            {t(
              'listCheckLine',
              formatNumber(read.places.google),
              formatNumber(read.places.naver),
              formatNumber(read.places.kakao),
              formatNumber(read.shares),
              formatNumber(read.duplicates),
              formatNumber(read.badCount),
            )}
          </p>
          <p>{t('listEstimateLine', formatNumber(read.estimate.loads), formatNumber(read.estimate.minutes), formatNumber(read.storedBefore))}</p>
          {read.badCount > 0 && (
            <table aria-label={t('listBadLines')}>
              <caption>{t('listBadLinesCaption', formatNumber(read.badCount))}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('columnLine')}</th>
                  <th scope="col">{t('columnEntry')}</th>
                  <th scope="col">{t('columnReason')}</th>
                </tr>
              </thead>
              <tbody>
                {read.bad.map((b) => (
                  <tr key={b.line}>
                    <td class="number">{formatNumber(b.line)}</td>
                    <td>{b.text}</td>
                    <td>{b.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <button type="button" disabled={busy !== null || toCollect === 0 || name.trim() === ''} onClick={() => void onStart()}>
            {t('buttonCollectList', formatNumber(toCollect))}
          </button>
          {name.trim() === '' && <p>{t('listNeedsName')}</p>}
        </section>
      )}
      <p role="status" class="busy">
        {busy ?? (started ? t('listStarted', started) : '')}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
