/**
 * A page of a business website, its redirects followed by hand (issue 36): each hop is a request
 * of its own, so before it is made its target is checked as the website itself was (a public
 * name, never one that leads into the user's network: website-kind.ts) and, where the caller
 * asks, against the target host's robots.txt; and it waits its turn in the target host's lane,
 * as every request the pass causes does. At most MAX_REDIRECTS hops. The browser following them
 * could only be stopped after it had already asked.
 */
import { fetchOnce, type FetchBounds, type FetchFn, type Fetched } from './fetch-page';
import type { SiteFailure } from './queue';
import { hostLane, type HostLanes } from './host-lanes';
import type { NetworkWatch } from './network-watch';
import { hostRefusal, websiteKind } from './website-kind';

export const MAX_REDIRECTS = 5;

export interface FollowDeps {
  fetch: FetchFn;
  lanes: HostLanes;
  signal?: AbortSignal;
  /** What the browser's network saw (the redirect targets a manual fetch hides, the answers' addresses). */
  watch?: NetworkWatch;
}

/**
 * `url`, and the pages it redirects to: the last answer, or why the chain was not followed.
 * `mayAsk(target)` (the target host's robots.txt, say) is asked before each hop's request; a
 * failure refuses the hop, transient or permanent as it says (a robots.txt that did not answer
 * is asked again later; one that forbids the page is not).
 */
export async function fetchFollowing(
  deps: FollowDeps,
  url: string,
  bounds: FetchBounds,
  accept: 'html' | 'text',
  mayAsk: (target: string) => Promise<SiteFailure | null> = async () => null,
): Promise<Fetched> {
  // The first URL is checked as every hop is: a record queued by an older version, a link read off a page.
  let first: URL | null = null;
  try {
    first = new URL(url);
  } catch {
    // Left to the fetch, which fails with its own reason.
  }
  const firstWhy = first ? targetRefusal(first) : null;
  if (firstWhy) return { ok: false, url, status: null, failure: { kind: 'permanent', message: `not fetched: ${firstWhy}` } };
  let current = url;
  for (let hop = 0; ; hop++) {
    let release: () => void;
    try {
      release = await deps.lanes.acquire(hostLane(current), deps.signal);
    } catch {
      return { ok: false, url: current, status: null, failure: { kind: 'transient', message: 'stopped' } };
    }
    let answer: Awaited<ReturnType<typeof fetchOnce>>;
    try {
      answer = await fetchOnce(deps.fetch, current, bounds, accept, deps.signal, deps.watch);
    } finally {
      release();
    }
    if (answer.ok !== 'redirect') return answer;
    const refused = (message: string): Fetched => ({ ok: false, url: current, status: answer.status, failure: { kind: 'permanent', message } });
    if (hop >= MAX_REDIRECTS) return refused(`more than ${MAX_REDIRECTS} redirects`);
    let target: URL;
    try {
      target = new URL(answer.location, current);
    } catch {
      return refused('redirected to no URL');
    }
    target.hash = '';
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return refused(`redirected to ${target.protocol} (not a web page)`);
    const why = targetRefusal(target);
    if (why) return refused(`redirected to a private or invalid address (${why})`);
    const notAllowed = await mayAsk(target.href);
    if (notAllowed)
      return {
        ok: false,
        url: current,
        status: answer.status,
        failure: { kind: notAllowed.kind, message: `redirected to ${target.href.slice(0, 200)}: ${notAllowed.message}` },
      };
    current = target.href;
  }
}

/** Why a URL is never asked: its host (website-kind.ts), or a user name or password in it (a page's link may carry one). */
function targetRefusal(target: URL): string | null {
  if (target.username || target.password) return `${target.hostname}: a URL with a user name or password`;
  const host = target.hostname.replace(/\.$/, '');
  const why = hostRefusal(host) ?? (websiteKind(target.href).kind === 'invalid' ? 'not a website' : null);
  return why ? `${host}: ${why}` : null;
}
