/**
 * Audit log figures, run by `npm run bench` (section 10) in a child process with its own DynamoDB
 * Local: a workspace's log of BENCH_AUDIT_RECORDS records (100,000 by default; one item each,
 * lib/store/audit.ts) is bulk-loaded through the store's item builder (BatchWriteItem), then the
 * first page of GET /api/audit is timed through the real handler behind the local gateway, with
 * its DynamoDB calls, unfiltered and under each filter. Seeding stops at
 * BENCH_AUDIT_SEED_SECONDS (600) and the figures are taken at the size reached, printed as such.
 * The last line is the figure for the goals table: `RESULT size=… max_calls=… p50=…`.
 */
import '../../dev/quiet-sdk';
import { startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { pct, summarize } from './stats';

const TARGET = Number(process.env.BENCH_AUDIT_RECORDS ?? 100_000);
const SEED_SECONDS = Number(process.env.BENCH_AUDIT_SEED_SECONDS ?? 600);
const ACTIONS = [
  'candidate.created',
  'candidate.updated',
  'candidate.stage_changed',
  'requisition.updated',
  'webhook.updated',
  'token.created',
];
/** One record in 1,000: a filter on it with a common actor is the bounded, short page. */
const RARE_ACTION = 'member.removed';
const PASSWORD = 'bench audit passphrase';

// Seeding 100,000 records is minutes of sustained load: the optimising JIT pays back.
const ddbLocal = await startDynamoDbLocal({ jit: 'full' });
try {
  await ensureTable(localClient(ddbLocal.endpoint), 'bench');
  Object.assign(process.env, { TABLE_NAME: 'bench', DYNAMODB_ENDPOINT: ddbLocal.endpoint, POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { ddbClient } = await import('../../lib/store/client');
  const { batchPut } = await import('../../lib/store/batch');
  const { auditIntentItem, auditRecordItems } = await import('../../lib/store/audit');
  const { createTenant } = await import('../../lib/store/tenants');
  const { createUser } = await import('../../lib/store/users');
  const { hashPassword } = await import('../../lib/auth/password');
  const { createGateway } = await import('../../dev/gateway');

  const sent: string[] = [];
  ddbClient.middlewareStack.add(
    (next, ctx) => (args) => {
      sent.push(String(ctx.commandName));
      return next(args);
    },
    { step: 'initialize' },
  );

  const tenant = await createTenant('bench-audit', 'Bench audit');
  const admin = await createUser(tenant.id, 'audit-admin@bench.example.com', await hashPassword(PASSWORD), 'admin');
  // 20 actors, 6 actions, 10,000 targets; one rare actor (1 record in 1,000) for a selective combined filter.
  const actors = Array.from({ length: 20 }, (_, i) => (i === 0 ? admin.id : `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`));
  const rare = '01900000-0000-7000-8000-rare00000001';
  const targetOf = (i: number) => `01900000-0000-7000-9000-${String(i % 10_000).padStart(12, '0')}`;
  const start = Date.now() - 200 * 86_400_000;

  const started = performance.now();
  let seeded = 0;
  // 1,000 items a round: 40 BatchWriteItem calls in flight, within the client's socket pool.
  const CHUNK = 250;
  while (seeded < TARGET && (performance.now() - started) / 1000 < SEED_SECONDS) {
    const items = Array.from({ length: Math.min(CHUNK, TARGET - seeded) }, (_, j) => {
      const i = seeded + j;
      const actor = i % 1_000 === 7 ? rare : actors[i % actors.length]!;
      // Each record as the stream consumer writes it: one item, with its three index entries.
      const intent = auditIntentItem(
        tenant.id,
        [
          {
            action: i % 1_000 === 11 ? RARE_ACTION : ACTIONS[i % ACTIONS.length]!,
            actor: { type: 'user', id: actor, email: `user${i % actors.length}@bench.example.com` },
            target: { type: 'candidate', id: targetOf(i) },
            changes: [{ field: 'stage', before: 'applied', after: 'interviewed' }, { field: 'name' }],
            request: { ip: '192.0.2.10', user_agent: 'bench', request_id: `req-${i}` },
            // Spread over 200 days, oldest first, so the newest records are the last seeded.
            at: new Date(start + i * 60_000).toISOString(),
          },
        ],
        start + i * 60_000,
      );
      return auditRecordItems(intent!);
    }).flat();
    const unwritten = await batchPut(items);
    if (unwritten.length) throw new Error(`${unwritten.length} items of the seed were not written`);
    seeded += CHUNK;
    if (seeded % 20_000 === 0) console.error(`  seeded ${seeded} audit records…`);
  }
  seeded = Math.min(seeded, TARGET);
  const seedS = (performance.now() - started) / 1000;
  const reached = seeded < TARGET ? ` (the largest size reached: seeding ${TARGET} would take longer than ${SEED_SECONDS} s here)` : '';
  console.log(`  seeded ${seeded} audit records${reached}: ${seeded} items (one each, with 3 index entries) in ${seedS.toFixed(0)} s`);

  const gateway = createGateway();
  const url = await gateway.listen(0);
  try {
    const login = await fetch(`${url}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`login -> ${login.status}`);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const call = async (path: string) => {
      const res = await fetch(`${url}${path}`, { headers: { Cookie: cookie } });
      const json = (await res.json()) as { data: unknown[]; next_cursor: string | null };
      if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const mid = new Date(start + Math.floor(seeded / 2) * 60_000).toISOString();
    const cases: Record<string, string> = {
      'newest first, no filter': '/api/audit?limit=50',
      'by actor': `/api/audit?actor=${actors[3]}&limit=50`,
      'by action': '/api/audit?action=candidate.stage_changed&limit=50',
      'by target': `/api/audit?target=${targetOf(4_242)}&limit=50`,
      'by time (to = the middle of the log)': `/api/audit?to=${encodeURIComponent(mid)}&limit=50`,
      // Actor 3 wrote one record in 20, a third of them requisition.updated: a full page from one Query.
      'actor + action (FilterExpression)': `/api/audit?actor=${actors[3]}&action=requisition.updated&limit=50`,
      // Actor 11 and an action of one record in 1,000: two bounded Queries, a short page and a cursor.
      'actor + rare action (a short page)': `/api/audit?actor=${actors[11]}&action=${RARE_ACTION}&limit=50`,
      'rare actor alone': `/api/audit?actor=${rare}&limit=50`,
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    const calls: Record<string, string> = {};
    const queries: Record<string, number> = {};
    const rows: Record<string, string> = {};
    for (const path of Object.values(cases)) await call(path); // warm up
    for (let i = 0; i < 30; i++) {
      for (const [name, path] of Object.entries(cases)) {
        sent.length = 0;
        const t = performance.now();
        const body = await call(path);
        times[name]!.push(performance.now() - t);
        // The session authorizer's GetItem is the sign-in check, not the page: counted apart.
        const page = sent.slice(sent.indexOf('GetItemCommand') + 1);
        calls[name] = summarize(page);
        queries[name] = page.length;
        rows[name] = `${body.data.length}${body.next_cursor ? '+' : ''}`;
      }
    }
    for (const name of Object.keys(cases))
      console.log(
        `  first page, ${name.padEnd(38)} ${calls[name]!.padEnd(16)} ${rows[name]!.padStart(4)} rows  p50 ${pct(times[name]!, 50).toFixed(1)} ms  p95 ${pct(times[name]!, 95).toFixed(1)} ms`,
      );
    console.log('  (calls: the page\'s DynamoDB calls, the session authorizer\'s GetItem apart; "+": a next_cursor)');
    const maxCalls = Math.max(...Object.values(queries));
    const p50 = Math.max(...Object.values(times).map((t) => pct(t, 50)));
    console.log(`RESULT size=${seeded} max_calls=${maxCalls} p50=${p50.toFixed(2)}`);
  } finally {
    await gateway.close();
  }
} finally {
  await ddbLocal.stop();
}
