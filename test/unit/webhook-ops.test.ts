/**
 * The pure parts of the webhook operations: error categories, dual signatures during a rotation
 * (checked with standardwebhooks, svix and our own verifier), which events a replay sends, and
 * which retries a local restart puts back.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import { pendingRetries } from '../../dev/restore';
import type { AttemptOutcome } from '../../lib/store/webhook-attempts';
import { errorCategory, errorMessage } from '../../lib/webhooks/outcome';
import { LOST_RETRY_MS, missedEvents } from '../../lib/webhooks/replay';
import { deliveryHeaders, generateSecret, PREVIOUS_SIGNATURE_HEADER } from '../../lib/webhooks/sign';
import { verifyWebhook } from '../../lib/webhooks/verify';

describe('errorCategory', () => {
  it.each([
    [{ status: 200 }, null],
    [{ status: 204 }, null],
    [{ status: 200, error: 'timeout after 15000 ms (reading response body)' }, 'timeout'],
    [{ status: 0, error: 'timeout after 15000 ms' }, 'timeout'],
    [{ status: 301 }, 'redirect'],
    [{ status: 410 }, 'http_status'],
    [{ status: 503 }, 'http_status'],
    [{ status: 0, error: 'dns lookup failed (ENOTFOUND)' }, 'dns'],
    [{ status: 0, error: 'tls error (DEPTH_ZERO_SELF_SIGNED_CERT)' }, 'tls'],
    [{ status: 0, error: 'connection refused (ECONNREFUSED)' }, 'connection'],
    [{ status: 0, error: 'host unreachable (EHOSTUNREACH)' }, 'connection'],
    [{ status: 0, error: 'blocked target: 10.0.0.1 is private (10.0.0.0/8)' }, 'blocked'],
    [{ status: 0, error: 'unsupported scheme http: (https only)' }, 'blocked'],
  ] as const)('%j -> %s', (result, category) => {
    expect(errorCategory(result)).toBe(category);
    expect(errorMessage(result) === null).toBe(category === null);
  });
});

describe('signatures during a rotation', () => {
  const body = JSON.stringify({ event: 'webhook.test', data: {}, timestamp: '2026-11-22T10:00:00.000Z', tenantSlug: 'demo' });
  const event = { id: `evt_${'b'.repeat(32)}`, type: 'webhook.test', body };
  const [current, previous, stranger] = [generateSecret(), generateSecret(), generateSecret()];
  const std = (h: Record<string, string>) => ({
    'webhook-id': h['webhook-id']!,
    'webhook-timestamp': h['webhook-timestamp']!,
    'webhook-signature': h['webhook-signature']!,
  });
  const libs = (secret: string, h: Record<string, string>) =>
    [new StandardWebhook(secret), new SvixWebhook(secret)].map((v) => {
      try {
        v.verify(body, std(h));
        return true;
      } catch {
        return false;
      }
    });

  it('with a previous secret: two signatures, and every verifier accepts either secret', () => {
    const h = deliveryHeaders(current, event, Date.now(), previous);
    expect(h['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(h[PREVIOUS_SIGNATURE_HEADER]).toMatch(/^[0-9a-f]{64}$/);
    expect(libs(current, h)).toEqual([true, true]);
    expect(libs(previous, h)).toEqual([true, true]);
    expect(libs(stranger, h)).toEqual([false, false]);
    expect(verifyWebhook(body, h, current)).toBe(true);
    expect(verifyWebhook(body, h, previous)).toBe(true);
    expect(verifyWebhook(body, h, stranger)).toBe(false);
  });

  it('without one: one signature, the old secret fails everywhere', () => {
    const h = deliveryHeaders(current, event);
    expect(h['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(h[PREVIOUS_SIGNATURE_HEADER]).toBeUndefined();
    expect(libs(current, h)).toEqual([true, true]);
    expect(libs(previous, h)).toEqual([false, false]);
    expect(verifyWebhook(body, h, previous)).toBe(false);
  });
});

describe('missedEvents (replay)', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  const o = (event_id: string, rest: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
    event_id,
    event_type: 'candidate.created',
    success: false,
    next_attempt_at: null,
    dead_lettered: false,
    ...rest,
  });
  const later = new Date(now + 60_000).toISOString();
  const longAgo = new Date(now - LOST_RETRY_MS - 1_000).toISOString();

  it('keeps failed and dead-lettered events, oldest first, once each', () => {
    const outcomes = [
      o('e1', { next_attempt_at: longAgo.replace('11:', '10:') }),
      o('e1', { dead_lettered: true }),
      o('e2', { next_attempt_at: later }), // retry scheduled: left to it
      o('e3'), // 410: the run ended without dead-lettering
      o('e4'),
      o('e4', { success: true }), // delivered
      o('e5', { event_type: 'webhook.test' }),
      o('e6', { next_attempt_at: longAgo }), // due long ago, never logged: lost (e.g. dropped while disabled)
    ];
    expect(missedEvents(outcomes, now).map((e) => e.id)).toEqual(['e1', 'e3', 'e6']);
  });

  it('a success from an earlier series still counts as delivered', () => {
    expect(missedEvents([o('e1', { success: true }), o('e1', { dead_lettered: true })], now)).toEqual([]);
  });

  it('leaves out the types the endpoint is no longer subscribed to, never the endpoint_disabled event', () => {
    const outcomes = [
      o('e1', { event_type: 'candidate.created' }),
      o('e2', { event_type: 'candidate.stage_changed' }),
      o('e3', { event_type: 'webhook.endpoint_disabled' }),
    ];
    expect(missedEvents(outcomes, now, ['candidate.stage_changed']).map((e) => e.id)).toEqual(['e2', 'e3']);
  });
});

describe('pendingRetries (local restart)', () => {
  const att = (sk: string, rest: Record<string, unknown>) => ({
    PK: 'T#t1#WEBHOOKS',
    SK: sk,
    event_id: 'e1',
    event_type: 'candidate.created',
    attempt: 1,
    success: false,
    next_attempt_at: null,
    dead_lettered: false,
    ...rest,
  });
  it('puts back only the last attempt of a series when it has a retry scheduled', () => {
    const due = '2026-11-22T12:00:05.000Z';
    const got = pendingRetries([
      att('ATT#w1#0001', { next_attempt_at: '2026-11-22T11:00:00.000Z' }),
      att('ATT#w1#0002', { attempt: 2, next_attempt_at: due }), // the latest: restore
      att('ATT#w1#0003', { event_id: 'e2', dead_lettered: true }),
      att('ATT#w1#0004', { event_id: 'e3', success: true }),
      att('ATT#w2#0005', { next_attempt_at: due, series: 'resend:x' }), // another endpoint, its own series
      att('ATT#w1#0006', { event_id: 'e4', next_attempt_at: due }),
      att('ATT#w1#0007', { event_id: 'e4', attempt: 2, success: true }),
    ] as never);
    expect(got.map((a) => [a.SK, a.attempt])).toEqual([
      ['ATT#w1#0002', 2],
      ['ATT#w2#0005', 1],
    ]);
  });
});
