/**
 * Webhook operations through the local gateway and pipeline, against a real HTTPS receiver
 * (test/integration/webhooks/ops/fixture.ts). This file: deleted vs disabled endpoints, and what
 * happens when the service disables one: the webhook.endpoint_disabled event to the other
 * endpoints, a WARN line and a metric.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../../../helpers/stack';
import { as, at, captured, create, hookUrl, secretChecks, stack, until, verifiesWith, useOpsFixture } from './fixture';

useOpsFixture();

// The in-process tiers run without metrics (vitest.config.ts); this file checks the disable metric
// (read as each EMF line is made, lib/metrics.ts; table-env.ts resets it for the next file).
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

describe('deleted and disabled', () => {
  it('a deleted endpoint says so, can be filtered, and cannot be reactivated or rotated', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('admin')).email, PASSWORD));
    const live = await create({ url: 'https://hooks.example.com/live' }, C);
    const off = await create({ url: 'https://hooks.example.com/off' }, C);
    const gone = await create({ url: 'https://hooks.example.com/gone' }, C);
    await C('PATCH', `/api/webhooks/${off.id}`, { body: { active: false } });
    await C('DELETE', `/api/webhooks/${gone.id}`);
    const all = (await C('GET', '/api/webhooks')).body.data;
    const statusOf = Object.fromEntries(all.map((e: any) => [e.id, [e.status, e.active, e.disabled_reason]]));
    expect(statusOf).toEqual({
      [live.id]: ['active', true, null],
      [off.id]: ['disabled', false, null],
      [gone.id]: ['deleted', false, 'deleted'],
    });
    for (const s of ['active', 'disabled', 'deleted']) {
      const ids = (await C('GET', `/api/webhooks?status=${s}`)).body.data.map((e: any) => e.id);
      expect(ids, s).toEqual([{ active: live.id, disabled: off.id, deleted: gone.id }[s]]);
    }
    const bad = await C('GET', '/api/webhooks?status=gone');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/status must be one of active, disabled, deleted/);
    expect((await C('GET', `/api/webhooks/${gone.id}`)).body.webhook.status).toBe('deleted');
    const back = await C('PATCH', `/api/webhooks/${gone.id}`, { body: { active: true } });
    expect(back.status).toBe(409);
    expect(back.body.error).toMatch(/deleted/);
    expect((await C('POST', `/api/webhooks/${gone.id}/rotate-secret`, { body: {} })).status).toBe(409);
    expect(
      (await C('POST', `/api/webhooks/${off.id}/replay`, { body: { since: new Date(Date.now() - 3600_000).toISOString() } })).status,
    ).toBe(409);
    expect((await C('PATCH', `/api/webhooks/${off.id}`, { body: { active: true } })).body.webhook.active).toBe(true);
  });
});

describe('an endpoint disabled by the service', () => {
  it('sends webhook.endpoint_disabled to the other active endpoints, logs WARN and emits a metric', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('admin')).email, PASSWORD));
    const token = await c.token(['*']);
    const gone = await create({ url: hookUrl('/gone-signal'), events: ['candidate.created'] }, C);
    const watcher = await create({ url: hookUrl('/watcher'), events: ['offer.sent'] }, C);
    const idle = await create({ url: hookUrl('/idle') }, C);
    await C('PATCH', `/api/webhooks/${idle.id}`, { body: { active: false } });
    const res = await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Signal Test' } });
    expect(res.status).toBe(201);
    const got = await until('endpoint_disabled event', async () => at('/watcher').length > 0 && at('/watcher'));
    expect(got).toHaveLength(1);
    const env = JSON.parse(got[0]!.body);
    expect(env).toMatchObject({
      event: 'webhook.endpoint_disabled',
      tenantSlug: c.slug,
      data: { webhookId: gone.id, reason: 'receiver answered 410 Gone' },
    });
    expect(got[0]!.headers['x-service-event']).toBe('webhook.endpoint_disabled');
    expect(verifiesWith(watcher.secret, got[0]!)).toEqual([true, true]);
    expect(at('/idle')).toHaveLength(0);
    const detail = (await C('GET', `/api/webhooks/${gone.id}`)).body.webhook;
    expect(detail).toMatchObject({ active: false, status: 'disabled', disabled_reason: 'receiver answered 410 Gone' });
    const lines = captured.join('').split('\n');
    const warn = lines.find((l) => l.includes('"webhook disabled"') && l.includes(gone.id));
    expect(warn).toBeDefined();
    expect(JSON.parse(warn!)).toMatchObject({ level: 'WARN', webhook_id: gone.id, tenant_id: c.id, reason: 'receiver answered 410 Gone' });
    const emf = lines.find((l) => l.includes('"EndpointsDisabled"'));
    expect(emf).toBeDefined();
    expect(JSON.parse(emf!)._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'TalentPipeline' });
  });
});

secretChecks({ minSecrets: 6 });
