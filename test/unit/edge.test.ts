import { describe, expect, it } from 'vitest';
import { clientAddress, siteHosts } from '../../lib/edge';

const event = (headers: Record<string, string>, sourceIp = '10.1.2.3') => ({ headers, requestContext: { identity: { sourceIp } } });
const SECRET = 's3cret';

describe('clientAddress', () => {
  it('is the source IP, unless CloudFront vouches for the viewer with the origin secret', () => {
    expect(clientAddress(event({}), SECRET)).toBe('10.1.2.3');
    expect(clientAddress(event({ 'x-viewer-address': '198.51.100.1' }), SECRET)).toBe('10.1.2.3');
    expect(clientAddress(event({ 'x-viewer-address': '198.51.100.1', 'x-origin-verify': 'nope' }), SECRET)).toBe('10.1.2.3');
    expect(clientAddress(event({ 'X-Viewer-Address': '198.51.100.1', 'X-Origin-Verify': SECRET }), SECRET)).toBe('198.51.100.1');
    // No secret configured: nothing is believed, whatever is sent.
    expect(clientAddress(event({ 'x-viewer-address': '198.51.100.1', 'x-origin-verify': '' }), undefined)).toBe('10.1.2.3');
  });

  it('counts IPv6 by /64, in any spelling; IPv4-mapped addresses are IPv4', () => {
    const v6 = (ip: string) => clientAddress(event({}, ip), undefined);
    expect(v6('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(v6('2001:0db8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(v6('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(v6('::1')).toBe('0:0:0:0::/64');
    expect(v6('::ffff:192.0.2.1')).toBe('::ffff:192.0.2.1');
  });
});

describe('siteHosts', () => {
  it('adds the forwarded host only with the origin secret', () => {
    expect(siteHosts(event({ host: 'api.example', 'x-forwarded-host': 'site.example' }), SECRET)).toEqual(['api.example']);
    expect(siteHosts(event({ host: 'api.example', 'x-forwarded-host': 'site.example', 'x-origin-verify': SECRET }), SECRET)).toEqual([
      'api.example',
      'site.example',
    ]);
  });
});
