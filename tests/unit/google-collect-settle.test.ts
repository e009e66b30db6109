// @vitest-environment happy-dom
/**
 * After the list stops growing, the collection waits for the page's own list requests to end
 * (the hook's start and end messages), not for a fixed quiet period: a copy that comes late is
 * still read, and nothing is waited for once every request has ended. The replica's page script
 * rendered in happy-dom, read by the real collection; the hook's messages are delivered to the
 * real network collector as the isolated world gets them, the copies `lagMs` after the list showed its end
 * (a slow clone of a large body, a busy page).
 */
import { describe, expect, it } from 'vitest';
import { collectGooglePage } from '../../utils/providers/google/collect';
import { extractFeed } from '../../utils/providers/google/feed';
import { createNetworkCollector } from '../../utils/providers/google/network-hook';
import type { Observation } from '../../utils/domain/sweep';
import { openReplicaSearch } from '../helpers/replica-search-page';
import { answerSearchXhr } from '../replica/search-xhr';
import { DEFAULT_SWITCHES } from '../replica/switches';
import { createWorld } from '../replica/world';

const SEOUL = { lat: 37.5665, lng: 126.978 };
const world = createWorld({ seed: 21, places: 8000, centre: SEOUL, radiusKm: 5 });

/** The collection of one replica search, its copies held until `lagMs` after the list showed its end (0: each at once); also when the end first showed. */
async function collectWithCopiesLagging(lagMs: number, forgedStarts = 0): Promise<{ obs: Observation; listEndedAt: number; requests: number }> {
  const switches = { ...DEFAULT_SWITCHES, sponsored: false };
  const run = openReplicaSearch(world, 'cafe', { ...SEOUL, zoom: 15 }, { switches });
  const network = createNetworkCollector();
  // Starts a page script posted that no request will ever end.
  for (let i = 0; i < forgedStarts; i++) network.progress('start', 1_000_000 + i);
  let started = 0;
  let copied = 0;
  let clock = 0;
  let listEndedAt = -1;
  const obs = await collectGooglePage(
    {
      doc: document,
      url: run.url,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        // happy-dom fires no scroll event when the collection sets the feed's scrollTop: the browser would.
        if (document.querySelector('[role="feed"]')) run.scrollFeed();
        run.settle();
        if (listEndedAt < 0 && extractFeed(document).endOfList) listEndedAt = clock;
        // The hook says "start" as the request goes out …
        for (; started < run.requests.length; started++) network.progress('start', started);
        // … and posts the copy, then "end", once it has the answer's text.
        const held = lagMs > 0 && (listEndedAt < 0 || clock - listEndedAt < lagMs);
        for (; !held && copied < started; copied++) {
          const params = new URLSearchParams(run.requests[copied]!.split('?')[1]);
          network.accept(answerSearchXhr(world, switches, params).body);
          network.progress('end', copied);
        }
      },
      random: () => 0.5,
      network,
      httpStatus: () => 200,
      hidden: () => false,
    },
    { cap: 120, stallMs: 2000, maxMs: 20_000, settleMs: 5000, scrollPauseMs: 200 },
  );
  return { obs, listEndedAt, requests: run.requests.length };
}

describe('the wait for the page’s own requests after the list stops', () => {
  it('reads a copy that comes long after the page showed its batch', async () => {
    const { obs, requests } = await collectWithCopiesLagging(900);
    const organic = obs.listings.filter((l) => !l.sponsored);
    expect([obs.pageKind, obs.endOfList]).toEqual(['results', true]);
    expect(requests).toBeGreaterThan(1);
    // Every response's places were copied: the last batch's too.
    expect(obs.networkItems).toBe(organic.length);
    expect(obs.warnings.filter((w) => /search responses/.test(w))).toEqual([]);
  });

  it('ends as soon as every request has ended', async () => {
    const { obs, listEndedAt } = await collectWithCopiesLagging(0);
    expect(obs.endOfList).toBe(true);
    expect(listEndedAt).toBeGreaterThan(0);
    // Simulated time: the scroll's last look, then one turn of the wait; no fixed quiet period.
    expect(obs.elapsedMs - listEndedAt).toBeLessThan(300);
    expect(obs.networkItems).toBe(obs.listings.filter((l) => !l.sponsored).length);
  });

  it('a start that never ends holds the wait only to its bound', async () => {
    const { obs, listEndedAt } = await collectWithCopiesLagging(0, 3);
    expect(obs.endOfList).toBe(true);
    expect(obs.elapsedMs - listEndedAt).toBeGreaterThanOrEqual(1500);
    expect(obs.elapsedMs - listEndedAt).toBeLessThan(2000);
    expect(obs.networkItems).toBe(obs.listings.filter((l) => !l.sponsored).length);
  });
});
