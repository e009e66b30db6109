import { createPacer } from '../queue/pacing';

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

/** The websites' lanes: the one pacer (utils/queue/pacing.ts), without jitter or memory, a few sites at a time. */
export function createHostLanes(opts: {
  gapMs: number;
  concurrency: number;
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}): HostLanes {
  const pacer = createPacer(
    { now: opts.now, sleep: opts.sleep, random: () => 0, timing: () => ({ delayMs: opts.gapMs, jitterMs: 0 }) },
    { concurrency: opts.concurrency, forgetIdleLanes: true },
  );
  return { acquire: (host, signal) => pacer.acquire(host, signal) };
}
