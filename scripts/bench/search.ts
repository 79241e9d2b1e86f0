/**
 * Search and board figures, run by `npm run bench` (section 8) in a child process with its own
 * DynamoDB Local: a workspace of BENCH_SEARCH_CANDIDATES candidates (100,000 by default) is
 * bulk-loaded through the store's item builders (candidate items and their search items,
 * BatchWriteItem), then a plain list page and a search page (a common last-name prefix) are
 * timed side by side through the real handlers behind the local gateway, with their DynamoDB
 * calls; then a board column page of a 500-candidate requisition; then the extra items a
 * create, a move and a rename write. Seeding stops at BENCH_SEARCH_SEED_SECONDS (600) and the
 * figures are taken at the size reached, printed as such. The last line is the figure for the
 * goals table: `RESULT size=… plain_p50=… search_p50=…`.
 */
import '../../dev/quiet-sdk';
import { startDynamoDbLocal } from '../../dev/dynamodb';
import { ensureTable, localClient } from '../../dev/table';
import { pct, summarize } from './stats';

const TARGET = Number(process.env.BENCH_SEARCH_CANDIDATES ?? 100_000);
const SEED_SECONDS = Number(process.env.BENCH_SEARCH_SEED_SECONDS ?? 600);
const FIRST = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'José', 'Zoë', 'Jean-Luc', 'Amara', 'Kenji', 'Priya', 'Olu', 'Sofia', 'Mateo'];
// Smith-like names are common: about one candidate in eight has a last name starting with "smi".
const LAST = [
  'Smith',
  'Smithson',
  'Lovelace',
  'Hopper',
  'Turing',
  'Torvalds',
  'Hamilton',
  'Álvarez',
  'Okafor',
  'Tanaka',
  'Patel',
  'Nguyen',
  'Müller',
  'Rossi',
  'Dubois',
  'Kowalski',
];
const COMMON_PREFIX = 'smi';

