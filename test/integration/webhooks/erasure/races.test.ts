/**
 * Erasure against work in flight, each race made deterministic: a receiver that holds its answer
 * while the candidate is erased (the delivery batch writes its log after its slowest send), a
 * resend whose first attempt is in flight, a fan-out paused between its plan and its write, and
 * twelve erasures at once with every delivery of theirs in flight. After each, a full Scan of the
 * table finds none of the candidates' values.
 */
import { describe, expect, it } from 'vitest';
import { hitsOf, holders, pauseCall, person, startReceiver, until, workspace, useErasureFixture } from './fixture';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../../../lib/store/client';
import { keys } from '../../../../lib/store/table';

useErasureFixture();

/** The workspace's kept event bodies: one consistent Query of its webhook partition. */
async function keptBodies(tenantId: string): Promise<number> {
  const { Count } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :evt)',
      ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenantId), ':evt': 'EVT#' },
      ConsistentRead: true,
      Select: 'COUNT',
    }),
  );
  return Count ?? 0;
}

describe('erasure wins against work in flight', () => {
  it('a slow receiver answers after the erasure: its echo is not logged, for any endpoint of the batch', async () => {
    const ws = await workspace();
    const rx = await startReceiver();
    const slow = await ws.endpoint(rx.url('/slow'), ['candidate.created']);
    const fast = await ws.endpoint(rx.url('/fast'), ['candidate.created']);
    rx.hold('/slow');
    const p = person();
    const id = await ws.create(p);
    // The delivery is in flight: the slow receiver has the request and has not answered.
    await until('the slow receiver holds the delivery', () => hitsOf(rx, '/slow', id).length === 1 && hitsOf(rx, '/fast', id).length === 1);
    const erased = await ws.erase(id);
    expect(erased.status, erased.text).toBe(200);
    rx.release('/slow');
    const [logged] = await until('the slow attempt logged', async () => {
      const log = (await ws.attempts(slow)).filter((a) => a.event_type === 'candidate.created');
      return log.length ? log : undefined;
    });
    // The delivery happened and is logged as a success, without the receiver's answer.
    expect(logged).toMatchObject({ success: true, response_status: 200, response_body: null });
    expect((await ws.attempts(fast)).length).toBe(1);
    expect(await holders(p)).toEqual([]);
  });

  it('a resend in flight during the erasure does not keep the event body again', async () => {
    const ws = await workspace();
    const rx = await startReceiver();
    const endpoint = await ws.endpoint(rx.url('/r'), ['candidate.created']);
    const p = person();
    const id = await ws.create(p);
    await until('the first delivery logged', async () => (await ws.attempts(endpoint)).length === 1);
    const [first] = hitsOf(rx, '/r', id);
    rx.hold('/r');
    const resend = await ws.session('POST', `/api/webhooks/${endpoint}/resend`, { event_id: first!.webhookId });
    expect(resend.status, resend.text).toBeLessThan(300);
    await until('the resend in flight', () => hitsOf(rx, '/r', id).length === 2);
    const erased = await ws.erase(id);
    expect(erased.status, erased.text).toBe(200);
    rx.release('/r');
    await until('the resend logged', async () => (await ws.attempts(endpoint)).length === 2);
    expect(await holders(p)).toEqual([]);
    // And it is never sent again.
    const again = await ws.session('POST', `/api/webhooks/${endpoint}/resend`, { event_id: first!.webhookId });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('candidate_erased');
  });

  it('a fan-out paused before it keeps the bodies keeps nothing and queues nothing once the candidate is erased', async () => {
    const ws = await workspace();
    const rx = await startReceiver();
    const endpoint = await ws.endpoint(rx.url('/p'), ['candidate.created']);
    const p = person();
    // The fan-out's write of the candidate's kept body, whatever call makes it.
    const paused = await pauseCall(
      (command, input) =>
        ['BatchWriteItemCommand', 'TransactWriteItemsCommand'].includes(command) &&
        input.includes('webhook_event') &&
        input.includes(p.email),
    );
    try {
      const id = await ws.create(p);
      await paused.reached;
      const erased = await ws.erase(id);
      expect(erased.status, erased.text).toBe(200);
      paused.release();
      await paused.done;
      expect(await holders(p)).toEqual([]);
      // The record is done with: a later candidate's event reaches the endpoint, this one's never did.
      const later = await ws.create(person());
      await until('a later event delivered', () => hitsOf(rx, '/p', later).length === 1);
      expect(hitsOf(rx, '/p', id)).toEqual([]);
      expect((await ws.attempts(endpoint)).filter((a) => a.response_body?.includes(p.email))).toEqual([]);
    } finally {
      paused.release();
      paused.remove();
    }
  });

  it('twelve candidates erased at once, their deliveries in flight or queued: a full Scan finds none of them', async () => {
    const ws = await workspace();
    const rx = await startReceiver();
    const endpoints = [await ws.endpoint(rx.url('/h1'), ['candidate.created']), await ws.endpoint(rx.url('/h2'), ['candidate.created'])];
    rx.hold('/h1');
    rx.hold('/h2');
    const people = Array.from({ length: 12 }, person);
    const ids = await Promise.all(people.map((p) => ws.create(p)));
    // Every event kept (so every message is queued or on its way), and deliveries in flight on
    // both endpoints: as many as the delivery pollers hold at once, the rest wait in the queue.
    await until(
      '12 bodies kept, deliveries in flight',
      async () => (await keptBodies(ws.tenant.id)) === 12 && rx.at('/h1').length > 0 && rx.at('/h2').length > 0,
    );
    const receipts = await Promise.all(ids.map((id) => ws.erase(id)));
    for (const r of receipts) expect(r.status, r.text).toBe(200);
    rx.release('/h1');
    rx.release('/h2');
    // Each message ends logged: sent while it was in flight, or dropped as erased.
    for (const endpoint of endpoints) await until('12 attempts logged', async () => (await ws.attempts(endpoint)).length === 12);
    const logged = (await Promise.all(endpoints.map((e) => ws.attempts(e)))).flat();
    expect(logged.filter((a) => a.success).length).toBeGreaterThanOrEqual(2);
    expect(logged.every((a) => a.response_body === null && (a.success || a.error_category === 'erased'))).toBe(true);
    expect(await holders(...people)).toEqual([]);
  }, 60_000);
});
