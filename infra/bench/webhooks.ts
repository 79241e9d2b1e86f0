/**
 * Webhook figures, run by `npm run bench` in a child process (NODE_EXTRA_CA_CERTS must be set
 * at process start to trust the local receiver): event-to-delivery latency through the local
 * pipeline (stream poller -> fan-out -> SQS -> delivery), and deliveries per second of one
 * delivery worker. Local numbers: they show the pipeline's own overhead, not AWS's.
 */
import '../local/quiet-sdk';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { startDynamoDbLocal } from '../local/dynamodb';
import { ensureTable, localClient } from '../local/table';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

const arrivals = new Map<string, number>();
const receiver = createServer(
  { cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!) },
  (req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c)).on('end', () => {
      arrivals.set(JSON.parse(raw).data.candidateId, performance.now());
      res.writeHead(204).end();
    });
  },
);
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const port = (receiver.address() as { port: number }).port;

const ddb = await startDynamoDbLocal();
try {
  await ensureTable(localClient(ddb.endpoint), 'bench');
  Object.assign(process.env, {
    TABLE_NAME: 'bench',
    DYNAMODB_ENDPOINT: ddb.endpoint,
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    POWERTOOLS_LOG_LEVEL: 'ERROR',
  });
  const { startWebhookPipeline } = await import('../local/webhooks');
  const pipeline = await startWebhookPipeline({ concurrency: 1 });
  const { createTenant } = await import('../../lib/store/tenants');
  const { putEndpoint } = await import('../../lib/store/webhooks');
  const { generateSecret } = await import('../../lib/webhooks/sign');
  const { createCandidate } = await import('../../lib/domain/candidates');
  const tenant = await createTenant('bench', 'Bench');
  await putEndpoint(tenant.id, { url: `https://127.0.0.1:${port}/hook`, secret: generateSecret(), events: ['candidate.created'], description: null });
  const waitFor = async (ids: string[]) => {
    const deadline = Date.now() + 60_000;
    while (ids.some((id) => !arrivals.has(id))) {
      if (Date.now() > deadline) throw new Error('deliveries did not arrive within 60 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  const latencies: number[] = [];
  for (let i = 0; i < 60; i++) {
    const c = await createCandidate(tenant.id, { name: `L${i}`, stage: 'applied' });
    const committed = performance.now();
    await waitFor([c.id]);
    if (i >= 10) latencies.push(arrivals.get(c.id)! - committed); // the first ten warm up
  }
  console.log(`  event -> delivery latency (50 events)   p50 ${pct(latencies, 50).toFixed(0)} ms  p99 ${pct(latencies, 99).toFixed(0)} ms`);

  const ids: string[] = [];
  const burst = 300;
  const started = performance.now();
  for (let i = 0; i < burst; i += 25) {
    const batch = await Promise.all(Array.from({ length: 25 }, (_, j) => createCandidate(tenant.id, { name: `B${i + j}`, stage: 'applied' })));
    ids.push(...batch.map((c) => c.id));
  }
  await waitFor(ids);
  const first = Math.min(...ids.map((id) => arrivals.get(id)!));
  const last = Math.max(...ids.map((id) => arrivals.get(id)!));
  console.log(`  burst of ${burst} events: all delivered ${((last - started) / 1000).toFixed(1)} s after the first write`);
  console.log(`  one delivery worker (batches of 10 in parallel): ${(burst / ((last - first) / 1000)).toFixed(0)} deliveries/s`);
  await pipeline.stop();
} finally {
  receiver.close();
  await ddb.stop();
}
