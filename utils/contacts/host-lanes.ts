/**
 * Politeness towards businesses' own websites (issue 23): one request at a time per host, each
 * starting at least `gapMs` after the previous one on that host ENDED (counted from its start, a
 * slow first answer, a TLS handshake say, would bring the next request to the server sooner
 * than `gapMs` after the last: measured so under load), and at most `concurrency`
 * requests in flight over all hosts. A small site on shared hosting must never see the pass as
 * more than a slow reader. In memory: after a worker restart the first request of a host may
 * come sooner than `gapMs` after the last one of the old worker, never two at once (the old
 * worker's requests died with it).
 */
/** The lane of a URL: its host without `www.` (one server answers both, usually). */
export function hostLane(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

export interface HostLanes {
  /** Wait for `host`'s turn and a global slot; call the returned function when the request is over. */
  acquire(host: string, signal?: AbortSignal): Promise<() => void>;
}

export function createHostLanes(opts: {
  gapMs: number;
  concurrency: number;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}): HostLanes {
  const lanes = new Map<string, { tail: Promise<void>; lastEnd: number }>();
  let inFlight = 0;
  const slotWaiters: (() => void)[] = [];

  async function slot(): Promise<void> {
    if (inFlight < opts.concurrency) {
      inFlight++;
      return;
    }
    // The slot is handed over by the request that ends (inFlight unchanged).
    await new Promise<void>((resolve) => slotWaiters.push(resolve));
  }
  function freeSlot(): void {
    const next = slotWaiters.shift();
    if (next) next();
    else inFlight--;
  }

  return {
    async acquire(host, signal) {
      const lane = lanes.get(host) ?? { tail: Promise.resolve(), lastEnd: -Infinity };
      lanes.set(host, lane);
      let endTurn!: () => void;
      const previous = lane.tail;
      lane.tail = new Promise<void>((resolve) => (endTurn = resolve));
      try {
        await previous;
        const wait = lane.lastEnd + opts.gapMs - opts.now();
        if (wait > 0) await opts.sleep(wait, signal);
        signal?.throwIfAborted();
        await slot();
      } catch (e) {
        endTurn();
        throw e;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        lane.lastEnd = opts.now();
        freeSlot();
        endTurn();
        // A host whose turn nobody awaits is forgotten once its gap has passed: 10,000 sites keep no 10,000 lanes.
        const tail = lane.tail;
        setTimeout(() => {
          if (lanes.get(host) === lane && lane.tail === tail) lanes.delete(host);
        }, opts.gapMs);
      };
    },
  };
}
