/**
 * Public names that lead into the user's own network. They end in a real public suffix, so the
 * suffix check lets them through, yet what they resolve to is the machine itself or the user's
 * router: a website field naming one would have the user's browser knock on their own network.
 * Kept as data, each with where it is documented; a name under one of them is refused too.
 */
export const OWN_NETWORK_NAMES: readonly { name: string; why: string }[] = [
  // Wildcard DNS: any name with an address in it resolves to that address.
  { name: 'nip.io', why: 'wildcard DNS: 10.0.0.1.nip.io resolves to 10.0.0.1 (https://nip.io)' },
  { name: 'sslip.io', why: 'wildcard DNS: 192-168-1-1.sslip.io resolves to 192.168.1.1 (https://sslip.io)' },
  { name: 'xip.io', why: 'wildcard DNS, the original of nip.io (Basecamp, retired 2021)' },
  { name: 'traefik.me', why: 'wildcard DNS: 10.0.0.1.traefik.me resolves to 10.0.0.1 (https://traefik.me)' },
  { name: 'localtest.me', why: 'every name under it resolves to 127.0.0.1 (https://readme.localtest.me)' },
  { name: 'lvh.me', why: 'every name under it resolves to 127.0.0.1 (a long-standing developer convenience)' },
  { name: 'vcap.me', why: 'every name under it resolves to 127.0.0.1 (Cloud Foundry\u2019s local name)' },
  { name: 'localho.st', why: 'every name under it resolves to 127.0.0.1' },
  // Router vendors' own names: the router answers them for its own admin page.
  { name: 'router.asus.com', why: "ASUS routers answer it with their own admin page (ASUS support: 'How to enter the router setting page')" },
  { name: 'routerlogin.net', why: 'NETGEAR routers answer it with their admin page (NETGEAR KB 24054)' },
  { name: 'routerlogin.com', why: 'NETGEAR routers answer it with their admin page (NETGEAR KB 24054)' },
  { name: 'mywifiext.net', why: 'NETGEAR range extenders answer it with their admin page' },
  { name: 'tplinkwifi.net', why: 'TP-Link routers answer it with their admin page (TP-Link FAQ 87)' },
  { name: 'tplinklogin.net', why: 'older TP-Link routers answer it with their admin page (TP-Link FAQ 87)' },
  { name: 'tplinkrepeater.net', why: 'TP-Link range extenders answer it with their admin page' },
  { name: 'fritz.box', why: 'AVM FRITZ!Box routers answer it with their admin page (AVM: http://fritz.box)' },
  { name: 'miwifi.com', why: 'Xiaomi routers answer it with their admin page' },
  { name: 'dlinkrouter.local', why: 'D-Link routers answer it with their admin page' },
];

/** The entry a host falls under (the name itself or a name below it), or null. */
export function ownNetworkName(host: string): { name: string; why: string } | null {
  const h = host.toLowerCase().replace(/\.$/, '');
  return OWN_NETWORK_NAMES.find((n) => h === n.name || h.endsWith(`.${n.name}`)) ?? null;
}
