/**
 * At-least-once when things break: a fan-out that fails part-way through a stream batch, a
 * delivery invocation that crashes, a record that fails inside a delivery batch, and an
 * endpoint that keeps failing long enough to be disabled. Handlers are called directly with
 * Lambda-shaped events, against DynamoDB Local, local SQS and a real HTTPS receiver.
 */
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lambdaContext } from '../../../dev/events';
import { candidateInsert, deliveryRecord, eventsFromRecord } from '../../helpers/lambda-records';
import { startStack, type Stack } from '../../helpers/stack';
import { tlsServers } from '../../helpers/tls-servers';
import { putEndpoint } from '../../../lib/domain/webhook-writes';
import { getEndpoint } from '../../../lib/store/webhook-endpoints';
import { generateSecret } from '../../../lib/webhooks/sign';
import { ddbClient } from '../../../lib/store/client';
import { handler as fanout } from '../../../functions/webhook-fanout';
import { sqs } from '../../../lib/webhooks/queue';
import { handler as deliver } from '../../../functions/webhook-delivery';
import { startQueuePoller, startQueues } from '../../../dev/queue';

let stack: Stack;
const servers = tlsServers(inject('tls'));
let url: string;
const hits: { id: string; path: string }[] = [];
let failing = new Set<string>();

beforeAll(async () => {
  const receiver = await servers.start((req, res) => {
    hits.push({ id: String(req.headers['webhook-id']), path: req.url! });
    res.writeHead(failing.has(req.url!) ? 503 : 204, { Connection: 'close' }).end();
  });
  url = receiver.url();
  // The pollers run too, but these tests drive the handlers themselves.
  stack = await startStack({ webhooks: { retrySchedule: '1,1,1,1,1,1', allowLoopback: true, timeoutMs: 1000, disableAfterMs: 1500 } });
});
afterAll(async () => {
  await stack.close();
  await servers.closeAll();
});

