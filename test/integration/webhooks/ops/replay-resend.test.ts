/**
 * Webhook operations through the local gateway and pipeline, against a real HTTPS receiver
 * (test/integration/webhooks/ops/fixture.ts). This file: the receiver goes down, events are
 * dead-lettered, replay since T delivers each once with its original webhook-id, resend verifies;
 * the bodies they take, other workspaces, and the bound on running replay jobs.
 */
import { settleAudit } from '../../../helpers/audit';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../../../helpers/stack';
import {
  A,
  as,
  at,
  B,
  create,
  createCandidate,
  hookUrl,
  M,
  receiverDown,
  receiverUp,
  secretChecks,
  setSlowMs,
  sleep,
  stack,
  until,
  verifiesWith,
  useOpsFixture,
} from './fixture';
import { startReplayJob } from '../../../../lib/store/replay-jobs';

useOpsFixture();

describe('receiver down -> replay since T -> resend', () => {
  it('delivers each missed event exactly once with its original webhook-id; resend verifies', async () => {
    const path = '/replay';
    const w = await create({ url: hookUrl(path), events: ['candidate.created'] });
    const since = new Date(Date.now() - 1_000).toISOString();

    // 1-2. The receiver is down: every attempt fails and is dead-lettered.
    await receiverDown();
    const names = ['Ada', 'Grace', 'Edsger', 'Barbara', 'Donald'];
    for (const n of names) await createCandidate(n);
    const log = await until('dead letters', async () => {
      const d = (await A('GET', `/api/webhooks/${w.id}/deliveries?limit=100`)).body.data;
      return d.filter((x: any) => x.dead_lettered).length === names.length && d;
    });
    expect(log).toHaveLength(names.length * 2);
    expect(log.every((d: any) => !d.success && d.error_category === 'connection')).toBe(true);
    const missed = new Set(log.map((d: any) => d.event_id));
    expect(missed.size).toBe(names.length);

    // 3. The receiver is back. 4. Replay since T.
    await receiverUp();
    setSlowMs(300); // slow enough that the job is still running when asked again
    let job: any;
    try {
      const started = await A('POST', `/api/webhooks/${w.id}/replay`, { body: { since } });
      expect(started.status, started.text).toBe(202);
      job = started.body.data;
      expect(job).toMatchObject({ since, status: 'running', created_at: expect.any(String), updated_at: expect.any(String) });
      // Idempotent while it runs: the same job, 200, no second traffic.
      const again = await A('POST', `/api/webhooks/${w.id}/replay`, { body: { since } });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(job.id);
      const done = await until('replay done', async () => {
        const j = (await A('GET', `/api/webhooks/${w.id}/replay`)).body.data;
        return j?.status === 'done' && j;
      });
      expect(done).toMatchObject({ id: job.id, queued: names.length, sent: names.length, remaining: 0 });
    } finally {
      setSlowMs(0);
    }
    await sleep(500); // anything duplicated would have arrived by now
    const got = at(path);
    expect(got.map((r) => r.headers['webhook-id']).sort()).toEqual([...missed].sort());
    for (const r of got) expect(verifiesWith(w.secret, r)).toEqual([true, true]);
    expect(got.map((r) => JSON.parse(r.body).data.name).sort()).toEqual([...names].sort());

    // Nothing is missed any more: a new replay queues nothing and is done at once.
    const second = await A('POST', `/api/webhooks/${w.id}/replay`, { body: { since } });
    expect(second.status).toBe(202);
    const idle = await until('empty replay done', async () => {
      const j = (await A('GET', `/api/webhooks/${w.id}/replay`)).body.data;
      return j?.status === 'done' && j;
    });
    expect(idle).toMatchObject({ id: second.body.data.id, queued: 0, sent: 0, remaining: 0 });

    // 5. Resend one (dead-lettered) event: same id and body, fresh signature, a new series.
    const eventId = [...missed][0] as string;
    const original = got.find((r) => r.headers['webhook-id'] === eventId)!;
    const n = at(path).length;
    const res = await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ success: true, event_id: eventId });
    const resent = await until('resend', async () => at(path).length > n && at(path).at(-1));
    expect(resent.headers['webhook-id']).toBe(eventId);
    expect(resent.body).toBe(original.body);
    new StandardWebhook(w.secret).verify(resent.body, {
      'webhook-id': String(resent.headers['webhook-id']),
      'webhook-timestamp': String(resent.headers['webhook-timestamp']),
      'webhook-signature': String(resent.headers['webhook-signature']),
    });
    const entry = await until('resend logged', async () => {
      const d = (await A('GET', `/api/webhooks/${w.id}/deliveries?limit=1`)).body.data[0];
      return d?.event_id === eventId && d.success && d;
    });
    expect(entry).toMatchObject({ attempt: 1, dead_lettered: false, error_category: null });
  }, 60_000);

  it('resend and replay validate their bodies and answer 404 for other workspaces and unknown events', async () => {
    const w = await create({ url: hookUrl('/resend-bad') });
    const own = await A('POST', `/api/webhooks/${w.id}/test`);
    expect(own.body.success).toBe(true);
    const eventId = String(at('/resend-bad').at(-1)!.headers['webhook-id']);

    for (const body of [{}, { event_id: 'evt_1' }, { event_id: 42 }, { event_id: eventId, extra: 1 }]) {
      const res = await A('POST', `/api/webhooks/${w.id}/resend`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/event_id|extra/);
    }
    const unknown = await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: `evt_${'0'.repeat(32)}` } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'event not found', code: 'not_found', field: 'event_id' });
    for (const body of [
      {},
      { since: 'yesterday' },
      { since: new Date(Date.now() - 15 * 86_400_000).toISOString() },
      { since: new Date(Date.now() + 60_000).toISOString() },
    ]) {
      const res = await A('POST', `/api/webhooks/${w.id}/replay`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(/since/);
    }
    // Another workspace: neither the endpoint nor the event is visible.
    const n = at('/resend-bad').length;
    const theirs = await create({ url: hookUrl('/resend-b') }, B);
    for (const [method, path, body] of [
      ['POST', `/api/webhooks/${w.id}/resend`, { event_id: eventId }],
      ['POST', `/api/webhooks/${theirs.id}/resend`, { event_id: eventId }],
      ['POST', `/api/webhooks/${w.id}/replay`, { since: new Date(Date.now() - 3_600_000).toISOString() }],
      ['GET', `/api/webhooks/${w.id}/replay`],
      ['GET', `/api/webhooks/${w.id}/deliveries`],
      ['POST', `/api/webhooks/${w.id}/rotate-secret`, {}],
    ] as Array<[string, string, unknown?]>) {
      const res = await B(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    await sleep(300);
    expect(at('/resend-bad')).toHaveLength(n);
    expect(at('/resend-b')).toHaveLength(0);
    // No job yet: null, which a member may read. Resending is for admins only.
    expect((await M('GET', `/api/webhooks/${w.id}/replay`)).body).toEqual({ data: null });
    expect((await M('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId } })).status).toBe(403);
    expect((await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId } })).status).toBe(202);
    await until('admin resend', async () => at('/resend-bad').length > n);
  });
});

