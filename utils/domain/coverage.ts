/**
 * What a sweep records of its coverage proofs: the canvas a page measured, the edges the audit
 * learnt, the audit's counts. The rules that make them live in utils/coverage/; these are the
 * words the sweep record and every layer share.
 */

/** The map canvas of a tab as the page itself measured it (CSS px), and the panel's right edge if seen. */
export interface MeasuredCanvas {
  width: number;
  height: number;
  /** Right edge of the results panel (px from the canvas's left edge), or null when the DOM did not show it. */
  panelRight: number | null;
}

/** Edges (px from the URL centre) the searched box is known to end before; learnt by the sweep's audit (audit.ts). */
export interface SpanLimits {
  left?: number;
  right?: number;
  top?: number;
  bottom?: number;
}

/** What the sweep record keeps of its audit. */
export interface SweepAudit {
  /** Rounds started (1 after the first). */
  round: number;
  /** Audit searches made so far, all rounds. */
  searched: number;
  /** Places the audit found inside done cells that the sweep had missed, all rounds. */
  missed: number;
  /** Done cells re-opened because of those errors, all rounds. */
  reopened: number;
  /** Missed places found in the latest round: the next round runs only if this is > 0. */
  missedThisRound: number;
  /** What the audit learnt: the searched box ends before these px offsets, per calibration key. */
  limits: Record<string, SpanLimits>;
}
