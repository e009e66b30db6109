/**
 * What the sweep's loop asks of a team (utils/team/gate.ts answers): the port is the driver's,
 * so the driver names no team code, and the team, which checks what other browsers send by the
 * sweep's own rules, sits above it.
 */
import type { Cell, CellError, CellResult, Sweep } from '../domain/sweep';
import type { Listing } from '../domain/listing';

/** Another browser's result for a cell, as far as the loop commits it (utils/team/docs.ts Settlement holds more). */
export interface TeamSettlement {
  status: 'done' | 'split' | 'saturated';
  result: CellResult;
}

export type GateClaim =
  | { kind: 'mine' }
  | { kind: 'elsewhere'; until: number }
  | { kind: 'settled'; settlement: TeamSettlement; children: Cell[]; listings: Listing[] }
  | { kind: 'offline'; until: number }
  | { kind: 'refused'; error: CellError };

export interface TeamGate {
  /** null: the sweep is not shared; the local queue alone decides. */
  claim(sweep: Sweep, cell: Cell, holder: string): Promise<GateClaim | null>;
  /** The cell was committed here (`children`: a split's, as committed; `listings`: what the search kept). */
  settled(sweep: Sweep, cell: Cell, children: readonly Cell[], listings: readonly Listing[]): Promise<void>;
  /** Writes whatever this browser searched and the database lacks (after a restart, or the database back). */
  flush(): Promise<void>;
}
