import { describe, expect, it } from 'vitest';
import { assertAllowedAddress, BlockedTargetError, forbiddenReason } from '../../lib/webhooks/ssrf';

const strict = { allowLoopback: false };
const loose = { allowLoopback: true };

// [address, expected reason fragment]
const loopback: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['127.0.0.2', /loopback/],
  ['127.255.255.254', /loopback/],
  ['::1', /loopback/],
  ['0:0:0:0:0:0:0:1', /loopback/],
  ['::ffff:127.0.0.1', /IPv4-mapped 127\.0\.0\.1: loopback/],
  ['::ffff:7f00:1', /IPv4-mapped 127\.0\.0\.1: loopback/],
  ['::FFFF:7F00:0001', /IPv4-mapped 127\.0\.0\.1: loopback/],
  ['0:0:0:0:0:ffff:127.1.2.3', /IPv4-mapped 127\.1\.2\.3: loopback/],
];

const forbiddenEvenWithLoopback: Array<[string, RegExp]> = [
  // unspecified ("0.0.0.0" reaches the local host on Linux)
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['::', /unspecified/],
  ['0:0:0:0:0:0:0:0', /unspecified/],
  // private
  ['10.0.0.1', /private/],
  ['10.255.255.255', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.168.0.1', /private/],
  ['192.168.255.255', /private/],
  ['fc00::1', /unique local/],
  ['fd12:3456:789a::1', /unique local/],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', /unique local/],
  // link-local, cloud metadata
  ['169.254.169.254', /link-local.*metadata/],
  ['169.254.0.1', /link-local/],
  ['169.254.170.2', /link-local/], // ECS task metadata
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['febf:ffff::1', /link-local/],
  ['fec0::1', /site-local/],
  // CGNAT
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.255', /carrier-grade NAT/],
  // multicast / reserved / broadcast
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /reserved.*broadcast/],
  ['ff02::1', /multicast/],
  ['ff05::1:3', /multicast/],
  // documentation / benchmark / protocol assignments
  ['192.0.0.1', /IETF protocol assignments/],
  ['192.0.0.170', /IETF protocol assignments/],
  ['192.0.2.1', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['198.19.255.255', /benchmarking/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['192.88.99.1', /6to4 relay/],
  ['2001:db8::1', /documentation/],
  ['2001:db8:ffff::1', /documentation/],
  ['3fff::1', /documentation/],
  // NAT64 (the gateway would reach the embedded IPv4: here the metadata service / loopback / public)
  ['64:ff9b::a9fe:a9fe', /NAT64/],
  ['64:ff9b::127.0.0.1', /NAT64/],
  ['64:ff9b::8.8.8.8', /NAT64/],
  ['64:ff9b:1::1', /local-use NAT64/],
  // 6to4: refused as a whole, whatever it embeds
  ['2002:c0a8:0101::1', /6to4/], // 192.168.1.1
  ['2002:7f00:1::1', /6to4/], // 127.0.0.1
  ['2002:0808:0808::1', /6to4/], // 8.8.8.8
  // Teredo and other 2001::/23 assignments
  ['2001::1', /IETF protocol assignments/],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
  // IPv4-mapped: judged by the embedded IPv4
  ['::ffff:10.0.0.1', /IPv4-mapped 10\.0\.0\.1: private/],
  ['::ffff:a00:1', /IPv4-mapped 10\.0\.0\.1: private/],
  ['::ffff:169.254.169.254', /IPv4-mapped 169\.254\.169\.254: link-local/],
  ['::ffff:a9fe:a9fe', /IPv4-mapped 169\.254\.169\.254: link-local/],
  ['::ffff:0.0.0.0', /IPv4-mapped 0\.0\.0\.0: unspecified/],
  ['::ffff:192.168.1.1', /IPv4-mapped 192\.168\.1\.1: private/],
  ['::ffff:100.64.0.1', /IPv4-mapped 100\.64\.0\.1: carrier-grade NAT/],
  // IPv4-compatible (deprecated): refused, with the embedded reason when there is one
  ['::127.0.0.1', /IPv4-compatible 127\.0\.0\.1: loopback/],
  ['::7f00:1', /IPv4-compatible 127\.0\.0\.1: loopback/],
  ['::a9fe:a9fe', /IPv4-compatible 169\.254\.169\.254: link-local/],
  ['::8.8.8.8', /IPv4-compatible 8\.8\.8\.8: deprecated/],
  // IPv4-translated
  ['::ffff:0:7f00:1', /IPv4-translated/],
  // outside global unicast 2000::/3
  ['100::1', /discard-only/],
  ['1::1', /not global unicast/],
  ['4000::1', /not global unicast/],
  ['e000::1', /not global unicast/],
  // not an IP at all
  ['localhost', /not an IP address/],
  ['example.com', /not an IP address/],
  ['', /not an IP address/],
  ['127.1', /not an IP address/], // short forms must be normalised by the URL parser first
  ['[::1]', /not an IP address/],
];

const publicAddresses = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '52.95.110.1',
  '100.63.255.255', // just below CGNAT
  '100.128.0.0', // just above CGNAT
  '172.15.255.255', // just below 172.16/12
  '172.32.0.0', // just above
  '169.253.255.255',
  '198.17.255.255',
  '198.20.0.0',
  '192.0.1.1',
  '192.0.3.1',
  '11.0.0.1',
  '223.255.255.255', // last below multicast
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:81b::200e',
  '2001:200::1', // just above 2001::/23
  '2001:db9::1', // just above documentation
  '2003::1', // just above 6to4
  '::ffff:8.8.8.8', // mapped public IPv4
  '::ffff:5db8:d822', // mapped 93.184.216.34
];

describe('forbiddenReason', () => {
  describe.each([
    ['strict', strict],
    ['allowLoopback', loose],
  ] as const)('%s', (_name, opts) => {
    it.each(forbiddenEvenWithLoopback)('refuses %s', (ip, reason) => {
      expect(forbiddenReason(ip, opts)).toMatch(reason);
    });
    it.each(publicAddresses)('allows public %s', (ip) => {
      expect(forbiddenReason(ip, opts)).toBeUndefined();
    });
  });

  it.each(loopback)('refuses loopback %s by default', (ip, reason) => {
    expect(forbiddenReason(ip, strict)).toMatch(reason);
  });

  it.each(loopback)('allowLoopback permits loopback %s', (ip) => {
    expect(forbiddenReason(ip, loose)).toBeUndefined();
  });
});

describe('assertAllowedAddress / BlockedTargetError', () => {
  it('throws a BlockedTargetError naming the address and the reason', () => {
    let caught: unknown;
    try {
      assertAllowedAddress('169.254.169.254', strict);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BlockedTargetError);
    expect(caught).toBeInstanceOf(Error);
    const e = caught as BlockedTargetError;
    expect(e.address).toBe('169.254.169.254');
    expect(e.reason).toMatch(/link-local/);
    expect(e.message).toBe(`blocked target 169.254.169.254: ${e.reason}`);
    expect(e.code).toBe('ERR_WEBHOOK_BLOCKED_TARGET');
  });

  it('does not throw for a public address', () => {
    expect(() => assertAllowedAddress('8.8.8.8', strict)).not.toThrow();
  });
});
