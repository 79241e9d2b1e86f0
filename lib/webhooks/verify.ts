/**
 * For receivers: verify a Talent Pipeline webhook. Give it the raw body exactly as received
 * (before any JSON parsing), the request headers and the endpoint's secret. Checks the spec's
 * X-Service-Signature and the Standard Webhooks signature in constant time, and that the
 * timestamp is within `toleranceSeconds` (replay protection). During a secret rotation's grace
 * window it accepts either secret: deliveries then carry both signatures.
 */
import { timingSafeEqual } from 'node:crypto';
import { PREVIOUS_SIGNATURE_HEADER, serviceSignature, standardSignature } from './sign';

export function verifyWebhook(
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  { toleranceSeconds = 300, now = Date.now() } = {},
): boolean {
  const h = (name: string) => {
    const v = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
    return Array.isArray(v) ? v[0] : v;
  };
  const same = (a: string, b: string) => {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length === y.length && timingSafeEqual(x, y);
  };
  // During a rotation's grace window the previous secret's signature comes in its own header.
  const expectedHex = serviceSignature(secret, rawBody);
  const given = [h('x-service-signature'), h(PREVIOUS_SIGNATURE_HEADER.toLowerCase())].filter((v): v is string => !!v);
  if (!given.some((g) => same(g, expectedHex))) return false;
  // Every delivery carries these; without them a captured request could be replayed forever.
  const id = h('webhook-id');
  const timestamp = Number(h('webhook-timestamp'));
  const signatures = h('webhook-signature');
  if (!id || !signatures || !Number.isInteger(timestamp)) return false;
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = standardSignature(secret, id, timestamp, rawBody);
  return signatures.split(' ').some((s) => same(s, expected));
}
