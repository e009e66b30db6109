/**
 * An address of this machine outside the ranges the contacts pass refuses (loopback, private,
 * link-local: utils/net/addresses.ts), for the replica web in real Chromium. The pass drops any
 * answer that webRequest says came from the user's own network, and a replica on 127.0.0.1 is
 * exactly that; so the browser test serves the web from 198.18.0.80 (RFC 2544's range for
 * test networks, never routed on the internet) added to the loopback interface, and keeps 127.0.0.1 for
 * the one site it expects to be dropped.
 *
 * `.ci/run` adds the address (`ip addr add 198.18.0.80/32 dev lo`, as root); a clone without it
 * skips those tests and says so in one line, as with ../shared.
 */
import { networkInterfaces } from 'node:os';
import { isOwnNetworkHost } from '../../utils/net/addresses';

export const TEST_PUBLIC_ADDRESS = '198.18.0.80';

/** Why the test cannot serve a site from outside the user's network here, or null when it can. */
export function publicAddressMissing(): string | null {
  if (isOwnNetworkHost(TEST_PUBLIC_ADDRESS)) return `${TEST_PUBLIC_ADDRESS} is counted as the user's own network`;
  const here = Object.values(networkInterfaces())
    .flat()
    .some((i) => i?.address === TEST_PUBLIC_ADDRESS);
  return here ? null : `${TEST_PUBLIC_ADDRESS} is not an address of this machine (run \`sudo ip addr add ${TEST_PUBLIC_ADDRESS}/32 dev lo\`; .ci/run does)`;
}
