/**
 * robots.txt for the contacts pass, read with robots-parser (a maintained implementation of
 * Google's reading of the Robots Exclusion Protocol, RFC 9309: longest match wins, `Allow` beats
 * an equal `Disallow`, `*` and `$`, groups by user agent). Only what RFC 9309 asks of a crawler
 * is decided here: what a fetch of robots.txt means.
 */
import robotsParser from 'robots-parser';
import type { Fetched } from './fetch-page';

/** The user agent the rules are read for: ours, else the `*` group. */
export const ROBOTS_AGENT = 'MapSweep';

export type RobotsRules =
  | { kind: 'rules'; allows(url: string): boolean }
  /**
   * RFC 9309 2.3.1.4: robots.txt unreachable (5xx, network): assume complete disallow, for now.
   * `lasting`: the fetch will fail the same way next time (its answer came from the user's own
   * network, its redirect leads there): the site is not worth another visit.
   */
  | { kind: 'unreachable'; reason: string; lasting: boolean };

/** What a fetch of `{origin}/robots.txt` means for the site's pages. */
export function robotsRulesOf(robotsUrl: string, fetched: Fetched): RobotsRules {
  if (!fetched.ok) {
    // RFC 9309 2.3.1.3: "unavailable" (4xx): the crawler may access any resource.
    if (fetched.status !== null && fetched.status >= 400 && fetched.status < 500 && fetched.status !== 429) return { kind: 'rules', allows: () => true };
    return { kind: 'unreachable', reason: `robots.txt: ${fetched.failure.message}`, lasting: fetched.failure.kind === 'permanent' };
  }
  const text = new TextDecoder('utf-8').decode(fetched.bytes);
  // RFC 9309 2.3.1.2: a redirected robots.txt gives the rules of the host that was asked.
  const parsed = robotsParser(robotsUrl, text);
  // robots-parser answers undefined for a URL of another origin: callers ask of this origin only.
  return { kind: 'rules', allows: (url) => parsed.isAllowed(url, ROBOTS_AGENT) !== false };
}

export function robotsUrlOf(pageUrl: string): string {
  return `${new URL(pageUrl).origin}/robots.txt`;
}
