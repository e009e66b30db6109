/**
 * Whether an answer that came from `address` may be read (issue 36). An address in the user's
 * own network (loopback, private, link-local: utils/net/addresses.ts) means a public name led
 * there (a rebinding DNS, a router's name) and the answer is dropped, with one exception: behind
 * a proxy in the user's network the browser reports the proxy's address for every answer
 * (webRequest's `ip` is where the connection went). That shows as every site answering from one
 * private address and none from a public one; once it does, that address is the way out, not a
 * destination. Before any public answer a refusal is transient (the site is asked again after a
 * backoff), so a proxy's first sites are not lost; once public answers were seen, there is no
 * such proxy, and a private answer is refused for good.
 */
import { getDomain } from 'tldts';
import { isOwnNetworkHost } from '../net/addresses';
import type { SiteFailure } from './queue';

/** Distinct sites answering from one private address, and none from a public one, that make it a proxy. */
export const PROXY_AFTER_SITES = 3;

export interface AddressJudge {
  /** Null when the answer may be read; else why not, and whether asking again could change it. */
  refusal(host: string, address: string): SiteFailure | null;
}

export function createAddressJudge(): AddressJudge {
  let publicSeen = false;
  const sitesBehind = new Map<string, Set<string>>();
  return {
    refusal(host, address) {
      if (!isOwnNetworkHost(address)) {
        publicSeen = true;
        return null;
      }
      const sites = sitesBehind.get(address) ?? new Set<string>();
      if (sites.size < 100) sites.add(getDomain(host) ?? host);
      sitesBehind.set(address, sites);
      if (!publicSeen && sites.size >= PROXY_AFTER_SITES) return null;
      return { kind: publicSeen ? 'permanent' : 'transient', message: `refused: its address ${address} is in your own network` };
    },
  };
}
