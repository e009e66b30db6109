import { Fragment } from 'preact';
import { cellVerdict } from '../../utils/dashboard/cell-verdict';
import { renderText, type Text } from '../../utils/i18n/text';
import { formatDateTime, formatNumber, t } from '../../utils/i18n/t';
import type { Cell } from '../../utils/domain/sweep';

const show = (value: Text): string => renderText(value, t, formatDateTime);
/** Numbers in the interface's language: the view model's numbers are raw. */
const showNumbers = (value: Text): string =>
  renderText(value, (key, ...params) => t(key, ...params.map((p) => (typeof p === 'number' ? formatNumber(p) : p))), formatDateTime);

/**
 * One cell's verdict under the coverage map. Everything that came from the page (the last
 * error's message) is rendered as a text node by Preact, never as HTML.
 */
export function CellVerdict(props: { cell: Cell | null; pinned: boolean }) {
  if (!props.cell) {
    return (
      <p class="cell-verdict hint" data-testid="cell-verdict">
        {t('mapHint')}
      </p>
    );
  }
  const v = cellVerdict(props.cell);
  return (
    <aside class={`cell-verdict${v.unresolved ? ' unresolved' : ''}${props.pinned ? ' pinned' : ''}`} data-testid="cell-verdict" data-cell={v.id}>
      <h3>{t('cellVerdictTitle', v.id, v.keyword, formatNumber(v.depth))}</h3>
      <dl>
        <dt>{t('cellVerdictStatus')}</dt>
        <dd data-fact="status">{show(v.statusText)}</dd>
        <dt>{t('cellVerdictReason')}</dt>
        <dd data-fact="reason">{show(v.reasonText)}</dd>
        {v.facts.map((f) => (
          <Fragment key={f.name}>
            <dt>{show(f.label)}</dt>
            <dd data-fact={f.name}>{showNumbers(f.value)}</dd>
          </Fragment>
        ))}
      </dl>
    </aside>
  );
}
