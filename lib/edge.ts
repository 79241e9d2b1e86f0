/**
 * What CloudFront tells the API about the browser. Deployed, the console and the API share
 * CloudFront's origin, and API Gateway sees CloudFront, not the browser: its source IP is an edge
 * server and its Host is the execute-api name. CloudFront's viewer-request function on /api/*
 * sets `X-Viewer-Address` (the browser's IP) and `X-Forwarded-Host` (the site's host), overwriting
 * whatever the browser sent, and the origin adds a secret
 * (`X-Origin-Verify`) that proves a request came through it: anyone calling API Gateway directly
 * could send the other two with any value, so they are believed only next to the secret.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { config } from './config';
import { FORWARDED_HOST_HEADER, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from './edge-headers';
import { header } from './headers';

/** Header names shared with the CloudFront function and origin in infra/ (defined in ./edge-headers). */
export { FORWARDED_HOST_HEADER, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER };

const digest = (v: string) => createHash('sha256').update(v).digest();
const fromCloudFront = (event: AddressedEvent, secret: string | undefined) => {
  const sent = header(event, ORIGIN_VERIFY_HEADER);
  return !!secret && !!sent && timingSafeEqual(digest(sent), digest(secret));
};

interface AddressedEvent {
  headers?: Record<string, string | undefined> | null;
  requestContext?: { identity?: { sourceIp?: string | null } };
}

/** The site the browser is on: the request's Host, or the viewer's Host CloudFront passed on. */
export function siteHosts(event: AddressedEvent, originSecret = config.originVerify): string[] {
  const forwarded = fromCloudFront(event, originSecret) ? header(event, FORWARDED_HOST_HEADER) : undefined;
  return [header(event, 'host'), forwarded].filter((h): h is string => !!h);
}

/**
 * The address a request came from, for sign-in throttling. IPv6 addresses count by their /64,
 * the block one subscriber usually holds, so rotating within it does not reset a count.
 */
export function clientAddress(event: AddressedEvent, originSecret = config.originVerify): string {
  const viewer = fromCloudFront(event, originSecret) ? header(event, VIEWER_ADDRESS_HEADER) : undefined;
  const ip = viewer || event.requestContext?.identity?.sourceIp || 'unknown';
  // An IPv4-mapped address (::ffff:192.0.2.1) is an IPv4 client.
  return isIPv6(ip) && !ip.includes('.') ? ipv6Block(ip) : ip;
}

/** The first four 16-bit groups of an IPv6 address. */
function ipv6Block(ip: string): string {
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
