/**
 * Kept event bodies (resend and replay read them): the fan-out writes each event's body once,
 * before it queues the event's messages, and marks them `kept`; a delivery then writes only its
 * attempt. Handlers are called directly with Lambda-shaped events, against DynamoDB Local, local
 * SQS and a real HTTPS receiver.
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lambdaContext } from '../../../dev/events';
import { captureOutput } from '../../helpers/capture';
import { candidateInsert, deliveryRecord } from '../../helpers/lambda-records';
import { startStack, type Stack } from '../../helpers/stack';
import { tlsServers } from '../../helpers/tls-servers';

// The in-process tiers run without metrics (vitest.config.ts); this file checks the batch's EMF line
// (its instance reads the switch as the invocation starts, lib/metrics.ts; table-env.ts resets it).
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

let stack: Stack;
const servers = tlsServers(inject('tls'));
let url: string;
const hits: string[] = [];

beforeAll(async () => {
  const receiver = await servers.start((req, res) => {
    hits.push(String(req.headers['webhook-id']));
    res.writeHead(204).end();
  });
  url = receiver.url();
  stack = await startStack({ webhooks: { allowLoopback: true, timeoutMs: 2000 } });
});
afterAll(async () => {
  await stack.close();
  await servers.closeAll();
});

async function workspaceWith(paths: string[]) {
  const tenant = await stack.tenant();
  const { putEndpoint } = await import('../../../lib/domain/webhook-writes');
  const { generateSecret } = await import('../../../lib/webhooks/sign');
  const endpoints = [];
  for (const p of paths) {
    endpoints.push(
      await putEndpoint(tenant.id, { url: `${url}${p}`, secret: generateSecret(), events: ['candidate.created'], description: null }),
    );
  }
  return { tenant, endpoints };
}

let seq = 1000;

type Put = { PutRequest: { Item: Record<string, unknown> } };
/** Plain or marshalled, depending on where the document client's middleware stands. */
const plain = (v: unknown) => (typeof v === 'object' && v !== null && 'S' in v ? (v as { S: string }).S : v);

/**
 * Record, in one sequence, every item put by BatchWriteItem or TransactWriteItems (kept bodies
 * that copy a candidate's data go in transactions: lib/store/copies.ts) and every SQS message the
 * handlers send while `run` runs. `unprocessed` picks items DynamoDB then fails to write, every
 * time: left unprocessed by a batch, or failing the transaction that holds them.
 */
async function watch<T>(run: () => Promise<T>, unprocessed: (item: Put['PutRequest']['Item']) => boolean = () => false) {
  const { ddbClient } = await import('../../../lib/store/client');
  const { sqs } = await import('../../../lib/webhooks/queue');
  const log: ({ kind: 'put'; type: unknown; eventId: unknown } | { kind: 'message'; body: Record<string, unknown> })[] = [];
  const name = `watch-${Math.random()}`;
  ddbClient.middlewareStack.add(
    (next, ctx) => async (args) => {
      if (ctx.commandName === 'TransactWriteItemsCommand') {
        const { TransactItems } = (args as { input: { TransactItems: { Put?: Put['PutRequest'] }[] } }).input;
        const puts = TransactItems.flatMap((a) => (a.Put ? [a.Put.Item] : []));
        if (puts.some(unprocessed)) throw Object.assign(new Error('refused by the test'), { name: 'InternalServerError' });
        for (const p of puts) log.push({ kind: 'put', type: plain(p.type), eventId: plain(p.event_id) });
        return next(args);
      }
      if (ctx.commandName !== 'BatchWriteItemCommand') return next(args);
      const input = (args as { input: { RequestItems: Record<string, Put[]> } }).input;
      const [table, puts] = Object.entries(input.RequestItems)[0]!;
      for (const p of puts) log.push({ kind: 'put', type: plain(p.PutRequest.Item.type), eventId: plain(p.PutRequest.Item.event_id) });
      const held = puts.filter((p) => unprocessed(p.PutRequest.Item));
      if (!held.length) return next(args);
      const rest = puts.filter((p) => !held.includes(p));
      const out = (
        rest.length ? await next({ ...args, input: { ...input, RequestItems: { [table]: rest } } } as typeof args) : { output: {} }
      ) as {
        output: { UnprocessedItems?: Record<string, Put[]> };
      };
      out.output.UnprocessedItems = { [table]: [...(out.output.UnprocessedItems?.[table] ?? []), ...held] };
      return out as never;
    },
    { step: 'initialize', name },
  );
  sqs().middlewareStack.add(
    (next, ctx) => async (args) => {
      if (ctx.commandName === 'SendMessageBatchCommand') {
        const { Entries } = (args as { input: { Entries: { MessageBody: string }[] } }).input;
        for (const e of Entries) log.push({ kind: 'message', body: JSON.parse(e.MessageBody) as Record<string, unknown> });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await run(), log };
  } finally {
    ddbClient.middlewareStack.remove(name);
    sqs().middlewareStack.remove(name);
  }
}

describe('the fan-out keeps event bodies', () => {
  it('once per event however many endpoints it goes to, before any of its messages, and marks the messages kept', async () => {
    const { tenant, endpoints } = await workspaceWith(['/a', '/b', '/c']);
    const { handler } = await import('../../../functions/webhook-fanout');
    const { getEvent } = await import('../../../lib/store/webhook-events');
    const { eventsFromRecord } = await import('../../helpers/lambda-records');
    const records = ['k1', 'k2'].map((id) => candidateInsert(tenant.id, `${tenant.id}-${id}`, seq++));
    const ids = records.map((r) => eventsFromRecord(r)[0]!.id);

    const { result, log } = await watch(() => handler({ Records: records } as DynamoDBStreamEvent, lambdaContext('webhook-fanout')));
    expect(result.batchItemFailures).toEqual([]);

    const mine = log.filter((l) => ids.includes(String(l.kind === 'put' ? l.eventId : l.body.eventId)));
    const puts = mine.filter((l) => l.kind === 'put');
    const messages = mine.flatMap((l) => (l.kind === 'message' ? [l.body] : []));
    // One body per event, not one per (event, endpoint).
    expect(puts.map((p) => [p.type, p.eventId]).sort()).toEqual(ids.map((id) => ['webhook_event', id]).sort());
    // Every message of the batch went out after the bodies were written.
    expect(mine.findIndex((l) => l.kind === 'message')).toBeGreaterThan(mine.findLastIndex((l) => l.kind === 'put'));
    expect(messages).toHaveLength(ids.length * endpoints.length);
    for (const m of messages) expect(m.kept).toBe(true);
    for (const id of ids) {
      const kept = await getEvent(tenant.id, id);
      expect(kept?.event_type).toBe('candidate.created');
      // Exactly the bytes each delivery signs and sends.
      for (const m of messages.filter((x) => x.eventId === id)) expect(m.body).toBe(kept?.body);
    }
    await expect.poll(() => ids.every((id) => hits.filter((h) => h === id).length === endpoints.length), { timeout: 15_000 }).toBe(true);
  });

  it('a record whose bodies cannot be written queues nothing and fails alone; the others go out', async () => {
    const { tenant } = await workspaceWith(['/d']);
    const { handler } = await import('../../../functions/webhook-fanout');
    const { getEvent } = await import('../../../lib/store/webhook-events');
    const { eventsFromRecord } = await import('../../helpers/lambda-records');
    const records = ['f1', 'f2', 'f3'].map((id) => candidateInsert(tenant.id, `${tenant.id}-${id}`, seq++));
    const ids = records.map((r) => eventsFromRecord(r)[0]!.id);

    const { result, log } = await watch(
      () => handler({ Records: records } as DynamoDBStreamEvent, lambdaContext('webhook-fanout')),
      (item) => plain(item.event_id) === ids[1],
    );
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: records[1]!.dynamodb!.SequenceNumber }]);
    const sent = log.flatMap((l) => (l.kind === 'message' ? [l.body.eventId] : []));
    expect(sent).toContain(ids[0]);
    expect(sent).toContain(ids[2]);
    expect(sent).not.toContain(ids[1]);
    expect(await getEvent(tenant.id, ids[1]!)).toBeUndefined();

    // Lambda retries from the failed record; now its body is kept and its message goes out.
    const retry = await watch(() => handler({ Records: records.slice(1) } as DynamoDBStreamEvent, lambdaContext('webhook-fanout')));
    expect(retry.result.batchItemFailures).toEqual([]);
    expect((await getEvent(tenant.id, ids[1]!))?.event_type).toBe('candidate.created');
    await expect.poll(() => hits.includes(ids[1]!), { timeout: 15_000 }).toBe(true);
  });
});

