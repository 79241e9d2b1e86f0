/**
 * Webhook management endpoints (session routes under /api/webhooks) through the local gateway,
 * with the test operation delivering to a REAL local HTTPS receiver (self-signed cert from global
 * setup, trusted through NODE_EXTRA_CA_CERTS) that verifies both signatures.
 *
 * This file: POST /api/webhooks/{id}/test; isolation and access; limits; secrets.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../../../helpers/stack';
import { A, B, a, allSecrets, as, counter, create, hookUrl, isoMs, received, stack, secretChecks, useWebhookApiFixture } from './fixture';

useWebhookApiFixture();

describe('POST /api/webhooks/{id}/test', () => {
  it('sends a signed webhook.test, answers the result and records the delivery first', async () => {
    const w = await create({ url: hookUrl('/ok-test') });
    const n = received.length;
    const res = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      status: 200,
      duration_ms: expect.any(Number),
      response_body: 'ok from receiver',
      error: null,
      error_message: null,
      durationMs: expect.any(Number),
      responseBody: 'ok from receiver',
      errorMessage: null,
    });
    expect(res.body.duration_ms).toBe(res.body.durationMs);
    expect(Number.isInteger(res.body.durationMs)).toBe(true);
    expect(res.body.durationMs).toBeGreaterThanOrEqual(0);

    const got = received.slice(n);
    expect(got).toHaveLength(1);
    const r = got[0]!;
    expect(r.path).toBe('/ok-test');
    expect(r.serviceOk).toBe(true);
    expect(r.standardOk).toBe(true);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-service-event']).toBe('webhook.test');
    expect(r.headers['x-service-signature']).toBe(createHmac('sha256', w.secret).update(r.body).digest('hex'));
    expect(r.headers['webhook-id']).toMatch(/^evt_/);
    const env = JSON.parse(r.body);
    expect(Object.keys(env).sort()).toEqual(['data', 'event', 'tenantSlug', 'timestamp']);
    expect(env).toMatchObject({ event: 'webhook.test', tenantSlug: a.slug });
    expect(env.timestamp).toMatch(isoMs);
    expect(typeof env.data).toBe('object');

    const detail = await A('GET', `/api/webhooks/${w.id}`);
    expect(detail.body.deliveries.length).toBeGreaterThanOrEqual(1);
    expect(detail.body.deliveries[0]).toMatchObject({
      event_type: 'webhook.test',
      event_id: r.headers['webhook-id'],
      response_status: 200,
      success: true,
      attempt: 1,
      dead_lettered: false,
    });
    expect(Number.isInteger(detail.body.deliveries[0].duration_ms)).toBe(true);
    expect(detail.body.deliveries[0].created_at).toMatch(isoMs);
  });

  it('reports a receiver 500 as success false, and does not count it as a failure', async () => {
    const w = await create({ url: hookUrl('/fail-test') });
    const res = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, status: 500, responseBody: 'receiver broke', error: 'http_status' });
    expect(res.body.errorMessage).toBe('the receiver answered HTTP 500');
    const detail = (await A('GET', `/api/webhooks/${w.id}`)).body;
    expect(detail.deliveries[0]).toMatchObject({ event_type: 'webhook.test', success: false, response_status: 500 });
    expect(detail.webhook).toMatchObject({ active: true, failure_count: 0 });
  });

  it('works on a disabled endpoint (checking a receiver before enabling it again), never on a deleted one', async () => {
    const w = await create({ url: hookUrl('/ok-inactive') });
    expect((await A('PATCH', `/api/webhooks/${w.id}`, { body: { active: false } })).status).toBe(200);
    const res = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(res.body).toMatchObject({ success: true, status: 200 });
    const sent = received.filter((r) => r.path === '/ok-inactive').length;
    expect(sent).toBe(1);
    expect((await A('DELETE', `/api/webhooks/${w.id}`)).status).toBe(200);
    const deleted = await A('POST', `/api/webhooks/${w.id}/test`);
    expect([deleted.status, deleted.body]).toEqual([
      409,
      { error: 'webhook was deleted; create a new endpoint instead', code: 'conflict' },
    ]);
    expect(received.filter((r) => r.path === '/ok-inactive')).toHaveLength(sent);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.deliveries).toHaveLength(1);
  });

  it('GET /{id} shows the last 10 deliveries, newest first', async () => {
    const w = await create({ url: hookUrl('/count') });
    const start = counter;
    for (let i = 0; i < 12; i++) {
      const res = await A('POST', `/api/webhooks/${w.id}/test`);
      expect(res.body.responseBody).toBe(`n=${start + i + 1}`);
    }
    const { deliveries } = (await A('GET', `/api/webhooks/${w.id}`)).body;
    expect(deliveries).toHaveLength(10);
    expect(deliveries.map((d: any) => d.response_body)).toEqual(Array.from({ length: 10 }, (_, i) => `n=${start + 12 - i}`));
    const times = deliveries.map((d: any) => Date.parse(d.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    expect(new Set(deliveries.map((d: any) => d.id)).size).toBe(10);
  });
});

describe('isolation and access', () => {
  it("every management route answers 404 for another tenant's webhook and changes nothing", async () => {
    const w = await create({ url: hookUrl('/ok-isolated'), events: ['offer.sent'], description: 'tenant A only' });
    const before = (await A('GET', `/api/webhooks/${w.id}`)).body;
    const n = received.length;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/webhooks/${w.id}`],
      ['PATCH', `/api/webhooks/${w.id}`, { active: false }],
      ['PATCH', `/api/webhooks/${w.id}`, { url: 'https://attacker.example.com/steal' }],
      ['PATCH', `/api/webhooks/${w.id}`, { events: ['candidate.created'], description: 'owned' }],
      ['DELETE', `/api/webhooks/${w.id}`],
      ['POST', `/api/webhooks/${w.id}/test`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await B(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(404);
      expect(Object.keys(res.body)).toEqual(['error', 'code']);
      expect(res.text).not.toContain(w.url);
    }
    expect(received.length).toBe(n);
    const after = (await A('GET', `/api/webhooks/${w.id}`)).body;
    expect(after).toEqual(before);
    const listB = (await B('GET', '/api/webhooks')).body.data;
    expect(listB.some((x: { id: string }) => x.id === w.id)).toBe(false);
    // Control: B's own endpoint works with B's session.
    const own = await create({ url: 'https://hooks.example.com/b' }, B);
    expect((await B('GET', `/api/webhooks/${own.id}`)).status).toBe(200);
    expect((await A('GET', `/api/webhooks/${own.id}`)).status).toBe(404);
  });

  it('a non-UUID id is 400 on every {id} route', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/webhooks/not-a-uuid'],
      ['PATCH', '/api/webhooks/not-a-uuid', { active: false }],
      ['DELETE', '/api/webhooks/not-a-uuid'],
      ['POST', '/api/webhooks/not-a-uuid/test'],
    ] as Array<[string, string, unknown?]>) {
      const res = await A(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error).toMatch(/id must be a UUID/);
    }
  });

  it('no session (or a forged one) is 401 on every route', async () => {
    const w = await create({ url: 'https://hooks.example.com/auth' });
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks', { url: 'https://hooks.example.com/x' }],
      ['GET', `/api/webhooks/${w.id}`],
      ['PATCH', `/api/webhooks/${w.id}`, { active: false }],
      ['DELETE', `/api/webhooks/${w.id}`],
      ['POST', `/api/webhooks/${w.id}/test`],
    ];
    const listBefore = (await A('GET', '/api/webhooks')).body.data.length;
    for (const [method, path, body] of routes) {
      for (const headers of [{}, { Cookie: '__Host-tp_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }] as Record<string, string>[]) {
        const res = await stack.call(method, path, { headers, ...(body === undefined ? {} : { body }) });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(typeof res.body.error).toBe('string');
      }
      // A Bearer token is not a session.
      const token = await a.token(['*']);
      const bearer = await stack.call(method, path, { token, ...(body === undefined ? {} : { body }) });
      expect(bearer.status, `${method} ${path} bearer`).toBe(401);
    }
    expect((await A('GET', '/api/webhooks')).body.data.length).toBe(listBefore);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.active).toBe(true);
  });

  it('refuses cross-site writes (CSRF) with 403 and changes nothing', async () => {
    const w = await create({ url: hookUrl('/ok-csrf') });
    const n = received.length;
    const listBefore = (await A('GET', '/api/webhooks')).body.data.length;
    for (const headers of [{ Origin: 'https://evil.example' }, { Origin: 'null' }, { 'Sec-Fetch-Site': 'cross-site' }] as Record<
      string,
      string
    >[]) {
      for (const [method, path, body] of [
        ['POST', '/api/webhooks', { url: 'https://evil.example/hook' }],
        ['PATCH', `/api/webhooks/${w.id}`, { url: 'https://evil.example/hook' }],
        ['DELETE', `/api/webhooks/${w.id}`],
        ['POST', `/api/webhooks/${w.id}/test`],
      ] as Array<[string, string, unknown?]>) {
        const res = await A(method, path, { headers, ...(body === undefined ? {} : { body }) });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.body).toEqual({ error: 'cross-site request refused', code: 'forbidden' });
      }
    }
    expect(received.length).toBe(n);
    expect((await A('GET', '/api/webhooks')).body.data.length).toBe(listBefore);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook).toMatchObject({ url: w.url, active: true });
    // Same-origin browsers may write.
    const host = new URL(stack.url).host;
    const same = await A('PATCH', `/api/webhooks/${w.id}`, {
      body: { description: 'same origin' },
      headers: { Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(same.status).toBe(200);
  });
});

describe('limits', () => {
  it('caps a workspace at 20 active endpoints, counting reactivation too', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('admin')).email, PASSWORD));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await create({ url: `https://hooks.example.com/c${i}` }, C)).id);
    const over = await C('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/c20' } });
    expect(over.status).toBe(409);
    expect(over.body).toEqual({ error: 'a workspace can have at most 20 active webhook endpoints', code: 'conflict' });
    expect((await C('DELETE', `/api/webhooks/${ids[0]}`)).status).toBe(200);
    const extra = await create({ url: 'https://hooks.example.com/c21' }, C);
    const back = await C('PATCH', `/api/webhooks/${ids[0]}`, { body: { active: true } });
    expect(back.status).toBe(409);
    expect((await C('PATCH', `/api/webhooks/${extra.id}`, { body: { active: true } })).status).toBe(200); // already active: no change in count
  });

  it('accepts an @ in the query string; only credentials before the host are refused', async () => {
    const ok = await A('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/tp?notify=ops@example.com' } });
    expect(ok.status, ok.text).toBe(201);
    allSecrets.push(ok.body.webhook.secret);
    const creds = await A('POST', '/api/webhooks', { body: { url: 'https://user:pw@hooks.example.com/tp' } });
    expect(creds.status).toBe(400);
    expect(creds.body.error).toMatch(/credentials/);
  });
});

secretChecks({ minSecrets: 3, deliveries: true });