const until = async (check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function endpointFor(path: string) {
  const t = await stack.tenant();
  const e = await putEndpoint(t.id, { url: `${url}${path}`, secret: generateSecret(), events: ['candidate.created'], description: null });
  return { tenant: t, endpoint: e };
}

describe('fan-out fails part-way through a stream batch', () => {
  it('reports the first failed record, and the retry from there yields the same event ids', async () => {
    const { tenant } = await endpointFor('/fanout');
    const records = ['a', 'b', 'c'].map((id, i) => candidateInsert(tenant.id, `${tenant.id}-${id}`, 100 + i));
    // SQS refuses the second record's send once.
    let sends = 0;
    const name = `fail-second-send-${Math.random()}`;
    sqs().middlewareStack.add(
      (next, ctx) => async (args) => {
        if (ctx.commandName === 'SendMessageBatchCommand' && ++sends === 2) throw new Error('SQS unavailable');
        return next(args);
      },
      { step: 'initialize', name },
    );
    let first: Awaited<ReturnType<typeof fanout>>;
    try {
      first = await fanout({ Records: records } as DynamoDBStreamEvent, lambdaContext('webhook-fanout'));
    } finally {
      sqs().middlewareStack.remove(name);
    }
    expect(first.batchItemFailures.map((f) => f.itemIdentifier)).toContain('101');
    expect(first.batchItemFailures.map((f) => f.itemIdentifier)).not.toContain('100');
    // Lambda retries from the first failure; the events keep their ids.
    const retry = await fanout({ Records: records.slice(1) } as DynamoDBStreamEvent, lambdaContext('webhook-fanout'));
    expect(retry.batchItemFailures).toEqual([]);
    const ids = records.map((r) => eventsFromRecord(r)[0]!.id);
    await until(() => ids.every((id) => hits.some((h) => h.id === id)));
    expect(
      hits
        .filter((h) => h.path === '/fanout')
        .map((h) => h.id)
        .sort(),
    ).toEqual(expect.arrayContaining(ids));
  });
});

describe('delivery fails inside a batch, or crashes', () => {
  async function message(tenantId: string, endpointId: string, eventId: string) {
    const body = JSON.stringify({
      event: 'candidate.created',
      data: { candidateId: eventId },
      timestamp: new Date().toISOString(),
      tenantSlug: 't',
    });
    return JSON.stringify({ v: 1, eventId, eventType: 'candidate.created', tenantId, endpointId, body });
  }

  it('a record whose bookkeeping fails is reported alone and delivered, with the same id, when it comes back', async () => {
    const { tenant, endpoint } = await endpointFor('/batch');
    const event: SQSEvent = {
      Records: await Promise.all(
        ['evt_batch_1', 'evt_batch_2', 'evt_batch_3'].map(async (id, i) => deliveryRecord(i, await message(tenant.id, endpoint.id, id))),
      ),
    };
    // Recording the second message's attempt fails: DynamoDB leaves it unprocessed on every try of
    // the batch's log write (successes' attempts are written together, BatchWriteItem), or fails
    // every transaction that holds it (the bodies the batch keeps copy a candidate's data, so the
    // log goes in transactions: lib/store/copies.ts), as if the function died before recording it.
    const name = `fail-one-put-${Math.random()}`;
    let failedOnce = false;
    type Put = { PutRequest: { Item: { event_id?: string | { S?: string }; type?: string | { S?: string } } } };
    // Marshalled or not, depending on where the document client's own middleware stands.
    const str = (v?: string | { S?: string }) => (typeof v === 'string' ? v : v?.S);
    ddbClient.middlewareStack.add(
      (next, ctx) => async (args) => {
        // The attempt record, not the kept event body written beside it.
        const isIt = (p: Put) => str(p.PutRequest.Item.type) === 'webhook_attempt' && str(p.PutRequest.Item.event_id) === 'evt_batch_2';
        if (ctx.commandName === 'TransactWriteItemsCommand') {
          const { TransactItems } = (args as { input: { TransactItems: { Put?: Put['PutRequest'] }[] } }).input;
          if (!TransactItems.some((a) => a.Put && isIt({ PutRequest: a.Put }))) return next(args);
          failedOnce = true;
          throw Object.assign(new Error('refused by the test'), { name: 'InternalServerError' });
        }
        if (ctx.commandName !== 'BatchWriteItemCommand') return next(args);
        const input = (args as { input: { RequestItems: Record<string, Put[]> } }).input;
        const [table, puts] = Object.entries(input.RequestItems)[0]!;
        const held = puts.filter(isIt);
        if (!held.length) return next(args);
        failedOnce = true;
        const rest = puts.filter((p) => !isIt(p));
        const out = (
          rest.length ? await next({ ...args, input: { ...input, RequestItems: { [table]: rest } } } as typeof args) : { output: {} }
        ) as { output: { UnprocessedItems?: Record<string, Put[]> } };
        out.output.UnprocessedItems = { [table]: [...(out.output.UnprocessedItems?.[table] ?? []), ...held] };
        return out as never;
      },
      { step: 'initialize', name },
    );
    let res: Awaited<ReturnType<typeof deliver>>;
    try {
      res = await deliver(event, lambdaContext('webhook-delivery'));
    } finally {
      ddbClient.middlewareStack.remove(name);
    }
    expect(failedOnce).toBe(true);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }]);
    // SQS hands the unreported message back; this time it goes through, under the same id.
    const again = await deliver(
      { Records: [{ ...event.Records[1]!, attributes: { ...event.Records[1]!.attributes, ApproximateReceiveCount: '2' } }] },
      lambdaContext('webhook-delivery'),
    );
    expect(again.batchItemFailures).toEqual([]);
    const ids = hits.filter((h) => h.path === '/batch').map((h) => h.id);
    expect(ids.filter((id) => id === 'evt_batch_2')).toHaveLength(2); // at least once: sent, then sent again
    expect(ids).toEqual(expect.arrayContaining(['evt_batch_1', 'evt_batch_3']));
  });

  it('a crashed invocation deletes nothing: the queue hands the messages back and they are delivered', async () => {
    const { tenant, endpoint } = await endpointFor('/crash');
    // A queue of its own with a 1 s visibility timeout, so the redelivery comes quickly.
    const queues = await startQueues({ maxReceiveCount: 10, visibilityTimeoutS: 1 });
    try {
      for (const id of ['evt_crash_1', 'evt_crash_2']) {
        await queues.client.send(
          new SendMessageCommand({ QueueUrl: queues.queueUrl, MessageBody: await message(tenant.id, endpoint.id, id) }),
        );
      }
      let crashes = 0;
      const poller = startQueuePoller(
        queues,
        async (e, ctx) => {
          if (crashes++ === 0) throw new Error('out of memory');
          return deliver(e, ctx);
        },
        { concurrency: 1 },
      );
      try {
        await until(() => ['evt_crash_1', 'evt_crash_2'].every((id) => hits.some((h) => h.id === id && h.path === '/crash')));
      } finally {
        await poller.stop();
      }
      expect(crashes).toBeGreaterThan(1);
      const left = await queues.client.send(new ReceiveMessageCommand({ QueueUrl: queues.queueUrl, WaitTimeSeconds: 0 }));
      expect(left.Messages ?? []).toEqual([]);
    } finally {
      await queues.stop();
    }
  });
});

describe('an endpoint that keeps failing', () => {
  it('is disabled once it has failed continuously for WEBHOOK_DISABLE_AFTER_MS, and says since when', async () => {
    const { tenant, endpoint } = await endpointFor('/always-down');
    failing = new Set(['/always-down']);
    const token = await tenant.token(['candidates:write']);
    for (let i = 0; i < 2; i++) {
      expect((await stack.call('POST', '/api/v1/candidates', { token, body: { name: `Down ${i}` } })).status).toBe(201);
    }
    await until(async () => (await getEndpoint(tenant.id, endpoint.id))?.active === false);
    const disabled = await getEndpoint(tenant.id, endpoint.id);
    expect(disabled!.disabled_reason).toMatch(/^failing continuously since \d{4}-/);
    expect(disabled!.failure_count).toBeGreaterThanOrEqual(2);
    // Nothing more is attempted once it is disabled. An attempt that read the endpoint just
    // before the disable may still land (seen: a sixth hit on a loaded machine), so first wait
    // until the receiver has been quiet for 1.5 s: longer than the 1 s retry slot and the 1 s
    // send timeout, so retries that went on would never let it be quiet.
    const count = () => hits.filter((h) => h.path === '/always-down').length;
    let last = count();
    let quietSince = Date.now();
    await until(() => {
      if (count() !== last) [last, quietSince] = [count(), Date.now()];
      return Date.now() - quietSince >= 1_500;
    });
    const seen = count();
    await new Promise((r) => setTimeout(r, 2_500));
    expect(count()).toBe(seen);
  });
});
