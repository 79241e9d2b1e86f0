/**
 * The address a request came from, for login throttling. Behind CloudFront, API Gateway's source
 * IP is an edge server shared by many users, so CloudFront's `CloudFront-Viewer-Address`
 * (`ip:port`, set by CloudFront itself) is used when present. IPv6 addresses count by their /64,
 * the block one subscriber usually holds, so rotating within it does not reset a count.
 */
import { isIPv6 } from 'node:net';
import { header } from './headers';

interface AddressedEvent {
  headers?: Record<string, string | undefined> | null;
  requestContext?: { identity?: { sourceIp?: string | null } };
}

export function clientAddress(event: AddressedEvent): string {
  const viewer = header(event, 'cloudfront-viewer-address');
  const ip = (viewer ? viewer.slice(0, viewer.lastIndexOf(':')) : undefined) || event.requestContext?.identity?.sourceIp || 'unknown';
  // An IPv4-mapped address (::ffff:192.0.2.1) is an IPv4 client.
  return isIPv6(ip) && !ip.includes('.') ? ipv6Block(ip) : ip;
}

/** The first four 16-bit groups of an IPv6 address. */
function ipv6Block(ip: string): string {
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => parseInt(g || '0', 16).toString(16)).join(':')}::/64`;
}
