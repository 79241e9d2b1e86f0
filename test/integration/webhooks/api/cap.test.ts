/**
 * Webhook management endpoints (session routes under /api/webhooks) through the local gateway.
 *
 * This file: the cap of 20 active endpoints per workspace under concurrent writes. The count lives
 * on the workspace's COUNTS item and moves in the same transaction as every write that switches
 * an endpoint on or off (lib/store/webhook-endpoints.ts), so racing creates and reactivations end
 * at exactly 20, whatever the order the writes land in.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tlsServers, type TestServer } from '../../../helpers/tls-servers';
import { PASSWORD } from '../../../helpers/stack';
import { as, create, hookUrl, secretChecks, stack, type CallOpts, useWebhookApiFixture } from './fixture';
import { getActiveCount } from '../../../../lib/store/webhook-endpoints';
import { ddb, tableName } from '../../../../lib/store/client';
import { keys } from '../../../../lib/store/table';

useWebhookApiFixture();

const CAP = 20;
const FULL = { error: `a workspace can have at most ${CAP} active webhook endpoints`, code: 'conflict' };

type Caller = (method: string, path: string, opts?: CallOpts) => ReturnType<typeof stack.call>;

async function workspace() {
  const t = await stack.tenant();
  return { tenant: t, call: as(await stack.login((await t.user('admin')).email, PASSWORD)) as Caller };
}

/** `n` active endpoints, one after another; subscribed to an event these workspaces never emit. */
async function endpoints(call: Caller, n: number, tag: string) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await create({ url: `https://hooks.example.com/${tag}${i}`, events: ['offer.accepted'] }, call)).id);
  return ids;
}

async function activeCount(call: Caller) {
  const res = await call('GET', '/api/webhooks?status=active');
  expect(res.status, res.text).toBe(200);
  return res.body.data.length as number;
}

/** The stored count, read past the API: it must equal what the listing shows. */
async function storedCount(tenantId: string) {
  return getActiveCount(tenantId);
}

const statuses = (answers: { status: number }[]) => answers.map((r) => r.status).sort();

describe('concurrent writes against the cap', () => {
  it('10 creates at once with 18 active: exactly 2 succeed, 8 are 409, 20 active after', async () => {
    const { tenant, call } = await workspace();
    await endpoints(call, 18, 'c');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('POST', '/api/webhooks', { body: { url: `https://hooks.example.com/race${i}` } })),
    );
    expect(statuses(answers)).toEqual([201, 201, ...Array(8).fill(409)]);
    for (const res of answers.filter((r) => r.status === 409)) expect(res.body).toEqual(FULL);
    expect(await activeCount(call)).toBe(CAP);
    expect(await storedCount(tenant.id)).toBe(CAP);
  });

  it('10 reactivations at once with 18 active: exactly 2 succeed, 8 are 409, 20 active after', async () => {
    const { tenant, call } = await workspace();
    const off = await endpoints(call, 10, 'off');
    for (const id of off) expect((await call('PATCH', `/api/webhooks/${id}`, { body: { active: false } })).status).toBe(200);
    await endpoints(call, 18, 'on');
    expect(await activeCount(call)).toBe(18);
    const answers = await Promise.all(off.map((id) => call('PATCH', `/api/webhooks/${id}`, { body: { active: true } })));
    expect(statuses(answers)).toEqual([200, 200, ...Array(8).fill(409)]);
    for (const res of answers.filter((r) => r.status === 409)) expect(res.body).toEqual(FULL);
    expect(await activeCount(call)).toBe(CAP);
    expect(await storedCount(tenant.id)).toBe(CAP);
    // The refused ones are still off; the accepted ones say so.
    const list = (await call('GET', '/api/webhooks')).body.data as { id: string; active: boolean }[];
    const reactivated = off.filter((id) => list.find((w) => w.id === id)?.active);
    expect(reactivated).toHaveLength(2);
  });

  it('creates and reactivations racing each other also stop at exactly 20', async () => {
    const { tenant, call } = await workspace();
    const off = await endpoints(call, 5, 'mixoff');
    for (const id of off) expect((await call('PATCH', `/api/webhooks/${id}`, { body: { active: false } })).status).toBe(200);
    await endpoints(call, 17, 'mixon');
    const answers = await Promise.all([
      ...off.map((id) => call('PATCH', `/api/webhooks/${id}`, { body: { active: true } })),
      ...Array.from({ length: 5 }, (_, i) => call('POST', '/api/webhooks', { body: { url: `https://hooks.example.com/mix${i}` } })),
    ]);
    expect(answers.filter((r) => r.status < 300)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(7);
    expect(await activeCount(call)).toBe(CAP);
    expect(await storedCount(tenant.id)).toBe(CAP);
  });

  it('the same endpoint reactivated 5 times at once counts once', async () => {
    const { tenant, call } = await workspace();
    const [one] = await endpoints(call, 1, 'same');
    expect((await call('PATCH', `/api/webhooks/${one}`, { body: { active: false } })).status).toBe(200);
    await endpoints(call, 18, 'other');
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('PATCH', `/api/webhooks/${one}`, { body: { active: true } })));
    expect(statuses(answers)).toEqual(Array(5).fill(200));
    expect(await activeCount(call)).toBe(19);
    expect(await storedCount(tenant.id)).toBe(19);
    // Room for exactly one more.
    expect((await call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/last' } })).status).toBe(201);
    expect((await call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/over' } })).body).toEqual(FULL);
  });

  it('a workspace from before the count: the first writes derive it, and racing creates still stop at 20', async () => {
    const { tenant, call } = await workspace();
    await endpoints(call, 18, 'old');
    await ddb.send(new DeleteCommand({ TableName: tableName(), Key: keys.webhookCounts(tenant.id) }));
    expect(await storedCount(tenant.id)).toBeUndefined();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('POST', '/api/webhooks', { body: { url: `https://hooks.example.com/old-race${i}` } })),
    );
    expect(statuses(answers)).toEqual([201, 201, ...Array(8).fill(409)]);
    for (const res of answers.filter((r) => r.status === 409)) expect(res.body).toEqual(FULL);
    expect(await activeCount(call)).toBe(CAP);
    expect(await storedCount(tenant.id)).toBe(CAP);
  });
});

