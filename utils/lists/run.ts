/**
 * A list's loop in its worker tab: the place-page loop of the details pass (utils/details/
 * runner.ts runPlaceQueue: pacing per site, lease, load, block page, read, key check, backoff)
 * over the list's queues, one per site, committing each place into the list's collection
 * (commit.ts). A share link's job is read for the place its page landed on.
 */
import { leaseMsFor, runPlaceQueue, type DetailsDeps, type DetailsExit, type DetailsRunOptions } from '../details/runner';
import { isShareHost, placeFromLandingUrl } from '../input';
import { commitListed, settleShareRead } from './commit';
import { getPlaceJob } from '../details/queue';
import { placeJobId } from '../details/records';
import { blockedPageKindOf, placePageUrl, providerFor } from '../providers/registry';
import { getList } from './read';
import { isShareKey, listQueueId, type PlaceList } from './records';

/** How long a share link's page may take to send the browser on to the place (by script). */
export const SHARE_SETTLE_MS = 10_000;
const SHARE_POLL_MS = 250;

export async function runList(deps: DetailsDeps, list: Pick<PlaceList, 'id' | 'sites'>, tabId: number, opts: DetailsRunOptions = {}): Promise<DetailsExit> {
  return runPlaceQueue(
    deps,
    {
      name: 'list',
      queues: list.sites.map((provider) => ({ queueId: listQueueId(list.id, provider), provider })),
      async limits() {
        const now = await getList(deps.store, list.id);
        if (now?.status !== 'running') return null;
        return { loadTimeoutMs: now.settings.loadTimeoutMs, leaseMs: leaseMsFor(now.settings.loadTimeoutMs), maxAttempts: now.settings.maxAttempts };
      },
      // A share link lands on the site's map pages: its load waits for their lane's turn too.
      moreLanes: (job) => (isShareKey(job.key) ? [providerFor(job.provider).laneUrl] : []),
      async target(job, landedUrl) {
        if (!isShareKey(job.key)) return { key: job.key };
        const landed = await landingOf(deps, tabId, landedUrl);
        // Sent on to a consent or captcha page: the list waits for the person, as a sweep does.
        if (blockedPageKindOf(landed)) return { blocked: true };
        if (onShareHost(landed)) return { error: `the share link's page did not send the browser on within ${SHARE_SETTLE_MS / 1000} s` };
        const verdict = placeFromLandingUrl(job.provider, landed);
        if (verdict.kind === 'place') {
          // The list named this place on a line of its own too, read already: no second load.
          const own = await getPlaceJob(deps.store, placeJobId(job.sweepId, verdict.place.key));
          if (own?.status === 'done') return { read: verdict.place.key };
          const lang = (await getList(deps.store, list.id))?.settings.lang;
          return { key: verdict.place.key, reload: placePageUrl(verdict.place, lang) ?? verdict.place.url };
        }
        return { error: verdict.kind === 'bad' ? verdict.reason : 'the share link led to another share link' };
      },
      settleRead: (req) => settleShareRead(deps.store, { jobId: req.job.id, holder: req.holder, now: req.now, key: req.key }),
      commit: (req) => commitListed(deps.store, { listId: list.id, jobId: req.job.id, holder: req.holder, now: req.now, listing: req.listing }),
    },
    tabId,
    opts,
  );
}

/** The page a share link sent the tab to: its load's address, or, while that is still the share service's, where the page goes within SHARE_SETTLE_MS. */
async function landingOf(deps: DetailsDeps, tabId: number, loaded: string): Promise<string> {
  let url = loaded;
  const until = deps.now() + SHARE_SETTLE_MS;
  while (onShareHost(url) && deps.page.currentUrl && deps.now() < until) {
    await deps.sleep(SHARE_POLL_MS);
    url = await deps.page.currentUrl(tabId);
  }
  return url;
}

function onShareHost(url: string): boolean {
  try {
    return isShareHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
