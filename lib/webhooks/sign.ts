/**
 * Webhook secrets and signatures. One secret serves both schemes:
 * - the spec's `X-Service-Signature`: lowercase hex HMAC-SHA256 of the raw body, keyed by the
 *   secret string exactly as shown (`whsec_…`, its UTF-8 bytes);
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`):
 *   HMAC-SHA256 of `id.timestamp.body`, keyed by the base64-decoded part after `whsec_`, which
 *   is what the `standardwebhooks` libraries do with the same string.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

export const generateSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

export const serviceSignature = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The header that carries the spec signature made with the previous secret during a rotation's
 * grace window. `X-Service-Signature` always carries the current secret's; Standard Webhooks
 * receivers need nothing extra, since `webhook-signature` holds both, space-separated.
 */
export const PREVIOUS_SIGNATURE_HEADER = 'X-Service-Signature-Previous';

/**
 * Every header of one delivery attempt. The timestamp is the attempt's; the body never changes.
 * `previousSecret` (during a rotation's grace window) adds a second signature to both schemes.
 */
export function deliveryHeaders(
  secret: string,
  event: { id: string; type: string; body: string },
  now = Date.now(),
  previousSecret?: string,
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  const standard = standardSignature(secret, event.id, timestamp, event.body);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'TalentPipeline-Webhooks/1.0',
    'X-Service-Event': event.type,
    'X-Service-Signature': serviceSignature(secret, event.body),
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': previousSecret ? `${standard} ${standardSignature(previousSecret, event.id, timestamp, event.body)}` : standard,
    ...(previousSecret && { [PREVIOUS_SIGNATURE_HEADER]: serviceSignature(previousSecret, event.body) }),
  };
}
