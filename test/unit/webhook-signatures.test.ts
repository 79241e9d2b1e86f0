/**
 * Both signature schemes a delivery carries (lib/webhooks/sign.ts), checked against independent
 * implementations: node:crypto for X-Service-Signature, the `standardwebhooks` library for the
 * Standard Webhooks headers; and the receiver-side verifier (lib/webhooks/verify.ts), hostile
 * signatures included.
 */
import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../lib/webhooks/events';
import { deliveryHeaders, generateSecret, SECRET_PREFIX } from '../../lib/webhooks/sign';
import { verifyWebhook } from '../../lib/webhooks/verify';
import { eventsFromRecord } from '../helpers/lambda-records';
import { move } from './webhook-records-fixture';

describe('signatures', () => {
  const secret = generateSecret();
  const [event] = eventsFromRecord(move('applied', 'interviewed'));
  const body = envelope(event!, 'acme');
  const msg = { id: event!.id, type: event!.type, body };

  it('secrets are whsec_ + base64 of 32 random bytes', () => {
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    const raw = secret.slice(SECRET_PREFIX.length);
    expect(raw).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(raw, 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('headers: content type, event, service signature and Standard Webhooks headers', () => {
    const now = Date.parse('2025-03-02T11:30:15.999Z');
    const h = deliveryHeaders(secret, msg, now);
    expect(h['Content-Type']).toBe('application/json');
    expect(h['X-Service-Event']).toBe('candidate.stage_changed');
    expect(h['webhook-id']).toBe(event!.id);
    expect(h['webhook-timestamp']).toBe(String(Math.floor(now / 1000)));
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('X-Service-Signature is lowercase hex HMAC-SHA256(secret string, raw body)', () => {
    const h = deliveryHeaders(secret, msg);
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
    expect(h['X-Service-Signature']).toBe(expected);
    expect(h['X-Service-Signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the standardwebhooks library verifies our headers and rejects a tampered body', () => {
    const h = deliveryHeaders(secret, msg);
    const wh = new Webhook(secret);
    expect(wh.verify(body, h)).toEqual(JSON.parse(body));
    expect(wh.verify(Buffer.from(body, 'utf8'), h)).toEqual(JSON.parse(body));
    const tampered = body.replace('interviewed', 'offer_sent');
    expect(tampered).not.toBe(body);
    expect(() => wh.verify(tampered, h)).toThrow(WebhookVerificationError);
    // Another endpoint's secret must not verify.
    expect(() => new Webhook(generateSecret()).verify(body, h)).toThrow(WebhookVerificationError);
    // A different id (e.g. another event) must not verify with the same signature.
    expect(() => wh.verify(body, { ...h, 'webhook-id': 'evt_other' })).toThrow(WebhookVerificationError);
  });

  it('the body is signed byte-exactly (non-ASCII survives)', () => {
    const h = deliveryHeaders(secret, msg);
    expect(body).toContain('Zoë Ådahl');
    expect(new Webhook(secret).verify(Buffer.from(body, 'utf8'), h)).toBeTruthy();
    expect(createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex')).toBe(h['X-Service-Signature']);
  });

  describe('verifyWebhook', () => {
    const now = Date.now();
    const h = deliveryHeaders(secret, msg, now);
    const lower = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

    it('accepts a genuine delivery (any header case, array values)', () => {
      expect(verifyWebhook(body, h, secret, { now })).toBe(true);
      expect(verifyWebhook(body, lower, secret, { now })).toBe(true);
      expect(verifyWebhook(body, { ...lower, 'x-service-signature': [h['X-Service-Signature']!] }, secret, { now })).toBe(true);
    });

    it('rejects a tampered body', () => {
      expect(verifyWebhook(`${body} `, h, secret, { now })).toBe(false);
      expect(verifyWebhook(body.replace('applied', 'rejected'), h, secret, { now })).toBe(false);
    });

    it('rejects a wrong, truncated or missing signature and a wrong secret', () => {
      const sig = h['X-Service-Signature']!;
      const flipped = `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
      expect(verifyWebhook(body, { ...h, 'X-Service-Signature': flipped }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, { ...h, 'X-Service-Signature': sig.slice(0, 32) }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, { ...h, 'X-Service-Signature': undefined }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, { ...h, 'webhook-signature': 'v1,AAAA' }, secret, { now })).toBe(false);
      expect(verifyWebhook(body, h, generateSecret(), { now })).toBe(false);
    });

    it('rejects a timestamp outside the tolerance (replay), in the past or the future', () => {
      expect(verifyWebhook(body, h, secret, { now: now + 301_000 })).toBe(false);
      expect(verifyWebhook(body, h, secret, { now: now - 301_000 })).toBe(false);
      const old = deliveryHeaders(secret, msg, now - 10 * 60_000);
      expect(verifyWebhook(body, old, secret, { now })).toBe(false);
      expect(verifyWebhook(body, old, secret, { now, toleranceSeconds: 3600 })).toBe(true);
      // A re-stamped timestamp without a matching signature is refused.
      expect(verifyWebhook(body, { ...old, 'webhook-timestamp': String(Math.floor(now / 1000)) }, secret, { now })).toBe(false);
    });
  });
});

describe('verifyWebhook with hostile signatures', () => {
  it('answers false, never throws, for a signature of the right length in characters but not bytes', () => {
    const secret = generateSecret();
    const body = '{"event":"webhook.test"}';
    const headers = deliveryHeaders(secret, { id: 'evt_1', type: 'webhook.test', body });
    const forged = { ...headers, 'X-Service-Signature': 'é'.repeat(64) };
    expect(() => verifyWebhook(body, forged, secret)).not.toThrow();
    expect(verifyWebhook(body, forged, secret)).toBe(false);
    expect(verifyWebhook(body, headers, secret)).toBe(true);
  });

  it('refuses a delivery without the timestamped signature (no replay protection otherwise)', () => {
    const secret = generateSecret();
    const body = '{}';
    const { 'webhook-signature': _s, ...headers } = deliveryHeaders(secret, { id: 'evt_2', type: 'webhook.test', body });
    expect(verifyWebhook(body, headers, secret)).toBe(false);
  });
});
