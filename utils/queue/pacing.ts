/**
 * Politeness, the one pacer: one request at a time per host, separated by a delay with jitter,
 * and a host-wide backoff that grows while requests keep failing. Worker tabs share one pacer
 * for the map hosts, so more workers overlap their waiting and scrolling, never their page
 * loads; the contacts pass's websites are lanes of another (contacts/host-lanes.ts: a few
 * sites at a time, idle lanes forgotten).
 *
 *   acquire(url) ──wait for previous holder on url's host──▶ wait until lastLoadAt + delay + jitter + penalty ──▶ load ──▶ release()
 *
 * Each map host (a provider's laneUrl, and its place pages' lane) has its own lane: its own
 * queue, last load and penalty. Loads on two hosts never wait for each other.
 *
 * "≥ delay apart" must hold across restarts too: a browser killed right after a load and
 * resumed at once would otherwise load again at once (an in-memory pacer starts from
 * nothing). So a lane's last load and penalty are handed to `memory` (the background keeps
 * them in storage.local, see pacer-memory.ts) when a turn starts and when it ends, and a new
 * pacer reads them back before its first turn. The turn's start is saved before the turn is
 * granted: a load killed half-way still counts.
 */
export interface PacerDeps {
  now(): number;
  /** Waits `ms`; rejects when `signal` is aborted (a pass being stopped), where the caller passes one. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
  /** Read on every acquire so a changed option applies to the next load. */
  timing(host: string): { delayMs: number; jitterMs: number };
  /** Where lanes outlive this pacer (worker and browser restarts); none in most tests. */
  memory?: PacerMemory;
}

/** What is remembered of a host's lane. */
export interface HostPace {
  /** Wall-clock time of the last page load's start or end, whichever is later. */
  lastLoadAt: number;
  penaltyMs: number;
}

export interface PacerMemory {
  /** Every host's saved pace; an empty record when nothing (or nothing readable) is saved. */
  load(): Promise<Record<string, HostPace>>;
  save(host: string, pace: HostPace): Promise<void>;
}

/** Ends a turn; 'unused': no request was made in it, so it does not count as the lane's last. */
export type Release = (use?: 'used' | 'unused') => void;

export interface Pacer {
  /**
   * Resolves when this caller may start a page load on `target`'s host (a URL or a host name);
   * call the returned function when the load is over ('unused' when the turn made no request).
   */
  acquire(target: string, signal?: AbortSignal): Promise<Release>;
  /** A load failed (HTTP error, timeout): lengthen the host-wide pause, up to `maxPenaltyMs`. */
  penalise(target: string): void;
  /** A load succeeded: back to the normal delay. */
  reward(target: string): void;
  /** The penalty of `target`'s host. */
  penaltyOf(target: string): number;
}

/**
 * The lane a URL or host name belongs to: a URL's host name; anything else is taken as a lane
 * name as it is (`shop.example:8443` is a host and port, not a URL of the scheme `shop.example`).
 */
export function mapHostOf(target: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target.trim())) return target.trim().toLowerCase();
  try {
    return new URL(target).hostname.toLowerCase();
  } catch {
    return target.trim().toLowerCase();
  }
}

interface Lane {
  queue: Promise<void>;
  lastLoadAt: number;
  penaltyMs: number;
  restored: boolean;
}

/** How a pacer serves many hosts (the map sites' pacer sets none of these). */
export interface PacerOptions {
  /** The longest host-wide pause after failures. */
  maxPenaltyMs?: number;
  /** At most this many turns at once over all hosts (businesses' websites: a few sites at a time). */
  concurrency?: number;
  /**
   * A lane nobody waits for is forgotten once its delay has passed (10,000 websites keep no
   * 10,000 lanes). Only for a pacer without memory: its lanes' penalties are then forgotten too.
   */
  forgetIdleLanes?: boolean;
}

