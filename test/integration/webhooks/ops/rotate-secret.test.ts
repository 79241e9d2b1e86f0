/**
 * Webhook operations through the local gateway and pipeline, against a real HTTPS receiver
 * (test/integration/webhooks/ops/fixture.ts). This file: secret rotation: both secrets sign during
 * the grace window (checked with both verifier libraries), only the new one after.
 */
import { describe, expect, it } from 'vitest';
import { A, allSecrets, at, B, create, hookUrl, M, secretChecks, sleep, verifiesWith, useOpsFixture } from './fixture';
import { createHmac } from 'node:crypto';

useOpsFixture();

describe('POST /api/webhooks/{id}/rotate-secret', () => {
  it('signs with both secrets during the grace window (both libraries), with only the new one after', async () => {
    const w = await create({ url: hookUrl('/rotate') });
    const old = w.secret;
    const res = await A('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: { grace_seconds: 3 } });
    expect(res.status, res.text).toBe(200);
    const { secret, previous_secret_expires_at } = res.body.webhook;
    allSecrets.push(secret);
    expect(res.body).toEqual({
      success: true,
      webhook: { id: w.id, secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) },
    });
    expect(secret).not.toBe(old);
    expect(Date.parse(previous_secret_expires_at) - Date.now()).toBeGreaterThan(1_000);
    // The secret is shown only here.
    expect((await A('GET', `/api/webhooks/${w.id}`)).text).not.toContain(secret.slice(6));

    // During the window: a test send and a delivery through the pipeline both verify with either secret.
    expect((await A('POST', `/api/webhooks/${w.id}/test`)).body.success).toBe(true);
    const during = at('/rotate').at(-1)!;
    expect(verifiesWith(secret, during)).toEqual([true, true]);
    expect(verifiesWith(old, during)).toEqual([true, true]);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(during.headers['x-service-signature']).toBe(createHmac('sha256', secret).update(during.body).digest('hex'));
    expect(during.headers['x-service-signature-previous']).toBe(createHmac('sha256', old).update(during.body).digest('hex'));

    await sleep(Math.max(0, Date.parse(previous_secret_expires_at) - Date.now()) + 200);
    expect((await A('POST', `/api/webhooks/${w.id}/test`)).body.success).toBe(true);
    const after = at('/rotate').at(-1)!;
    expect(after).not.toBe(during);
    expect(verifiesWith(secret, after)).toEqual([true, true]);
    expect(verifiesWith(old, after)).toEqual([false, false]);
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(after.headers['x-service-signature-previous']).toBeUndefined();

    // grace_seconds 0: the old secret stops at once; default: 24 h.
    const now = (await A('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: { grace_seconds: 0 } })).body.webhook;
    allSecrets.push(now.secret);
    expect(now.previous_secret_expires_at).toBeNull();
    await A('POST', `/api/webhooks/${w.id}/test`);
    expect(verifiesWith(secret, at('/rotate').at(-1)!)).toEqual([false, false]);
    expect(verifiesWith(now.secret, at('/rotate').at(-1)!)).toEqual([true, true]);
    // Rotating is for admins only: a member's attempt changes nothing.
    expect((await M('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: {} })).status).toBe(403);
    const dflt = (await A('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: {} })).body.webhook;
    allSecrets.push(dflt.secret);
    expect(Date.parse(dflt.previous_secret_expires_at) - Date.now()).toBeGreaterThan(86_000_000);
  });

  it('validates grace_seconds, refuses another workspace (404) and never leaks the new secret there', async () => {
    const w = await create({ url: hookUrl('/rotate-bad') });
    for (const body of [{ grace_seconds: -1 }, { grace_seconds: 604_801 }, { grace_seconds: 1.5 }, { grace_seconds: '60' }, { grace: 5 }]) {
      const res = await A('POST', `/api/webhooks/${w.id}/rotate-secret`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/grace/);
    }
    const other = await B('POST', `/api/webhooks/${w.id}/rotate-secret`, { body: {} });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: 'webhook not found', code: 'not_found' });
    // Unchanged: the original secret still verifies.
    await A('POST', `/api/webhooks/${w.id}/test`);
    expect(verifiesWith(w.secret, at('/rotate-bad').at(-1)!)).toEqual([true, true]);
  });
});

secretChecks({ minSecrets: 5 });
