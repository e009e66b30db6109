/**
 * One row of the Businesses table (BusinessesPanel.tsx): a business across the three sites, its
 * members, the scores and reasons of its links, the user's confirm and break; and the links the
 * user broke. Page content throughout: shown as text, never as markup.
 */
import type { LinkView, MemberView, RowView } from '../../utils/dashboard/businesses';
import type { Difference } from '../../utils/match/differences';
import type { AmbiguityWhy, EvidenceKind, LinkDecision, LinkDecisionRecord, PairScore } from '../../utils/match/types';
import { formatNumber, t } from '../../utils/i18n/t';
import type { ProviderId } from '../../utils/domain/place';
import { PROVIDERS, providerById } from '../../utils/providers/registry';
import { CELL } from './table-styles';

export const SITES: readonly ProviderId[] = PROVIDERS.map((p) => p.id);
export const siteName = (site: ProviderId) => providerById(site)?.displayName ?? site;

const DIFFERENCE_LABEL: Record<Difference, string> = {
  phone: 'columnPhone',
  address: 'columnAddress',
  name: 'columnName',
  hours: 'businessesDiffersHours',
  closed: 'businessesDiffersClosed',
};
const REASON_LABEL: Record<EvidenceKind, string> = {
  distance: 'businessesReasonDistance',
  name: 'columnName',
  phone: 'columnPhone',
  address: 'columnAddress',
  category: 'columnCategory',
};
const WHY_LABEL: Record<AmbiguityWhy, string> = { 'close-runner-up': 'businessesWhyCloseRunnerUp', inconsistent: 'businessesWhyInconsistent' };
const CLOSED_LABEL = { permanently: 'businessesClosedPermanently', temporarily: 'businessesClosedTemporarily' } as const;

export function BrokenLinks(props: { decisions: readonly LinkDecisionRecord[]; busy: boolean; decide(a: string, b: string, d: LinkDecision | null): void }) {
  const broken = props.decisions.filter((d) => d.decision === 'broken');
  if (broken.length === 0) return null;
  return (
    <details data-testid="broken-links">
      <summary>{t('businessesBrokenTitle', formatNumber(broken.length))}</summary>
      <ul>
        {broken.map((d) => (
          <li key={d.id}>
            {`${d.a} ↔ ${d.b}`}{' '}
            <button
              type="button"
              disabled={props.busy}
              aria-label={t('actionFor', t('buttonUndoLink'), `${d.a} ↔ ${d.b}`)}
              onClick={() => props.decide(d.a, d.b, null)}
            >
              {t('buttonUndoLink')}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function Row(props: { row: RowView; threshold: number | null; busy: boolean; decide(a: string, b: string, d: LinkDecision | null): void }) {
  const { row } = props;
  const names = new Map(row.bySite.flat().map((m) => [m.key, m.shown?.name ?? m.key]));
  const pairName = (p: { a: string; b: string }) => `${names.get(p.a) ?? p.a} ↔ ${names.get(p.b) ?? p.b}`;
  return (
    <tr data-row={row.kind}>
      {row.bySite.map((members, i) => (
        <td key={SITES[i]} style={CELL}>
          {members.length === 0 ? '—' : members.map((m) => <Member key={m.key} member={m} />)}
        </td>
      ))}
      <td style={CELL}>
        {row.kind === 'business' && row.score !== null && <Score score={row.score} threshold={props.threshold} />}
        {row.kind === 'business' && <Pairs pairs={row.links} name={pairName} threshold={props.threshold} />}
        {row.kind === 'left' && (
          <>
            <div>{t(WHY_LABEL[row.why])}</div>
            <Pairs pairs={row.candidates} name={pairName} threshold={props.threshold} />
          </>
        )}
      </td>
      <td style={CELL}>{row.kind === 'business' && row.differs.length > 0 ? row.differs.map((d) => t(DIFFERENCE_LABEL[d])).join(', ') : '—'}</td>
      <td style={CELL}>{row.kind !== 'left' && row.missingOn.length > 0 ? row.missingOn.map(siteName).join(', ') : '—'}</td>
      <td style={{ ...CELL, display: 'flex', flexDirection: 'column', gap: '4px', alignItems: 'flex-start' }}>
        {row.kind === 'business' &&
          row.links.map((l) => <LinkActions key={`${l.a}|${l.b}`} link={l} label={pairName(l)} busy={props.busy} decide={props.decide} />)}
        {row.kind === 'left' &&
          row.candidates.map((c) => (
            <button
              key={`${c.a}|${c.b}`}
              type="button"
              disabled={props.busy}
              aria-label={t('actionFor', t('buttonSameBusiness'), pairName(c))}
              onClick={() => props.decide(c.a, c.b, 'confirmed')}
            >
              {t('buttonSameBusiness')}
            </button>
          ))}
      </td>
    </tr>
  );
}

function LinkActions(props: { link: LinkView; label: string; busy: boolean; decide(a: string, b: string, d: LinkDecision | null): void }) {
  const { a, b, by } = props.link;
  return (
    <span style={{ display: 'flex', gap: '4px' }}>
      <button type="button" disabled={props.busy} aria-label={t('actionFor', t('buttonBreakLink'), props.label)} onClick={() => props.decide(a, b, 'broken')}>
        {t('buttonBreakLink')}
      </button>
      {by === 'user' && (
        <button type="button" disabled={props.busy} aria-label={t('actionFor', t('buttonUndoLink'), props.label)} onClick={() => props.decide(a, b, null)}>
          {t('buttonUndoLink')}
        </button>
      )}
    </span>
  );
}

function Member(props: { member: MemberView }) {
  const s = props.member.shown;
  if (!s) return <div>{t('businessesListingGone', props.member.key)}</div>;
  return (
    <div>
      <strong>{s.name}</strong>
      {s.phone && <div>{s.phone}</div>}
      {s.address && <div>{s.address}</div>}
      {s.closed && <div>{t(CLOSED_LABEL[s.closed])}</div>}
    </div>
  );
}

function Score(props: { score: number; threshold: number | null }) {
  return <div>{props.threshold === null ? formatNumber(props.score) : t('businessesScore', formatNumber(props.score), formatNumber(props.threshold))}</div>;
}

type Pair = Pick<PairScore, 'a' | 'b' | 'score' | 'reasons'>;

/** Each pair with its score and the reasons for and against, as the linker weighed them. */
function Pairs(props: { pairs: ReadonlyArray<Pair & { by?: 'score' | 'user' }>; name(p: Pair): string; threshold: number | null }) {
  return (
    <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
      {props.pairs.map((p) => (
        <li key={`${p.a}|${p.b}`}>
          {props.name(p)}: <Score score={p.score} threshold={props.threshold} />
          {p.by === 'user' && <div>{t('businessesLinkByUser')}</div>}
          <ul style={{ margin: 0, paddingLeft: '1.2em' }}>
            {p.reasons.map((r, i) => (
              <li key={i}>
                {signed(r.points)} {t(REASON_LABEL[r.kind])}: {r.detail}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

function signed(points: number): string {
  return points > 0 ? `+${formatNumber(points)}` : formatNumber(points);
}
