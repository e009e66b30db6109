/**
 * Politeness: one page load at a time per map host, separated by a delay with jitter, and a
 * host-wide backoff that grows while loads keep failing. Worker tabs share one pacer, so more
 * workers overlap their waiting and scrolling, never their page loads.
 *
 *   acquire() ──wait for previous holder──▶ wait until lastDone + delay + jitter + penalty ──▶ load ──▶ release()
 */
export interface PacerDeps {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** Read on every acquire so a changed option applies to the next load. */
  timing(): { delayMs: number; jitterMs: number };
}

export interface Pacer {
  /** Resolves when this caller may start a page load; call the returned function when the load is over. */
  acquire(): Promise<() => void>;
  /** A load failed (HTTP error, timeout): lengthen the host-wide pause, up to `maxPenaltyMs`. */
  penalise(): void;
  /** A load succeeded: back to the normal delay. */
  reward(): void;
  readonly penaltyMs: number;
}

export function createPacer(deps: PacerDeps, maxPenaltyMs = 5 * 60_000): Pacer {
  let queue: Promise<void> = Promise.resolve();
  let lastDoneAt = Number.NEGATIVE_INFINITY;
  let penaltyMs = 0;

  return {
    get penaltyMs() {
      return penaltyMs;
    },
    acquire() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const previous = queue;
      queue = previous.then(() => turn);
      return previous.then(async () => {
        const { delayMs, jitterMs } = deps.timing();
        const readyAt = lastDoneAt + delayMs + deps.random() * jitterMs + penaltyMs;
        const wait = readyAt - deps.now();
        if (wait > 0) await deps.sleep(wait);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          lastDoneAt = deps.now();
          release();
        };
      });
    },
    penalise() {
      const base = Math.max(1000, deps.timing().delayMs);
      penaltyMs = Math.min(maxPenaltyMs, penaltyMs === 0 ? base : penaltyMs * 2);
    },
    reward() {
      penaltyMs = 0;
    },
  };
}