// Seeding 100,000 records is minutes of sustained load: the optimising JIT pays back.
const ddbLocal = await startDynamoDbLocal({ jit: 'full' });
try {
  await ensureTable(localClient(ddbLocal.endpoint), 'bench');
  Object.assign(process.env, { TABLE_NAME: 'bench', DYNAMODB_ENDPOINT: ddbLocal.endpoint, POWERTOOLS_LOG_LEVEL: 'ERROR' });
  const { ddb, ddbClient, tableName: tableNameNow } = await import('../../lib/store/client');
  const tableName = tableNameNow();
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { batchPut } = await import('../../lib/store/batch');
  const { candidateItem } = await import('../../lib/store/candidates');
  const { searchItems } = await import('../../lib/store/search');
  const { keys, counter } = await import('../../lib/store/table');
  const { STAGES } = await import('../../lib/model');
  const { newId } = await import('../../lib/ids');
  const { createTenant } = await import('../../lib/store/tenants');
  const { createToken } = await import('../../lib/store/tokens');
  const { createRequisition } = await import('../../lib/store/requisitions');
  const { createGateway } = await import('../../dev/gateway');

  const sent: string[] = [];
  const transactions: { search: number; total: number }[] = [];
  ddbClient.middlewareStack.add(
    (next, ctx) => (args) => {
      sent.push(String(ctx.commandName));
      // The document client's commands may reach this step before or after marshalling.
      const items = (
        args.input as { TransactItems?: { Put?: { Item?: Record<string, unknown> }; Delete?: { Key?: Record<string, unknown> } }[] }
      ).TransactItems;
      const plain = (v: unknown) => (typeof v === 'object' && v && 'S' in v ? (v as { S: string }).S : v);
      if (items)
        transactions.push({
          total: items.length,
          search: items.filter((i) => plain(i.Put?.Item?.type) === 'search' || String(plain(i.Delete?.Key?.PK) ?? '').includes('#SEARCH#'))
            .length,
        });
      return next(args);
    },
    { step: 'initialize' },
  );

  const tenant = await createTenant('bench-search', 'Bench search');
  const { token } = await createToken(tenant, 'bench', ['*']);
  const board = await createRequisition(tenant.id, { title: 'Board', status: 'open' });

  /** Candidate `i`: a name from the lists above, an email, a stage; the first 500 on the board requisition. */
  const candidate = (i: number, enteredAt: string) => {
    const first = FIRST[i % FIRST.length]!;
    const last = i % 8 === 0 ? (i % 16 === 0 ? 'Smith' : 'Smithson') : LAST[2 + ((i * 7) % (LAST.length - 2))]!;
    return {
      id: newId(),
      name: `${first} ${last}`,
      email: `${first.toLowerCase().replace(/[^a-z]/g, '')}.${i}@example.com`,
      stage: STAGES[i % STAGES.length]!,
      ...(i < 500 && { req_id: board.id, req_title: board.title }),
      created_at: enteredAt,
      updated_at: enteredAt,
      stage_entered_at: enteredAt,
    };
  };

  // Seed in chunks; stop at the time budget and measure at the size reached.
  const started = performance.now();
  const perStage: Record<string, number> = {};
  const boardStages: Record<string, number> = {};
  let seeded = 0;
  let itemsWritten = 0;
  const CHUNK = 2_000;
  while (seeded < TARGET && (performance.now() - started) / 1000 < SEED_SECONDS) {
    const entered = new Date(Date.now() - 30 * 86_400_000 + seeded).toISOString();
    const records = Array.from({ length: Math.min(CHUNK, TARGET - seeded) }, (_, j) => candidate(seeded + j, entered));
    const items = records.flatMap((c) => [candidateItem(tenant.id, c), ...searchItems(tenant.id, c as unknown as Record<string, unknown>)]);
    for (const c of records) {
      perStage[counter.stage(c.stage)] = (perStage[counter.stage(c.stage)] ?? 0) + 1;
      if (c.req_id) boardStages[counter.stage(c.stage)] = (boardStages[counter.stage(c.stage)] ?? 0) + 1;
    }
    const unwritten = await batchPut(items);
    if (unwritten.length) throw new Error(`${unwritten.length} items of the seed were not written`);
    seeded += records.length;
    itemsWritten += items.length;
    if (seeded % 20_000 === 0) console.error(`  seeded ${seeded} candidates…`);
  }
  const seedS = (performance.now() - started) / 1000;
  // Bulk load bypasses the per-candidate transaction: set the counters it would have kept.
  const setCounters = async (key: Record<string, unknown>, values: Record<string, number>) => {
    const names = Object.keys(values);
    await ddb.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :n${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:n${i}`, values[n]])),
      }),
    );
  };
  await setCounters(keys.stats(tenant.id), { ...perStage, total: seeded });
  await setCounters(keys.requisition(tenant.id, board.id), { ...boardStages, c_total: Math.min(500, seeded) });
  const reached = seeded < TARGET ? ` (the largest size reached: seeding ${TARGET} would take longer than ${SEED_SECONDS} s here)` : '';
  console.log(
    `  seeded ${seeded} candidates${reached}: ${itemsWritten} items (candidates + ${itemsWritten - seeded} search items) in ${seedS.toFixed(0)} s`,
  );

  const gateway = createGateway();
  const url = await gateway.listen(0);
  try {
    const call = async (path: string) => {
      const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const json = (await res.json()) as { data: unknown[] };
      if (res.status !== 200) throw new Error(`GET ${path} -> ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const cases = {
      plain: '/api/v1/candidates?limit=50',
      search: `/api/v1/candidates?q=${COMMON_PREFIX}&limit=50`,
      column: `/api/v1/candidates?req_id=${board.id}&stage=interviewed&limit=50`,
    };
    const times: Record<string, number[]> = { plain: [], search: [], column: [] };
    const calls: Record<string, string> = {};
    const rows: Record<string, number> = {};
    for (const path of Object.values(cases)) await call(path); // warm the authorizer cache and the JIT
    // Interleaved, so machine noise hits all three alike.
    for (let i = 0; i < 60; i++) {
      for (const [name, path] of Object.entries(cases)) {
        sent.length = 0;
        const t = performance.now();
        const body = await call(path);
        times[name]!.push(performance.now() - t);
        calls[name] = summarize(sent);
        rows[name] = body.data.length;
      }
    }
    const line = (label: string, name: string) =>
      console.log(
        `  ${label.padEnd(54)} ${calls[name]!.padEnd(22)} ${String(rows[name]).padStart(3)} rows  p50 ${pct(times[name]!, 50).toFixed(1)} ms  p95 ${pct(times[name]!, 95).toFixed(1)} ms`,
      );
    line(`GET /candidates (limit 50), ${seeded.toLocaleString('en')} in the workspace`, 'plain');
    line(`GET /candidates?q=${COMMON_PREFIX} (limit 50)`, 'search');
    line('GET /candidates?req_id&stage (500 on the req)', 'column');
    const plainP50 = pct(times.plain!, 50);
    const searchP50 = pct(times.search!, 50);
    console.log(`  search p50 / plain p50: ${(searchP50 / plainP50).toFixed(2)}×  (goal: at most 1.5×)`);

    // Write cost: the same create, move and rename through the API, counting the search items each transaction carries.
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status}`);
      return (await res.json()) as { data: { id: string } };
    };
    transactions.length = 0;
    const created = await send('POST', '/api/v1/candidates', { name: 'Ada Lovelace', email: 'ada@example.com', req_id: board.id });
    const create = transactions.at(-1)!;
    transactions.length = 0;
    await send('POST', '/api/v1/pipeline', { candidate_id: created.data.id, stage: 'interviewed' });
    const move = transactions.at(-1)!;
    transactions.length = 0;
    await send('PATCH', `/api/v1/candidates/${created.data.id}`, { name: 'Ada King' });
    const rename = transactions.at(-1)!;
    const bytes = JSON.stringify(
      searchItems(tenant.id, { ...candidate(1, new Date().toISOString()) } as Record<string, unknown>)[0],
    ).length;
    console.log(
      `  write cost, a candidate with a two-word name and an email (3 tokens): create +${create.search} items (${create.total} in its transaction), ` +
        `move +${move.search} (${move.total}), rename of one word +${rename.search} (${rename.total}: 3 copies rewritten, 1 old token deleted); ` +
        `a search item is about ${bytes} bytes (1 write unit each, 2 in a transaction); on a requisition, each candidate write also updates its GSI5 entry`,
    );
    console.log(`RESULT size=${seeded} plain_p50=${plainP50.toFixed(2)} search_p50=${searchP50.toFixed(2)}`);
  } finally {
    await gateway.close();
  }
} finally {
  await ddbLocal.stop();
}
