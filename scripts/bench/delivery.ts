/**
 * Delivery throughput of ONE delivery worker, measured alone: the delivery queue is filled first
 * (the messages the fan-out would have made, for events that already exist), then one local queue
 * poller (the stand-in for one Lambda event source, with the stack's batch size and concurrency)
 * runs the real delivery handler against a local HTTPS receiver. deliveries/s = messages
 * delivered / wall time of the worker, from its start until the queue is empty.
 *
 * Run in a child process by `npm run bench` (NODE_EXTRA_CA_CERTS must be set at process start),
 * or alone: `BENCH_CERT=… BENCH_KEY=… NODE_EXTRA_CA_CERTS=… tsx scripts/bench/delivery.ts [n]`.
 * With BENCH_PROFILE=1 it also prints where the time went: DynamoDB and SQS calls by command
 * (count, mean, total busy time), and the HTTPS attempts, measured around each call.
 */
import '../../dev/quiet-sdk';
// The X-Ray SDK in manual mode, as `npm start` runs the functions: the CPU figures are its own.
import '../../dev/untraced';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { jitFromEnv, startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { cpuMsOf, ownCpuMs } from './cpu';

const total = Number(process.argv[2] ?? 3000);
// The receiver runs in its own process: its TLS and HTTP work is not the worker's.
const receiver = fork(join(import.meta.dirname, 'receiver.ts'), [], {
  execArgv: ['--import', 'tsx'],
  env: process.env,
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const ask = (cmd: string) =>
  new Promise<{ distinct: number; requests: number; connections: number; cpuMs: number }>((resolve) => {
    receiver.once('message', (m) => resolve(m as never));
    receiver.send({ cmd });
  });
const port = await new Promise<number>((resolve) => receiver.once('message', (m: { port: number }) => resolve(m.port)));

const busy = new Map<string, { count: number; ms: number }>();
const time = (name: string, ms: number) => {
  const b = busy.get(name) ?? { count: 0, ms: 0 };
  b.count++;
  b.ms += ms;
  busy.set(name, b);
};
const timing = (prefix: string) => (next: (a: unknown) => Promise<unknown>, ctx: { commandName?: string }) => async (args: unknown) => {
  const t = performance.now();
  try {
    return await next(args);
  } finally {
    time(`${prefix} ${String(ctx.commandName).replace('Command', '')}`, performance.now() - t);
  }
};

// The JIT npm start gives DynamoDB Local: the CPU figures are npm start's.
const ddbLocal = await startDynamoDbLocal({ jit: jitFromEnv('full') });
try {
  await ensureTable(localClient(ddbLocal.endpoint), 'bench');
  Object.assign(process.env, {
    TABLE_NAME: 'bench',
    DYNAMODB_ENDPOINT: ddbLocal.endpoint,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const { maxAttempts, DELIVERY_BATCH_SIZE, DELIVERY_MAX_CONCURRENCY } = await import('../../lib/webhooks/config');
  const { startQueues, startQueuePoller } = await import('../../dev/queue');
  const queues = await startQueues({ maxReceiveCount: maxAttempts() + 2, visibilityTimeoutS: 180 });
  Object.assign(process.env, { WEBHOOK_QUEUE_URL: queues.queueUrl, WEBHOOK_DLQ_URL: queues.dlqUrl, SQS_ENDPOINT: queues.endpoint });
  const { ddbClient, ddb, tableName: tableNameNow } = await import('../../lib/store/client');
  const tableName = tableNameNow();
  const { sqs } = await import('../../lib/webhooks/queue');
  const { createTenant } = await import('../../lib/store/tenants');
  const { getEndpoint } = await import('../../lib/store/webhook-endpoints');
  const { putEndpoint } = await import('../../lib/domain/webhook-writes');
  const { eventItem, writeLogItems } = await import('../../lib/store/webhook-events');
  const { generateSecret } = await import('../../lib/webhooks/sign');
  const { keys } = await import('../../lib/store/table');
  const { SendMessageBatchCommand, GetQueueAttributesCommand } = await import('@aws-sdk/client-sqs');
  const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const tenant = await createTenant('bench', 'Bench');
  const { handler } = await import('../../functions/webhook-delivery');
  const profile = process.env.BENCH_PROFILE === '1';

  /** One round on a fresh endpoint: fill the queue with n messages, then run one worker until it is empty. */
  async function round(
    n: number,
    report: boolean,
    label = '',
  ): Promise<{ rate: number; ok: boolean; cpuMs: number | undefined; dbMs: number | undefined } | undefined> {
    await ask('reset');
    const endpoint = await putEndpoint(tenant.id, {
      url: `https://127.0.0.1:${port}/hook`,
      secret: generateSecret(),
      events: ['candidate.created'],
      description: null,
    });

    // The queue, filled before the worker starts: N candidate.created events, as the fan-out sends them.
    const messages = Array.from({ length: n }, (_, i) => {
      const eventId = `evt_${i.toString(16).padStart(32, '0')}`;
      const body = JSON.stringify({
        event: 'candidate.created',
        data: {
          candidateId: `c${i}`,
          name: 'Delivery Bench',
          email: 'delivery.bench@example.com',
          stage: 'applied',
          reqId: null,
          createdAt: new Date().toISOString(),
        },
        timestamp: new Date().toISOString(),
        tenantSlug: 'bench',
      });
      return { v: 1, eventId, eventType: 'candidate.created', tenantId: tenant.id, endpointId: endpoint.id, body, kept: true };
    });
    // The fan-out keeps each event's body before it queues the event's messages: so does the fill.
    const unkept = await writeLogItems(
      messages.map((m) => eventItem(tenant.id, { event_id: m.eventId, event_type: m.eventType, body: m.body })),
    );
    if (unkept.length) throw new Error(`${unkept.length} event bodies not written`);
    for (let i = 0; i < n; i += 100) {
      await Promise.all(
        Array.from({ length: 10 }, (_, k) => messages.slice(i + k * 10, i + k * 10 + 10))
          .filter((b) => b.length)
          .map((batch) =>
            queues.client.send(
              new SendMessageBatchCommand({
                QueueUrl: queues.queueUrl,
                Entries: batch.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })),
              }),
            ),
          ),
      );
    }

    // From here on, only the worker's calls are timed (not the fill's).
    busy.clear();
    let handled = 0;
    const cpuBefore = { worker: ownCpuMs(), table: cpuMsOf(ddbLocal.pid), receiver: (await ask('stats')).cpuMs };
    const started = performance.now();
    let handlerMs = 0;
    const poller = startQueuePoller(
      queues,
      async (event, context) => {
        const t = performance.now();
        const res = await handler(event, context);
        handlerMs += performance.now() - t;
        handled += event.Records.length - (res?.batchItemFailures?.length ?? 0);
        return res;
      },
      { concurrency: DELIVERY_MAX_CONCURRENCY },
    );
    const deadline = started + 300_000;
    for (;;) {
      // Check the queue only once the handler has reported every message done.
      while (handled < n && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      const { Attributes = {} } = await queues.client.send(
        new GetQueueAttributesCommand({
          QueueUrl: queues.queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      if (
        handled >= n &&
        Number(Attributes.ApproximateNumberOfMessages) === 0 &&
        Number(Attributes.ApproximateNumberOfMessagesNotVisible) === 0
      )
        break;
      if (performance.now() > deadline) throw new Error(`worker did not drain the queue in 300 s (${handled} of ${n} handled)`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const wall = (performance.now() - started) / 1000;
    const cpuAfter = { worker: ownCpuMs(), table: cpuMsOf(ddbLocal.pid), receiver: (await ask('stats')).cpuMs };
    await poller.stop();

    // Nothing lost: every event reached the receiver, every attempt is in the log, the endpoint is healthy.
    let attempts = 0;
    let sendMs = 0;
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await ddb.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
          ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenant.id), ':p': keys.attemptPrefix(endpoint.id) },
          ProjectionExpression: 'duration_ms',
          ExclusiveStartKey,
        }),
      );
      attempts += page.Count ?? 0;
      for (const a of page.Items ?? []) sendMs += Number(a.duration_ms);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    const after = await getEndpoint(tenant.id, endpoint.id);
    if (!report) return undefined;
    const { distinct, requests, connections } = await ask('stats');
    const ok = distinct === n && attempts === n && after?.failure_count === 0 && !!after.last_triggered_at;
    console.log(
      `  ${label}one delivery worker, pre-filled queue of ${n} (batch ${DELIVERY_BATCH_SIZE}, ${DELIVERY_MAX_CONCURRENCY} batches at once): ` +
        `${(n / wall).toFixed(0)} deliveries/s (${wall.toFixed(2)} s wall)` +
        `  [check: ${distinct} distinct events received (${requests} requests over ${connections} new TLS connections), ${attempts} attempts logged, failure_count ${after?.failure_count}: ${ok ? 'exact' : 'MISMATCH'}]`,
    );
    // CPU per delivery does not depend on what else the machine runs, as deliveries/s does: it is
    // the figure to compare two versions of the worker by on a busy machine.
    const perDeliveryOf = (k: keyof typeof cpuBefore) => {
      const [a, b] = [cpuBefore[k], cpuAfter[k]];
      return a === undefined || b === undefined ? undefined : (b - a) / n;
    };
    const perDelivery = (k: keyof typeof cpuBefore) => {
      const ms = perDeliveryOf(k);
      return ms === undefined ? 'not measured (no /proc)' : `${ms.toFixed(3)} ms`;
    };
    console.log(
      `  CPU per delivery: worker and local SQS ${perDelivery('worker')}, DynamoDB Local ${perDelivery('table')}, receiver ${perDelivery('receiver')}`,
    );
    if (profile) {
      console.log(
        `  where the time went (busy time summed over concurrent calls; wall ${(wall * 1000).toFixed(0)} ms, handler busy ${handlerMs.toFixed(0)} ms):`,
      );
      time('HTTPS attempt (duration_ms in the log)', 0);
      busy.set('HTTPS attempt (duration_ms in the log)', { count: attempts, ms: sendMs });
      for (const [name, b] of [...busy].sort((a, b) => b[1].ms - a[1].ms)) {
        console.log(
          `    ${name.padEnd(36)} ${String(b.count).padStart(6)} calls  mean ${(b.ms / b.count).toFixed(2).padStart(7)} ms  total ${b.ms.toFixed(0).padStart(7)} ms`,
        );
      }
    }
    return { rate: n / wall, ok, cpuMs: perDeliveryOf('worker'), dbMs: perDeliveryOf('table') };
  }

  if (profile) {
    ddbClient.middlewareStack.add(timing('DynamoDB') as never, { step: 'initialize', name: 'benchTiming' });
    sqs().middlewareStack.add(timing('SQS (handler)') as never, { step: 'initialize', name: 'benchTiming' });
    queues.client.middlewareStack.add(timing('SQS (poller)') as never, { step: 'initialize', name: 'benchTiming' });
  }
  // A first, unreported round warms DynamoDB Local's JVM (and the worker's code) up; the
  // reported round is then the worker's steady state, not the Java JIT's start.
  await round(Math.min(1000, total), false);
  // Then several reported rounds, and their median: one round on a shared two-core machine can
  // be off by a fifth either way.
  const rounds = Math.max(1, Number(process.env.BENCH_DELIVERY_ROUNDS ?? 3));
  const results = [];
  for (let i = 1; i <= rounds; i++) results.push((await round(total, true, rounds > 1 ? `round ${i} of ${rounds}: ` : ''))!);
  const rates = results.map((r) => r.rate).sort((a, b) => a - b);
  const median = rates[Math.floor(rates.length / 2)]!;
  if (rounds > 1)
    console.log(`  median of ${rounds} rounds: ${median.toFixed(0)} deliveries/s (${rates[0]!.toFixed(0)}-${rates.at(-1)!.toFixed(0)})`);
  const medianOf = (xs: (number | undefined)[]) =>
    xs.some((x) => x === undefined) ? 'none' : [...(xs as number[])].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(3);
  console.log(
    `RESULT delivery_per_s=${median.toFixed(1)} ok=${results.every((r) => r.ok)} cpu_ms=${medianOf(results.map((r) => r.cpuMs))} dbcpu_ms=${medianOf(results.map((r) => r.dbMs))}`,
  );
  await queues.stop();
} finally {
  receiver.disconnect();
  await ddbLocal.stop();
}
