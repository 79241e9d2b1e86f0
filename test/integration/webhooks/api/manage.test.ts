import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../../lib/model';
import { PASSWORD } from '../../../helpers/stack';
import { A, allSecrets, as, create, hookUrl, isoMs, stack, secretChecks, useWebhookApiFixture } from './fixture';

useWebhookApiFixture();

describe('POST /api/webhooks', () => {
  it('creates an endpoint: 201, the secret once, all five event types by default', async () => {
    const res = await A('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/in', description: 'CRM sync' } });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const w = res.body.webhook;
    allSecrets.push(w.secret);
    expect(Object.keys(res.body).sort()).toEqual(['success', 'webhook']);
    expect(Object.keys(w).sort()).toEqual(['active', 'created_at', 'events', 'id', 'secret', 'url']);
    expect(w.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(w.url).toBe('https://hooks.example.com/in');
    expect(w.active).toBe(true);
    expect(w.created_at).toMatch(isoMs);
    expect(Math.abs(Date.parse(w.created_at) - Date.now())).toBeLessThan(60_000);
    expect(w.events).toEqual([...EVENT_TYPES]);
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(w.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
  });

  it('keeps a given subscription (deduplicated) and gives every endpoint its own secret', async () => {
    const one = await create({ url: 'https://hooks.example.com/a', events: ['offer.sent', 'offer.sent', 'placement.created'] });
    const two = await create({ url: 'https://hooks.example.com/a' });
    expect(one.events).toEqual(['offer.sent', 'placement.created']);
    expect(one.secret).not.toBe(two.secret);
    expect(one.id).not.toBe(two.id);
  });

  it('validates the body with 400 { error }', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ url: 'http://hooks.example.com/in' }, /https/],
      [{ url: 'ftp://hooks.example.com/in' }, /https/],
      [{ url: 'not a url' }, /url/],
      [{ url: 'https://user:pw@hooks.example.com/in' }, /credentials|url/],
      [{ url: 'https://user@hooks.example.com/in' }, /credentials|url/],
      [{ url: 'https://hooks.example.com/in', events: ['candidate.deleted'] }, /events/],
      [{ url: 'https://hooks.example.com/in', events: ['webhook.test'] }, /events/],
      [{ url: 'https://hooks.example.com/in', events: [] }, /events/],
      [{ url: 'https://hooks.example.com/in', events: 'offer.sent' }, /events/],
      [{ url: 'https://hooks.example.com/in', secret: 'whsec_mine' }, /unknown body field "secret"/],
      [{ url: 'https://hooks.example.com/in', active: false }, /unknown body field "active"/],
      [{ url: 'https://hooks.example.com/in', description: 'x'.repeat(501) }, /description/],
      [{ url: 'https://hooks.example.com/in', description: 42 }, /description/],
      [{ url: `https://hooks.example.com/${'a'.repeat(2048)}` }, /url/],
      [{ events: ['offer.sent'] }, /url is required/],
      [[], /body/],
    ];
    const before = (await A('GET', '/api/webhooks')).body.data.length;
    for (const [body, message] of cases) {
      const res = await A('POST', '/api/webhooks', { body });
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(Object.keys(res.body).filter((k) => !['error', 'code', 'field'].includes(k))).toEqual([]);
      expect(res.body.error, JSON.stringify(body).slice(0, 120)).toMatch(message);
    }
    expect((await A('GET', '/api/webhooks')).body.data.length).toBe(before);
    // The boundary itself is allowed.
    await create({ url: 'https://hooks.example.com/in', description: 'x'.repeat(500) });
  });
});

