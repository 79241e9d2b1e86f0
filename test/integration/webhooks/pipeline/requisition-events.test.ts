/**
 * Requisition events end to end (test/integration/webhooks-pipeline/fixture.ts): created,
 * updated (naming the changed fields) and status_changed (from, to, reason, actor), an automatic
 * filled by `system` among them, delivered signed to an endpoint subscribed to all and to one
 * subscribed to them, and to none that chose other events.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENT_DATA } from '../../../../lib/webhooks/payloads';
import { signatureChecks, stack, startReceiver, until, workspace, type Receiver, type Workspace, usePipelineFixture } from './fixture';

usePipelineFixture();

describe('requisition events', () => {
  let rx: Receiver;
  let main: Workspace;
  let reqId: string;

  beforeAll(async () => {
    rx = await startReceiver();
    main = await workspace();
    await main.endpoint(rx.url('/all'));
    await main.endpoint(rx.url('/reqs'), ['requisition.status_changed']);
    await main.endpoint(rx.url('/candidates'), ['candidate.created']);
    const call = (method: string, path: string, body: unknown) => stack.call(method, path, { token: main.token, body });
    const created = await call('POST', '/api/v1/requisitions', { title: 'Data Engineer', job_type: 'contract', headcount: 1 });
    expect(created.status).toBe(201);
    reqId = created.body.data.id;
    expect((await call('PATCH', `/api/v1/requisitions/${reqId}`, { title: 'Senior Data Engineer', location: 'Remote' })).status).toBe(200);
    expect((await call('POST', `/api/v1/requisitions/${reqId}/status`, { status: 'on_hold', reason: 'Budget review' })).status).toBe(200);
    // A no-op sends nothing.
    expect((await call('POST', `/api/v1/requisitions/${reqId}/status`, { status: 'on_hold', reason: 'Budget review' })).status).toBe(200);
    expect((await call('POST', `/api/v1/requisitions/${reqId}/status`, { status: 'open' })).status).toBe(200);
    const c = await main.candidate('Grace Hopper', { req_id: reqId, stage: 'onboarding' });
    await main.move(c.id, 'placed');
    await until('the requisition events at /all', () => rx.at('/all').filter((h) => h.env.event.startsWith('requisition.')).length >= 5);
    await until('the status changes at /reqs', () => rx.at('/reqs').length >= 3);
    await sleep(300); // let any stray extra delivery land before counting
  });

  it('delivers created, updated and each real status change, in their documented shapes', () => {
    const hits = rx.at('/all').filter((h) => h.env.event.startsWith('requisition.'));
    const byType = (t: string) => hits.filter((h) => h.env.event === t).map((h) => h.env.data);
    for (const h of hits) expect(EVENT_DATA[h.env.event as keyof typeof EVENT_DATA].safeParse(h.env.data).success, h.body).toBe(true);
    expect(byType('requisition.created')).toEqual([
      expect.objectContaining({
        reqId,
        title: 'Data Engineer',
        jobType: 'contract',
        headcount: 1,
        status: 'open',
        actor: expect.objectContaining({ type: 'token', name: 'test' }),
      }),
    ]);
    expect(byType('requisition.updated')).toEqual([
      expect.objectContaining({ reqId, title: 'Senior Data Engineer', location: 'Remote', changed: ['title', 'location'] }),
    ]);
    const changes = byType('requisition.status_changed').map((d) => [d.from, d.to, d.reason, d.actor.type]);
    expect(changes.sort()).toEqual(
      [
        ['open', 'on_hold', 'Budget review', 'token'],
        ['on_hold', 'open', null, 'token'],
        ['open', 'filled', null, 'system'],
      ].sort(),
    );
  });

  it('reaches an endpoint subscribed to status changes alone, and none that chose other events', () => {
    expect(rx.at('/reqs').map((h) => h.env.event)).toEqual(Array(3).fill('requisition.status_changed'));
    expect(rx.at('/candidates').map((h) => h.env.event)).toEqual(['candidate.created']);
  });
});

signatureChecks();
