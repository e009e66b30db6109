/**
 * Whether a URL's host is this computer or an address of the user's own network, from the host
 * as written: an IP literal in a loopback, private or link-local range, or `localhost`. A name
 * (couch.lan, fritz.box) is none of these here: where it leads is the resolver's word, unknown
 * until the request goes out. Pure.
 */

/** The four bytes of a dotted IPv4 literal, or null. */
function ipv4(host: string): [number, number, number, number] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const bytes = m.slice(1).map(Number) as [number, number, number, number];
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** 0/8 (Linux connects 0.0.0.0 to this computer), 127/8, 10/8, 172.16/12, 192.168/16, 169.254/16 (link-local), 100.64/10 (shared, carrier NAT). */
function ipv4IsOwnNetwork([a, b]: [number, number, number, number]): boolean {
  return (
    a === 0 ||
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

/** ::1, fc00::/7 (unique local), fe80::/10 (link-local), and IPv4-mapped forms of the above. */
function ipv6IsOwnNetwork(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!h.includes(':')) return false;
  if (h === '::1') return true;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(h);
  if (mapped) {
    const v4 = ipv4(mapped[1]!);
    return v4 !== null && ipv4IsOwnNetwork(v4);
  }
  const first = Number.parseInt(h.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

/** The host (as `new URL(…).hostname` gives it) is this computer or a private address of the user's own network. */
export function isOwnNetworkHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = ipv4(host);
  if (v4) return ipv4IsOwnNetwork(v4);
  return ipv6IsOwnNetwork(host);
}