describe('what frees room', () => {
  it('deactivating or deleting an active endpoint frees one place; deleting an inactive one frees none', async () => {
    const { tenant, call } = await workspace();
    const ids = await endpoints(call, CAP, 'free');
    const more = (tag: string) => call('POST', '/api/webhooks', { body: { url: `https://hooks.example.com/${tag}` } });
    expect((await more('x1')).body).toEqual(FULL);

    expect((await call('PATCH', `/api/webhooks/${ids[0]}`, { body: { active: false } })).status).toBe(200);
    expect((await more('x2')).status).toBe(201);
    expect((await more('x3')).body).toEqual(FULL);

    expect((await call('DELETE', `/api/webhooks/${ids[1]}`)).status).toBe(200);
    expect((await more('x4')).status).toBe(201);
    expect((await more('x5')).body).toEqual(FULL);

    // ids[0] is inactive already: deleting it (twice) changes nothing in the count.
    expect((await call('DELETE', `/api/webhooks/${ids[0]}`)).status).toBe(200);
    expect((await call('DELETE', `/api/webhooks/${ids[0]}`)).status).toBe(200);
    expect((await more('x6')).body).toEqual(FULL);
    // Switching an inactive endpoint off again, or an active one on, does not move it either.
    expect((await call('PATCH', `/api/webhooks/${ids[2]}`, { body: { active: true } })).status).toBe(200);
    expect((await more('x7')).body).toEqual(FULL);
    expect(await activeCount(call)).toBe(CAP);
    expect(await storedCount(tenant.id)).toBe(CAP);
  });

  it('deletes racing deactivations of the same endpoints free each place once', async () => {
    const { tenant, call } = await workspace();
    const ids = await endpoints(call, CAP, 'racefree');
    const gone = ids.slice(0, 6);
    const answers = await Promise.all(
      gone.flatMap((id) => [
        call('DELETE', `/api/webhooks/${id}`),
        call('PATCH', `/api/webhooks/${id}`, { body: { active: false } }),
        call('DELETE', `/api/webhooks/${id}`),
      ]),
    );
    // A PATCH that lands after the DELETE is refused: the endpoint was deleted.
    for (const res of answers) expect([200, 409], res.text).toContain(res.status);
    expect(await activeCount(call)).toBe(CAP - gone.length);
    expect(await storedCount(tenant.id)).toBe(CAP - gone.length);
  });

  describe('the automatic disable', () => {
    let gone: TestServer;
    const servers = tlsServers(inject('tls'));
    beforeAll(async () => {
      gone = await servers.start((_req, res) => void res.writeHead(410, { 'content-type': 'text/plain' }).end('gone'));
    });
    afterAll(() => servers.closeAll());

    it('a receiver answering 410 Gone gets its endpoint disabled, which frees its place', async () => {
      const { tenant, call } = await workspace();
      // The others answer 200 (the fixture's receiver) to the endpoint_disabled event they get.
      for (let i = 0; i < CAP - 1; i++) await create({ url: hookUrl(`/ok-cap${i}`), events: ['offer.accepted'] }, call);
      const doomed = await create({ url: gone.url('/gone'), events: ['candidate.created'] }, call);
      expect((await call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/before' } })).body).toEqual(FULL);

      const token = await tenant.token(['*']);
      expect((await stack.call('POST', '/api/v1/candidates', { token, body: { name: 'Gone Receiver' } })).status).toBe(201);
      const deadline = Date.now() + 15_000;
      let webhook = (await call('GET', `/api/webhooks/${doomed.id}`)).body.webhook;
      while (webhook.active && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        webhook = (await call('GET', `/api/webhooks/${doomed.id}`)).body.webhook;
      }
      expect(webhook).toMatchObject({ active: false, status: 'disabled', disabled_reason: 'receiver answered 410 Gone' });
      expect(await storedCount(tenant.id)).toBe(CAP - 1);
      expect((await call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/after' } })).status).toBe(201);
      expect((await call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/after2' } })).body).toEqual(FULL);
      expect(await activeCount(call)).toBe(CAP);
    });
  });
});

describe('tenant isolation', () => {
  it("another workspace's endpoints do not count", async () => {
    const x = await workspace();
    const y = await workspace();
    await endpoints(x.call, CAP, 'x');
    expect((await x.call('POST', '/api/webhooks', { body: { url: 'https://hooks.example.com/x-over' } })).body).toEqual(FULL);
    // Y, racing X's refused creates, still has all 20 places.
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => x.call('POST', '/api/webhooks', { body: { url: `https://hooks.example.com/x-more${i}` } })),
      ...Array.from({ length: CAP }, (_, i) => y.call('POST', '/api/webhooks', { body: { url: `https://hooks.example.com/y${i}` } })),
    ]);
    expect(statuses(answers.slice(0, 5))).toEqual(Array(5).fill(409));
    expect(statuses(answers.slice(5))).toEqual(Array(CAP).fill(201));
    expect([await activeCount(x.call), await activeCount(y.call)]).toEqual([CAP, CAP]);
    expect([await storedCount(x.tenant.id), await storedCount(y.tenant.id)]).toEqual([CAP, CAP]);
  });
});

// The fixture's workspaces have no endpoint here; the check of everything logged covers every secret.
secretChecks({ minSecrets: 1, deliveries: false });
