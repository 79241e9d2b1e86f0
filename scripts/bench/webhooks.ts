/**
 * Webhook figures, run by `npm run bench` in a child process (NODE_EXTRA_CA_CERTS must be set
 * at process start to trust the local receiver): event-to-delivery latency through the local
 * pipeline (stream poller -> fan-out -> SQS -> delivery), the end-to-end rate of a burst of
 * creates (not the delivery worker's: delivery.ts measures that on a pre-filled queue), the replay rate (events queued and delivered per second by a replay job), and
 * the storage kept per event for resend and replay. Local numbers: they show the pipeline's own
 * overhead, not AWS's.
 */
import '../../dev/quiet-sdk';
// The X-Ray SDK in manual mode, as `npm start` runs the functions: the CPU figures are its own.
import '../../dev/untraced';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { jitFromEnv, startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { cpuMsOf, ownCpuMs } from './cpu';
import { pct } from './stats';

const arrivals = new Map<string, number>();
const receiver = createServer({ cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!) }, (req, res) => {
  let raw = '';
  req
    .on('data', (c) => (raw += c))
    .on('end', () => {
      arrivals.set(JSON.parse(raw).data.candidateId, performance.now());
      res.writeHead(204).end();
    });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as { port: number }).port;

// The JIT npm start gives DynamoDB Local: the CPU figures are npm start's.
const ddb = await startDynamoDbLocal({ jit: jitFromEnv('full') });
try {
  await ensureTable(localClient(ddb.endpoint), 'bench');
  Object.assign(process.env, {
    TABLE_NAME: 'bench',
    DYNAMODB_ENDPOINT: ddb.endpoint,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const { startWebhookPipeline } = await import('../../dev/webhooks');
  const pipeline = await startWebhookPipeline({});
  const { createTenant } = await import('../../lib/store/tenants');
  const { putEndpoint } = await import('../../lib/domain/webhook-writes');
  const { generateSecret } = await import('../../lib/webhooks/sign');
  const { createCandidate } = await import('../../lib/domain/candidates');
  const tenant = await createTenant('bench', 'Bench');
  const writer = { kind: 'token' as const, tenantId: tenant.id, tenantSlug: 'bench', tokenId: 'bench', scopes: [], role: 'admin' as const };
  await putEndpoint(tenant.id, {
    url: `https://127.0.0.1:${port}/hook`,
    secret: generateSecret(),
    events: ['candidate.created'],
    description: null,
  });
  const waitFor = async (ids: string[]) => {
    const deadline = Date.now() + 60_000;
    while (ids.some((id) => !arrivals.has(id))) {
      if (Date.now() > deadline) throw new Error('deliveries did not arrive within 60 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  const latencies: number[] = [];
  for (let i = 0; i < 60; i++) {
    const c = await createCandidate(writer, { name: `L${i}`, stage: 'applied' });
    const committed = performance.now();
    await waitFor([c.id]);
    if (i >= 10) latencies.push(arrivals.get(c.id)! - committed); // the first ten warm up
  }
  console.log(`  event -> delivery latency (50 events)   p50 ${pct(latencies, 50).toFixed(0)} ms  p99 ${pct(latencies, 99).toFixed(0)} ms`);

  const ids: string[] = [];
  const burst = 300;
  const started = performance.now();
  for (let i = 0; i < burst; i += 25) {
    const batch = await Promise.all(Array.from({ length: 25 }, (_, j) => createCandidate(writer, { name: `B${i + j}`, stage: 'applied' })));
    ids.push(...batch.map((c) => c.id));
  }
  await waitFor(ids);
  const first = Math.min(...ids.map((id) => arrivals.get(id)!));
  const last = Math.max(...ids.map((id) => arrivals.get(id)!));
  console.log(`  burst of ${burst} events: all delivered ${((last - started) / 1000).toFixed(1)} s after the first write`);
  // End to end: this includes creating the candidates (DynamoDB Local's write rate), the stream and
  // the fan-out. The delivery worker alone is measured on a pre-filled queue (delivery.ts).
  console.log(
    `  end to end (creates, stream, fan-out and delivery together): first->last arrival ${(burst / ((last - first) / 1000)).toFixed(0)} events/s`,
  );

  await throughTheApi(tenant, ddb.pid);

  // Replay: N events whose attempts were dead-lettered, on an endpoint of their own, then one job.
  const { putAttempt } = await import('../../lib/store/webhook-attempts');
  const { putEvent } = await import('../../lib/store/webhook-events');
  const { getReplayJob } = await import('../../lib/store/replay-jobs');
  const { replayWebhook } = await import('../../lib/domain/webhook-queueing');
  const { ddb: doc, tableName: tableNameNow } = await import('../../lib/store/client');
  const tableName = tableNameNow();
  const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { keys } = await import('../../lib/store/table');
  const replayEndpoint = await putEndpoint(tenant.id, {
    url: `https://127.0.0.1:${port}/replay`,
    secret: generateSecret(),
    events: ['candidate.created'],
    description: null,
  });
  const n = 1_000;
  const since = new Date(Date.now() - 60_000).toISOString();
  const replayIds: string[] = [];
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async (_, j) => {
        const candidateId = `R${i + j}`;
        const eventId = `evt_${(i + j).toString(16).padStart(32, '0')}`;
        replayIds.push(candidateId);
        const body = JSON.stringify({
          event: 'candidate.created',
          data: {
            candidateId,
            name: 'Replay Bench',
            email: 'replay.bench@example.com',
            stage: 'applied',
            reqId: null,
            createdAt: new Date().toISOString(),
          },
          timestamp: new Date().toISOString(),
          tenantSlug: 'bench',
        });
        await putEvent(tenant.id, { event_id: eventId, event_type: 'candidate.created', body });
        await putAttempt(tenant.id, replayEndpoint.id, {
          event_id: eventId,
          event_type: 'candidate.created',
          attempt: 8,
          response_status: 503,
          success: false,
          duration_ms: 12,
          created_at: new Date().toISOString(),
          error: null,
          response_body: 'down',
          next_attempt_at: null,
          dead_lettered: true,
          error_category: 'http_status',
        });
      }),
    );
  }
  const principal = {
    kind: 'session' as const,
    tenantId: tenant.id,
    tenantSlug: 'bench',
    userId: 'bench',
    email: 'bench@example.com',
    role: 'admin' as const,
  };
  const replayStarted = performance.now();
  const { job } = await replayWebhook(principal, replayEndpoint.id, { since });
  let queuedAt = 0;
  for (;;) {
    const j = (await getReplayJob(tenant.id, replayEndpoint.id))!;
    if (!queuedAt && j.scan_done) queuedAt = performance.now();
    if (j.status === 'done') break;
    if (performance.now() - replayStarted > 120_000) throw new Error(`replay did not finish: ${JSON.stringify(j)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const replayDone = performance.now();
  if (replayIds.some((id) => !arrivals.has(id))) throw new Error('a replayed event did not arrive');
  console.log(
    `  replay of ${n} missed events (job ${job.id.slice(0, 8)}…): queued ${(n / ((queuedAt - replayStarted) / 1000)).toFixed(0)} events/s, delivered ${(n / ((replayDone - replayStarted) / 1000)).toFixed(0)} events/s (one delivery worker)`,
  );

  // Storage per kept event: DynamoDB's item size (attribute names + values, UTF-8), for a
  // candidate.created event of the burst above, and for one attempt record beside it.
  const itemBytes = (item: Record<string, unknown>) =>
    Object.entries(item).reduce((sum, [k, v]) => {
      const name = Buffer.byteLength(k);
      if (typeof v === 'string') return sum + name + Buffer.byteLength(v);
      if (typeof v === 'number') return sum + name + Math.ceil(String(v).replace(/[-.]/g, '').length / 2) + 1;
      if (typeof v === 'boolean' || v === null) return sum + name + 1;
      return sum + name + Buffer.byteLength(JSON.stringify(v));
    }, 0);
  const { Items = [] } = await doc.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenant.id), ':p': 'EVT#evt_' },
      // Hash ids sort above the bench's evt_000… ones.
      ScanIndexForward: false,
      Limit: 300,
    }),
  );
  const realEvents = Items.filter((i) => !String(i.event_id).startsWith('evt_0000'));
  const sizes = realEvents.map(itemBytes);
  const attempt = (
    await doc.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
        ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenant.id), ':p': keys.attemptPrefix(replayEndpoint.id) },
        Limit: 1,
      }),
    )
  ).Items![0]!;
  console.log(
    `  kept event body (candidate.created, ${sizes.length} items): ${pct(sizes, 50)} bytes per event (p50), ${Math.max(...sizes)} max; kept 32 days (the 30 of its attempts plus the retry span), one per event and workspace`,
  );
  console.log(`  one attempt record beside it: ${itemBytes(attempt)} bytes`);
  await pipeline.stop();
} finally {
  receiver.close();
  await ddb.stop();
}

/** Waits until every id has arrived; false (not a throw) when they did not within `ms`. */
async function arrived(ids: string[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (ids.some((id) => !arrivals.has(id))) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

/**
 * The same path as a client sees it: POST /api/v1/candidates through the local gateway, then the
 * stream, the fan-out and the delivery. Latency of 50 events paced 100 ms apart (open loop: API
 * response -> receiver arrival), and a burst of 200 creates with 20 in flight. A figure whose
 * deliveries did not all arrive is printed as not measured.
 */
async function throughTheApi(tenant: { id: string; slug: string }, javaPid: number) {
  const { createToken } = await import('../../lib/store/tokens');
  const { createGateway } = await import('../../dev/gateway');
  const { token } = await createToken(tenant, 'bench-api', ['*']);
  const gateway = createGateway();
  const url = await gateway.listen(0);
  const create = async (name: string) => {
    const res = await fetch(`${url}/api/v1/candidates`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    const respondedAt = performance.now();
    if (res.status !== 201) throw new Error(`create candidate: ${res.status} ${await res.text()}`);
    return { id: ((await res.json()) as { data: { id: string } }).data.id, respondedAt };
  };
  try {
    const paced: { id: string; respondedAt: number }[] = [];
    for (let i = 0; i < 50; i++) {
      paced.push(await create(`Latency ${i}`));
      await new Promise((r) => setTimeout(r, 100));
    }
    if (
      await arrived(
        paced.map((c) => c.id),
        30_000,
      )
    ) {
      const latencies = paced.map((c) => arrivals.get(c.id)! - c.respondedAt).sort((a, b) => a - b);
      console.log(
        `  through the API, 50 events 100 ms apart (API response -> receiver): p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, ` +
          `min ${latencies[0]!.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
      );
    } else console.log('  through the API, 50 events 100 ms apart: latency not measured (not every delivery arrived within 30 s)');

    const started = performance.now();
    const cpu0 = { node: ownCpuMs(), db: cpuMsOf(javaPid) };
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < 200) {
          next++;
          ids.push((await create(`Burst ${next}`)).id);
        }
      }),
    );
    const createdAll = performance.now();
    if (await arrived(ids, 60_000)) {
      const cpu1 = { node: ownCpuMs(), db: cpuMsOf(javaPid) };
      const times = ids.map((id) => arrivals.get(id)!);
      const e2eS = (Math.max(...times) - started) / 1000;
      const rxS = (Math.max(...times) - Math.min(...times)) / 1000;
      const dbMs = cpu0.db === undefined || cpu1.db === undefined ? 'none' : ((cpu1.db - cpu0.db) / 200).toFixed(2);
      const nodeMs = ((cpu1.node - cpu0.node) / 200).toFixed(2);
      console.log(
        `  through the API, a burst of 200 (20 concurrent creates): creates took ${((createdAll - started) / 1000).toFixed(2)} s; ` +
          `${(200 / e2eS).toFixed(1)} creates/s through to a first delivery attempt, ${(199 / rxS).toFixed(1)} deliveries/s at the receiver (first -> last arrival); ` +
          `CPU per create: ${nodeMs} ms in this process (client, gateway, functions, stream reader, fan-out, delivery), ${dbMs === 'none' ? 'not measured (no /proc)' : `${dbMs} ms`} in DynamoDB Local`,
      );
      console.log(`RESULT first_attempts_per_s=${(200 / e2eS).toFixed(1)} cpu_ms=${nodeMs} dbcpu_ms=${dbMs}`);
    } else console.log('  through the API, a burst of 200: throughput not measured (not every delivery arrived within 60 s)');
  } finally {
    await gateway.close();
  }
}
