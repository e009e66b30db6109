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

/** The eight 16-bit groups of an IPv6 literal (with `::` and a dotted IPv4 tail), or null. */
function ipv6Groups(text: string): number[] | null {
  let h = text;
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(h);
  let tail: number[] = [];
  if (v4) {
    const bytes = ipv4(v4[1]!);
    if (!bytes) return null;
    tail = [(bytes[0] << 8) | bytes[1], (bytes[2] << 8) | bytes[3]];
    // `::ffff:1.2.3.4` → `::ffff`, `::1.2.3.4` → `::`, `1:2:3:4:5:6:1.2.3.4` → `1:2:3:4:5:6`.
    h = h.slice(0, -v4[1]!.length);
    if (!h.endsWith('::')) h = h.replace(/:$/, '');
  }
  const halves = h.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const groups = [...head, ...rest].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  if (groups.some(Number.isNaN)) return null;
  const wanted = 8 - tail.length;
  if (halves.length === 1 ? groups.length !== wanted : groups.length >= wanted + 1) return null;
  const zeros = new Array<number>(wanted - groups.length).fill(0);
  return [...groups.slice(0, head.length), ...zeros, ...groups.slice(head.length), ...tail];
}

/**
 * ::, ::1, fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10 (the old site-local), and
 * an IPv4 address carried inside one (::ffff:0:0/96 mapped, ::/96 compatible, 64:ff9b::/96
 * NAT64), in any spelling: `::ffff:7f00:1` is 127.0.0.1 as the URL parser writes it.
 */
function ipv6IsOwnNetwork(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!h.includes(':')) return false;
  const g = ipv6Groups(h.replace(/%.*$/, ''));
  // Not a literal we can read: refused rather than guessed.
  if (!g) return true;
  const carried = (): [number, number, number, number] => [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff];
  if (g.every((x) => x === 0)) return true;
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true;
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return true;
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return ipv4IsOwnNetwork(carried());
  if (first === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4IsOwnNetwork(carried());
  return false;
}

/** The host (as `new URL(…).hostname` gives it) is this computer or a private address of the user's own network. */
export function isOwnNetworkHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = ipv4(host);
  if (v4) return ipv4IsOwnNetwork(v4);
  return ipv6IsOwnNetwork(host);
}
