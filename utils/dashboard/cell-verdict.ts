import { isUnresolved as isUnresolvedReason } from '../grid/decide';
import type { CellDecisionReason } from '../grid/types';
import { text, type Text } from '../i18n/text';
import type { Cell, CellStatus } from '../domain/sweep';

/**
 * Every reason the planner can record, listed at run time so the UI and its tests can check
 * that each one has words in both languages. The Record forces this list to follow the type:
 * a reason added to CellDecisionReason without a line here does not compile.
 */
const REASONS: Record<CellDecisionReason, true> = {
  'no-results': true,
  'single-result': true,
  'site-zoomed-out': true,
  'results-outside': true,
  'end-of-list': true,
  'cap-hit': true,
  'no-end-marker': true,
  'min-size': true,
  'cell-cap': true,
  'zoomed-out-capped': true,
  'view-not-covering': true,
  'search-unknown': true,
  audit: true,
};
export const CELL_REASONS = Object.keys(REASONS) as CellDecisionReason[];

/**
 * Saturated for another reason than crowding: no search proved the cell complete. The user
 * must see these apart from "crowded at the closest zoom", since splitting would not help and
 * the places there are not known to be all of them.
 */
export const UNRESOLVED_REASONS: readonly CellDecisionReason[] = CELL_REASONS.filter((r) => isUnresolvedReason(r));

/** The part of a cell the verdict needs (the coverage map's cells may be lighter than Cell). */
export type VerdictCell = Pick<Cell, 'status'> & { result?: Pick<NonNullable<Cell['result']>, 'reason'> | null };

export function isUnresolved(cell: VerdictCell): boolean {
  const reason = cell.result?.reason;
  return cell.status === 'saturated' && isUnresolvedReason(reason);
}

/** Message keys can hold only letters, digits and `_`. */
export const reasonKey = (reason: CellDecisionReason): string => `cellReason_${reason.replace(/-/g, '_')}`;

/** A labelled line of the verdict: its label's message key and its value. */
export interface VerdictFact {
  /** Stable name, for tests and data attributes. */
  name: 'organic' | 'newListings' | 'placesHere' | 'attempts' | 'lastError';
  label: Text;
  /** Text from the page (an error message) stays a plain string: rendered as a text node, never as HTML. */
  value: Text;
}

export interface CellVerdictView {
  id: string;
  keyword: string;
  depth: number;
  status: CellStatus;
  unresolved: boolean;
  statusText: Text;
  reasonText: Text;
  facts: VerdictFact[];
}

/**
 * What the dashboard says about one cell: its status (unresolved apart from saturated), the
 * planner's reason in words, and the figures of its last search. A cell searched before the
 * reason was kept says so rather than guessing one; a cell never searched says that.
 */
export function cellVerdict(cell: Cell): CellVerdictView {
  const unresolved = isUnresolved(cell);
  const result = cell.result;
  let reasonText: Text;
  if (result?.reason) reasonText = text(reasonKey(result.reason));
  else if (result) reasonText = text('cellReason_older_version');
  else if (cell.status === 'outside') reasonText = text('cellReason_outside');
  else if (cell.status === 'quarantined') reasonText = text('cellReason_failed');
  else reasonText = text('cellReason_not_searched');

  const facts: VerdictFact[] = [];
  if (result) {
    facts.push({ name: 'organic', label: text('cellFact_organic'), value: text('cellFact_number', result.organic) });
    facts.push({ name: 'newListings', label: text('cellFact_new'), value: text('cellFact_number', result.newListings) });
    // A saturated cell's places are kept but may not be all of them: say how many, and that.
    if (cell.status === 'saturated') {
      facts.push({ name: 'placesHere', label: text('cellFact_places_here'), value: text('cellFact_places_here_value', result.organic) });
    }
  }
  facts.push({ name: 'attempts', label: text('cellFact_attempts'), value: text('cellFact_number', cell.attempts) });
  if (cell.lastError) {
    facts.push({
      name: 'lastError',
      label: text('cellFact_last_error'),
      value: text('cellFact_error_value', errorKindText(cell.lastError.kind), cell.lastError.message, { at: cell.lastError.at }),
    });
  }
  return {
    id: cell.id,
    keyword: cell.keyword,
    depth: cell.depth,
    status: cell.status,
    unresolved,
    statusText: unresolved ? text('cellStatus_unresolved') : text(`cellStatus_${cell.status}`),
    reasonText,
    facts,
  };
}

/** The Health panel's words for an error kind; a cell's error keeps no HTTP status, so 'http' has the generic one. */
function errorKindText(kind: NonNullable<Cell['lastError']>['kind']): Text {
  return kind === 'http' ? text('health_error_http_unknown') : text(`health_error_${kind}`);
}