describe('GET /api/webhooks and /api/webhooks/{id}', () => {
  it('lists the endpoints without any secret', async () => {
    const w = await create({ url: 'https://hooks.example.com/listed', events: ['candidate.created'], description: 'listed one' });
    const res = await A('GET', '/api/webhooks');
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/secret/i);
    for (const s of allSecrets) expect(res.text).not.toContain(s.slice('whsec_'.length));
    const item = res.body.data.find((x: { id: string }) => x.id === w.id);
    expect(item).toEqual({
      id: w.id,
      url: 'https://hooks.example.com/listed',
      events: ['candidate.created'],
      active: true,
      description: 'listed one',
      last_triggered_at: null,
      failure_count: 0,
      created_at: w.created_at,
      disabled_reason: null,
      status: 'active',
    });
  });

  it('answers one endpoint with no secret and no deliveries yet', async () => {
    const w = await create({ url: 'https://hooks.example.com/one' });
    const res = await A('GET', `/api/webhooks/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/secret/i);
    expect(res.text).not.toContain(w.secret.slice('whsec_'.length));
    expect(res.body.deliveries).toEqual([]);
    expect(res.body.webhook).toMatchObject({ id: w.id, url: w.url, events: [...EVENT_TYPES], active: true, failure_count: 0 });
    expect(res.body.webhook.secret).toBeUndefined();
  });

  it('answers 404 for an unknown id and 400 for a non-UUID id', async () => {
    const missing = await A('GET', '/api/webhooks/0190aaaa-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.body)).toEqual(['error', 'code']);
    for (const id of ['abc', '1', '0190aaaa-0000-7000-8000-00000000000Z']) {
      const res = await A('GET', `/api/webhooks/${id}`);
      expect(res.status, id).toBe(400);
      expect(res.body.error).toMatch(/id must be a UUID/);
    }
  });
});

describe('PATCH and DELETE /api/webhooks/{id}', () => {
  it('changes url (https only), replaces events, toggles active; empty body is 400', async () => {
    const w = await create({ url: 'https://hooks.example.com/p' });
    const patch = (body: unknown) => A('PATCH', `/api/webhooks/${w.id}`, { body });

    const urlRes = await patch({ url: 'https://hooks.example.com/p2' });
    expect(urlRes.status).toBe(200);
    expect(urlRes.body).toEqual({ success: true, webhook: { id: w.id, active: true } });
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.url).toBe('https://hooks.example.com/p2');

    for (const bad of [
      { url: 'http://hooks.example.com/p3' },
      { url: 'https://u:p@hooks.example.com/p3' },
      { events: [] },
      { events: ['nope'] },
      { active: 'false' },
      { secret: 'whsec_x' },
      { description: 'x'.repeat(501) },
      {},
    ]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(res.body).filter((k) => !['error', 'code', 'field'].includes(k))).toEqual([]);
    }
    const after = (await A('GET', `/api/webhooks/${w.id}`)).body.webhook;
    expect(after.url).toBe('https://hooks.example.com/p2');
    expect(after.events).toEqual([...EVENT_TYPES]);

    expect((await patch({ events: ['offer.accepted'] })).status).toBe(200);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.events).toEqual(['offer.accepted']);
    expect((await patch({ events: ['candidate.created', 'offer.sent'] })).status).toBe(200);
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.events).toEqual(['candidate.created', 'offer.sent']);

    const off = await patch({ active: false });
    expect(off.body).toEqual({ success: true, webhook: { id: w.id, active: false } });
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook.active).toBe(false);
    const on = await patch({ active: true, description: 'back on' });
    expect(on.body).toEqual({ success: true, webhook: { id: w.id, active: true } });
    expect((await A('GET', `/api/webhooks/${w.id}`)).body.webhook).toMatchObject({ active: true, description: 'back on' });
  });

  it('reactivating resets failure_count after real failed deliveries', async () => {
    // A tenant of its own, so its candidate events reach no other endpoint of this file.
    const c = await stack.tenant();
    const cookieC = await stack.login((await c.user('admin')).email, PASSWORD);
    const C = as(cookieC);
    const w = await create({ url: hookUrl('/fail-reset'), events: ['candidate.created'] }, C);
    const token = await c.token(['*']);
    expect((await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Failing Delivery' } })).status).toBe(201);
    const get = async () => (await C('GET', `/api/webhooks/${w.id}`)).body;
    const deadline = Date.now() + 15_000;
    let detail = await get();
    while (detail.webhook.failure_count < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      detail = await get();
    }
    expect(detail.webhook.failure_count).toBeGreaterThanOrEqual(1);
    expect(detail.deliveries[0]).toMatchObject({ event_type: 'candidate.created', response_status: 500, success: false });

    // Deactivate; let an attempt already in flight finish (later ones are dropped while inactive).
    expect((await C('PATCH', `/api/webhooks/${w.id}`, { body: { active: false } })).status).toBe(200);
    let settled = await get();
    for (let stable = 0; stable < 3 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 300));
      const next = await get();
      stable = next.deliveries.length === settled.deliveries.length ? stable + 1 : 0;
      settled = next;
    }
    expect(settled.webhook).toMatchObject({ active: false });
    expect(settled.webhook.failure_count).toBeGreaterThanOrEqual(1);
    expect(settled.webhook.failure_count).toBe(settled.deliveries.length);
    expect((await C('PATCH', `/api/webhooks/${w.id}`, { body: { active: true } })).status).toBe(200);
    const back = (await C('GET', `/api/webhooks/${w.id}`)).body.webhook;
    expect(back).toMatchObject({ active: true, failure_count: 0, disabled_reason: null });
  });

  it('DELETE soft-deletes: inactive, still listed, still readable', async () => {
    const w = await create({ url: 'https://hooks.example.com/d' });
    const res = await A('DELETE', `/api/webhooks/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const listed = (await A('GET', '/api/webhooks')).body.data.find((x: { id: string }) => x.id === w.id);
    expect(listed).toMatchObject({
      id: w.id,
      active: false,
      url: 'https://hooks.example.com/d',
      status: 'deleted',
      disabled_reason: 'deleted',
    });
    const one = await A('GET', `/api/webhooks/${w.id}`);
    expect(one.status).toBe(200);
    expect(one.body.webhook).toMatchObject({ id: w.id, active: false });
    // Deleting again is harmless.
    expect((await A('DELETE', `/api/webhooks/${w.id}`)).status).toBe(200);
  });
});

secretChecks({ minSecrets: 5, deliveries: false });