export function createPacer(deps: PacerDeps, options: PacerOptions = {}): Pacer {
  const maxPenaltyMs = options.maxPenaltyMs ?? 5 * 60_000;
  const lanes = new Map<string, Lane>();
  const slots = options.concurrency === undefined ? null : createSlots(options.concurrency);
  // Read once; a memory that cannot be read is no reason not to sweep (the delay still holds
  // within this session).
  const remembered: Promise<Record<string, HostPace>> = deps.memory ? deps.memory.load().catch(() => ({})) : Promise.resolve({});

  function lane(host: string): Lane {
    let l = lanes.get(host);
    if (!l) {
      l = { queue: Promise.resolve(), lastLoadAt: Number.NEGATIVE_INFINITY, penaltyMs: 0, restored: !deps.memory };
      lanes.set(host, l);
    }
    return l;
  }

  async function restore(host: string, l: Lane): Promise<void> {
    if (l.restored) return;
    const saved = (await remembered)[host];
    l.restored = true;
    if (!saved) return;
    // A saved time in the future (the clock was set back) counts as "just now": wait one delay, not hours.
    l.lastLoadAt = Math.max(l.lastLoadAt, Math.min(saved.lastLoadAt, deps.now()));
    l.penaltyMs = Math.max(l.penaltyMs, Math.min(maxPenaltyMs, saved.penaltyMs));
  }

  function save(host: string, l: Lane): Promise<void> {
    if (!deps.memory || !Number.isFinite(l.lastLoadAt)) return Promise.resolve();
    return deps.memory.save(host, { lastLoadAt: l.lastLoadAt, penaltyMs: l.penaltyMs }).catch(() => {});
  }

  /** Drops `l` once its delay has passed with nobody queued behind the turn just ended. */
  function forgetWhenIdle(host: string, l: Lane): void {
    const tail = l.queue;
    setTimeout(() => {
      if (lanes.get(host) === l && l.queue === tail) lanes.delete(host);
    }, deps.timing(host).delayMs);
  }

  return {
    penaltyOf(target) {
      return lane(mapHostOf(target)).penaltyMs;
    },
    acquire(target, signal) {
      const host = mapHostOf(target);
      const l = lane(host);
      let endTurn!: () => void;
      const turn = new Promise<void>((resolve) => (endTurn = resolve));
      const previous = l.queue;
      l.queue = previous.then(() => turn);
      return previous.then(async () => {
        try {
          await restore(host, l);
          const { delayMs, jitterMs } = deps.timing(host);
          const readyAt = l.lastLoadAt + delayMs + deps.random() * jitterMs + l.penaltyMs;
          const wait = readyAt - deps.now();
          if (wait > 0) await deps.sleep(wait, signal);
          signal?.throwIfAborted();
          await slots?.take();
        } catch (e) {
          // Given up before its turn (the pass stopped): the lane goes on as if it had never asked.
          endTurn();
          throw e;
        }
        const before = l.lastLoadAt;
        // The load starts now: remembered before it starts, so a kill during the load still counts it.
        l.lastLoadAt = deps.now();
        await save(host, l);
        let released = false;
        return (use = 'used') => {
          if (released) return;
          released = true;
          // A turn that made no request (a team sweep's cell another browser had searched) leaves
          // the lane as it was: the next request still waits its delay after the last real one.
          l.lastLoadAt = use === 'unused' ? before : deps.now();
          void save(host, l);
          slots?.give();
          endTurn();
          if (options.forgetIdleLanes && !deps.memory) forgetWhenIdle(host, l);
        };
      });
    },
    penalise(target) {
      const host = mapHostOf(target);
      const l = lane(host);
      const base = Math.max(1000, deps.timing(host).delayMs);
      l.penaltyMs = Math.min(maxPenaltyMs, l.penaltyMs === 0 ? base : l.penaltyMs * 2);
      void save(host, l);
    },
    reward(target) {
      const host = mapHostOf(target);
      const l = lane(host);
      if (l.penaltyMs === 0) return;
      l.penaltyMs = 0;
      void save(host, l);
    },
  };
}

/** At most `n` holders at once; a freed place goes to the longest waiter. */
function createSlots(n: number): { take(): Promise<void>; give(): void } {
  let used = 0;
  const waiters: (() => void)[] = [];
  return {
    async take() {
      if (used < n) {
        used++;
        return;
      }
      // Handed over by the holder that gives its place back (`used` unchanged).
      await new Promise<void>((resolve) => waiters.push(resolve));
    },
    give() {
      const next = waiters.shift();
      if (next) next();
      else used--;
    },
  };
}