describe('the delivery', () => {
  it('writes only the attempt of a kept message, and keeps the body of a message queued without `kept` (an older version)', async () => {
    const { tenant, endpoints } = await workspaceWith(['/e']);
    const { handler } = await import('../../../functions/webhook-delivery');
    const { getEvent } = await import('../../../lib/store/webhook-events');
    const message = (eventId: string, extra: Record<string, unknown>) => ({
      v: 1,
      eventId,
      eventType: 'candidate.created',
      tenantId: tenant.id,
      endpointId: endpoints[0]!.id,
      body: JSON.stringify({
        event: 'candidate.created',
        data: { candidateId: eventId },
        timestamp: new Date().toISOString(),
        tenantSlug: 't',
      }),
      ...extra,
    });
    const { chunks: out, restore } = captureOutput({ echo: true, stderr: false });
    const { result, log } = await watch(() =>
      handler(
        {
          Records: [
            deliveryRecord(0, JSON.stringify(message('evt_kept_by_fanout', { kept: true }))),
            deliveryRecord(1, JSON.stringify(message('evt_queued_before', {}))),
          ],
        },
        lambdaContext('webhook-delivery'),
      ),
    ).finally(restore);
    expect(result.batchItemFailures).toEqual([]);
    // Only this test's events: the background delivery of the previous test's retry writes its
    // attempt after its receiver has answered, so it can land inside this watch.
    const ids = ['evt_kept_by_fanout', 'evt_queued_before'];
    const puts = log.flatMap((l) => (l.kind === 'put' && ids.includes(String(l.eventId)) ? [[l.type, l.eventId]] : []));
    expect(puts).toEqual(
      expect.arrayContaining([
        ['webhook_attempt', 'evt_kept_by_fanout'],
        ['webhook_attempt', 'evt_queued_before'],
        ['webhook_event', 'evt_queued_before'],
      ]),
    );
    expect(puts).not.toContainEqual(['webhook_event', 'evt_kept_by_fanout']);
    expect(puts).toHaveLength(3);
    expect((await getEvent(tenant.id, 'evt_queued_before'))?.event_type).toBe('candidate.created');
    expect(hits).toEqual(expect.arrayContaining(['evt_kept_by_fanout', 'evt_queued_before']));
    // The batch's delivery metrics are one EMF line, each name with one value per delivery.
    const emf = out
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.includes('"DeliveriesSucceeded"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = emf.find((l) => Array.isArray(l.DeliveriesSucceeded) && l.DeliveriesSucceeded.length === 2);
    expect(line, 'one EMF line for the batch').toBeDefined();
    expect(line).toMatchObject({ DeliveriesSucceeded: [1, 1], DeliveryAttempt: [1, 1] });
    expect(line!.DeliveryLatency).toHaveLength(2);
  });
});