describe('resend and the current subscription', () => {
  it('an event of a type the endpoint no longer takes is resent only with force: true, and the record says so', async () => {
    const path = '/resubscribed';
    const w = await create({ url: hookUrl(path), events: ['candidate.created'] });
    await createCandidate('Subscribed Once');
    const first = await until('delivered', async () => at(path)[0]);
    const eventId = String(first.headers['webhook-id']);
    expect((await A('PATCH', `/api/webhooks/${w.id}`, { body: { events: ['candidate.stage_changed'] } })).status).toBe(200);

    const refused = await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId } });
    expect([refused.status, refused.body]).toEqual([
      409,
      {
        error: 'the endpoint is no longer subscribed to candidate.created; send "force": true to resend the event anyway',
        code: 'event_not_subscribed',
        field: 'event_id',
      },
    ]);
    for (const force of [false, 'yes']) {
      const res = await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId, force } });
      expect(res.status, JSON.stringify(force)).toBe(force === false ? 409 : 400);
    }
    const forced = await A('POST', `/api/webhooks/${w.id}/resend`, { body: { event_id: eventId, force: true } });
    expect(forced.status, forced.text).toBe(202);
    const again = await until('forced resend', async () => at(path)[1]);
    expect([again.headers['webhook-id'], again.body]).toEqual([eventId, first.body]);
    expect(at(path)).toHaveLength(2);
    await settleAudit();
    const audit = (await A('GET', `/api/audit?action=webhook.resent&target=${w.id}`)).body.data;
    expect(audit.map((r: { changes: unknown }) => r.changes)).toEqual([
      [
        { field: 'event_id', after: eventId },
        { field: 'force', after: true },
      ],
    ]);
  });
});

describe('replay bounds', () => {
  it('a workspace runs at most 3 replay jobs at once; asking again for a running one answers it', async () => {
    const c = await stack.tenant();
    const C = as(await stack.login((await c.user('admin')).email, PASSWORD));
    const hooks = [];
    for (let i = 0; i < 4; i++) hooks.push(await create({ url: hookUrl(`/bound-${i}`) }, C));
    // Three jobs that stay running (no worker message): as if each had thousands of events to go.
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const jobs = [];
    for (const h of hooks.slice(0, 3)) jobs.push(await startReplayJob(c.id, h.id, since, 15 * 60_000));
    const fourth = await C('POST', `/api/webhooks/${hooks[3]!.id}/replay`, { body: { since } });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({ error: 'the workspace already runs 3 replay jobs; try again when one is done', code: 'conflict' });
    const again = await C('POST', `/api/webhooks/${hooks[0]!.id}/replay`, { body: { since } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: jobs[0]!.id, status: 'running' });
    // Another workspace is not held back by this one's jobs.
    const own = await create({ url: hookUrl('/bound-b') }, B);
    expect((await B('POST', `/api/webhooks/${own.id}/replay`, { body: { since } })).status).toBe(202);
  });
});

secretChecks({ minSecrets: 8 });
