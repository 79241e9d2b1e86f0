/**
 * Placement list figures, run by `npm run bench` (section 15) in a child process with its own
 * DynamoDB Local: a workspace of BENCH_PLACEMENTS placements (10,000 by default) is bulk-loaded
 * through the store's own item builder (placementItem, BatchWriteItem: the stored shape, with its
 * change-index keys), then GET /api/v1/placements is paged through the real handler behind the
 * local gateway with a token, every page timed with its DynamoDB calls: the whole list, and the
 * first page under each filter. The last line is the figure for the goals table:
 * `RESULT size=… max_calls=… pages=… p50=…`.
 */
import '../../dev/quiet-sdk';
import { startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { pct, summarize } from './stats';

const TARGET = Number(process.env.BENCH_PLACEMENTS ?? 10_000);
const PAGE = 200;

const ddbLocal = await startDynamoDbLocal({ jit: 'full' });
try {
  await ensureTable(localClient(ddbLocal.endpoint), 'bench');
  Object.assign(process.env, { TABLE_NAME: 'bench', DYNAMODB_ENDPOINT: ddbLocal.endpoint, POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { ddbClient } = await import('../../lib/store/client');
  const { batchPut } = await import('../../lib/store/batch');
  const { placementItem } = await import('../../lib/store/candidates');
  const { newId } = await import('../../lib/ids');
  const { createTenant } = await import('../../lib/store/tenants');
  const { createToken } = await import('../../lib/store/tokens');
  const { createGateway } = await import('../../dev/gateway');

  const sent: string[] = [];
  ddbClient.middlewareStack.add(
    (next, ctx) => (args) => {
      sent.push(String(ctx.commandName));
      return next(args);
    },
    { step: 'initialize' },
  );

  const tenant = await createTenant('bench-placements', 'Bench placements');
  const { token } = await createToken(tenant, 'bench', ['*']);
  const reqs = Array.from({ length: 50 }, () => newId());
  const start = Date.now() - 400 * 86_400_000;
  const started = performance.now();
  const CHUNK = 1_000;
  for (let seeded = 0; seeded < TARGET; seeded += CHUNK) {
    const items = Array.from({ length: Math.min(CHUNK, TARGET - seeded) }, (_, j) => {
      const i = seeded + j;
      // Spread over 400 days, oldest first; 50 requisitions; one in ten cancelled.
      const at = new Date(start + i * 60_000).toISOString();
      const item = placementItem(
        tenant.id,
        { id: newId(), name: `Bench Hire ${i}`, req_id: reqs[i % reqs.length], req_title: 'Bench role' },
        at,
        { start_date: '2027-01-04', amount: 60_000 + i, currency: 'EUR', period: 'year', employment_type: 'direct_hire' },
      );
      return i % 10 === 3 ? { ...item, status: 'cancelled' } : item;
    });
    const unwritten = await batchPut(items);
    if (unwritten.length) throw new Error(`${unwritten.length} items of the seed were not written`);
  }
  console.log(`  seeded ${TARGET} placements with BatchWriteItem in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const gateway = createGateway();
  const url = await gateway.listen(0);
  try {
    const call = async (path: string) => {
      const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const json = (await res.json()) as { data: unknown[]; next_cursor: string | null };
      if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    await call(`/api/v1/placements?limit=${PAGE}`); // warm up (and the authorizer's cache)
    const times: number[] = [];
    let maxCalls = 0;
    const callShapes = new Set<string>();
    let pages = 0;
    let rows = 0;
    let cursor: string | null = null;
    do {
      const path = `/api/v1/placements?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      sent.length = 0;
      const t = performance.now();
      const body = await call(path);
      times.push(performance.now() - t);
      maxCalls = Math.max(maxCalls, sent.length);
      callShapes.add(summarize(sent));
      pages++;
      rows += body.data.length;
      cursor = body.next_cursor;
    } while (cursor);
    console.log(
      `  every page of ${PAGE}, all ${rows} placements in ${pages} pages: ${[...callShapes].join(' / ')} a page, p50 ${pct(times, 50).toFixed(1)} ms  p95 ${pct(times, 95).toFixed(1)} ms`,
    );
    const mid = new Date(start + Math.floor(TARGET / 2) * 60_000).toISOString();
    const cases: Record<string, string> = {
      'first page of 50': '/api/v1/placements',
      'by requisition': `/api/v1/placements?req_id=${reqs[7]}&limit=${PAGE}`,
      'cancelled only': `/api/v1/placements?status=cancelled&limit=${PAGE}`,
      'updated_after the middle': `/api/v1/placements?updated_after=${encodeURIComponent(mid)}&limit=${PAGE}`,
    };
    const filtered: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    const shapes: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      for (const [name, path] of Object.entries(cases)) {
        sent.length = 0;
        const t = performance.now();
        const body = await call(path);
        filtered[name]!.push(performance.now() - t);
        maxCalls = Math.max(maxCalls, sent.length);
        shapes[name] = `${summarize(sent)}, ${body.data.length}${body.next_cursor ? '+' : ''} rows`;
      }
    }
    for (const name of Object.keys(cases))
      console.log(
        `  ${name.padEnd(26)} ${shapes[name]!.padEnd(28)} p50 ${pct(filtered[name]!, 50).toFixed(1)} ms  p95 ${pct(filtered[name]!, 95).toFixed(1)} ms`,
      );
    console.log('  (calls: the DynamoDB calls of the page, the token authorizer cached; "+": a next_cursor)');
    console.log(`RESULT size=${TARGET} max_calls=${maxCalls} pages=${pages} p50=${pct(times, 50).toFixed(2)}`);
  } finally {
    await gateway.close();
  }
} finally {
  await ddbLocal.stop();
}
