/**
 * The team's database address (utils/team/settings.ts parseTarget, utils/net/addresses.ts): plain
 * http:// only on this computer or a private address of the user's own network, where the
 * password and documents never cross the internet unencrypted; https:// anywhere.
 */
import { describe, expect, it } from 'vitest';
import { isOwnNetworkHost } from '../../utils/net/addresses';
import { HTTP_ONLY_NEARBY, parseTarget } from '../../utils/team/settings';

const form = (url: string) => ({ url, db: 'team', user: 'ana', password: 'pw' });

describe('the team database address', () => {
  it.each([
    'http://localhost:5984',
    'http://127.0.0.1:5984',
    'http://10.1.2.3:5984',
    'http://172.20.0.5',
    'http://192.168.1.20:5984/couch',
    'http://[::1]:5984',
    'http://[fd12:3456::1]:5984',
    'https://couch.example.org:6984',
    'https://203.0.113.7',
  ])('%s is accepted', (url) => {
    expect(parseTarget(form(url)).ok).toBe(true);
  });

  it.each([
    'http://couch.example.org:5984',
    'http://203.0.113.7:5984',
    'http://172.32.0.1',
    'http://couch.lan:5984',
    'http://fritz.box',
    'http://127.0.0.1.nip.io:5984',
  ])('%s over plain http is refused, saying why', (url) => {
    expect(parseTarget(form(url))).toEqual({ ok: false, message: HTTP_ONLY_NEARBY });
  });

  it('reads IP literals exactly: no prefix or look-alike passes', () => {
    expect(isOwnNetworkHost('192.168.0.1')).toBe(true);
    expect(isOwnNetworkHost('192.169.0.1')).toBe(false);
    expect(isOwnNetworkHost('10.0.0.256')).toBe(false);
    expect(isOwnNetworkHost('[::ffff:192.168.0.1]')).toBe(true);
    expect(isOwnNetworkHost('[2001:db8::1]')).toBe(false);
    expect(isOwnNetworkHost('localhost.example.com')).toBe(false);
  });

  it("counts 0.0.0.0/8 as this computer (Linux connects 0.0.0.0 to loopback), and a documentation address as no one's network", () => {
    expect(isOwnNetworkHost('0.0.0.0')).toBe(true);
    expect(isOwnNetworkHost('0.1.2.3')).toBe(true);
    expect(isOwnNetworkHost('203.0.113.80')).toBe(false);
    expect(isOwnNetworkHost('198.18.0.80')).toBe(false);
  });

  it('reads IPv6 literals in every spelling: the mapped, compatible and NAT64 forms of a private IPv4 are private', () => {
    for (const own of [
      '::',
      '::1',
      '0:0:0:0:0:0:0:1',
      '[::ffff:7f00:1]',
      '::ffff:c0a8:101',
      '::ffff:127.0.0.1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      'fec0::1',
      'fe80::1%eth0',
      'fd12::3',
    ])
      expect(isOwnNetworkHost(own), own).toBe(true);
    for (const other of ['2001:db8::1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '1:2:3:4:5:6:7:8', '1::'])
      expect(isOwnNetworkHost(other), other).toBe(false);
  });
});
