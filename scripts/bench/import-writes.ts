/**
 * What an imported row asks of DynamoDB, counted (scripts/bench/imports.ts runs it after the timed
 * import, in a workspace of its own): the items written per row by kind, with their index entries
 * and condition checks, and the calls per row, first by the POST and the worker's runs, then by the
 * table maintenance consumer expanding the import's audit intents (records and activity items), as
 * its stream reader would. Counted by the middleware of scripts/bench/writes.ts on the store's client.
 */
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { localClient } from '../../dev/table';
import { tokenApi } from './api';
import { countWrites, emptyTally, type Tally } from './writes';

/** The middleware, added once to the store's client. */
let counter: ReturnType<typeof countWrites> | undefined;

export interface RowCounts {
  rows: number;
  created: number;
  /** Per imported row: by the POST and the worker; then by the maintenance consumer. */
  worker: Tally;
  background: Tally;
}

/**
 * Import `csv` (of `rows` rows) through the gateway at `url` with a token of a new workspace,
 * counting what the worker writes, then expand the workspace's audit intents as the consumer does.
 */
export async function countImportWrites(url: string, endpoint: string, csv: string, rows: number): Promise<RowCounts> {
  const { ddbClient } = await import('../../lib/store/client');
  const { createTenant } = await import('../../lib/store/tenants');
  const { createToken } = await import('../../lib/store/tokens');
  const { auditIntentsOf, expandAuditIntent } = await import('../../lib/store/audit-expand');
  const { expandActivity } = await import('../../lib/domain/activity');
  const { importKeys } = await import('../../lib/store/imports');
  const { tableName: tableNameNow } = await import('../../lib/store/client');
  const tableName = tableNameNow();
  const watcher = DynamoDBDocumentClient.from(localClient(endpoint));
  const tenant = await createTenant(`bench-count-${Date.now()}`, 'Bench count');
  const { token } = await createToken(tenant, 'bench', ['*']);
  counter ??= countWrites(ddbClient);
  const worker = emptyTally();
  counter.use(worker);
  const call = tokenApi(url, token);
  let done: any;
  try {
    const job = (await call('POST', '/candidates/imports', csv)).data;
    for (;;) {
      // Read by a client of its own, so the worker's calls alone are counted meanwhile.
      const { Item } = await watcher.send(
        new GetCommand({ TableName: tableName, Key: importKeys.importJob(tenant.id, job.id), ConsistentRead: true }),
      );
      done = Item;
      if (done?.status === 'completed' || done?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The consumer's work for this workspace's intents: one expansion each, as the stream delivers them.
    counter.use(undefined);
    const intents = await auditIntentsOf(tenant.id);
    const background = emptyTally();
    counter.use(background);
    for (const intent of intents) {
      await expandAuditIntent(intent);
      await expandActivity(intent);
    }
    return { rows, created: Number(done.n_created), worker, background };
  } finally {
    counter.use(undefined);
    watcher.destroy();
  }
}

const perRow = (n: number, rows: number) => (n / rows).toFixed(2);

/** The counts as lines: per row, each kind's items (index entries, checks), then the calls. */
export function rowCountLines(c: RowCounts): string[] {
  const lines: string[] = [];
  const show = (label: string, t: Tally) => {
    const kinds = [...t.kinds]
      .sort((a, b) => b[1].items + b[1].conditionChecks - (a[1].items + a[1].conditionChecks))
      .map(
        ([k, v]) =>
          `${k} ${perRow(v.items, c.rows)}${v.indexEntries ? ` (+${perRow(v.indexEntries, c.rows)} idx)` : ''}${v.conditionChecks ? ` (${perRow(v.conditionChecks, c.rows)} checks)` : ''}`,
      );
    const calls = new Map<string, number>();
    for (const x of t.calls) calls.set(x, (calls.get(x) ?? 0) + 1);
    lines.push(
      `  ${label}: ${perRow(t.items, c.rows)} items, ${perRow(t.indexEntries, c.rows)} index entries, ${perRow(t.conditionChecks, c.rows)} condition checks per row`,
      `    by kind: ${kinds.join(', ') || 'none'}`,
      `    calls per row: ${[...calls].map(([k, n]) => `${k.replace(/Command$/, '')} ${perRow(n, c.rows)}`).join(', ')}${t.refused ? `; refused ${perRow(t.refused, c.rows)}` : ''}`,
    );
  };
  lines.push(
    `  writes of a counted import of ${c.rows} rows (${c.created} created), per row of the file (scripts/bench/import-writes.ts):`,
  );
  show('POST and worker', c.worker);
  show('then the maintenance consumer (audit records, activity)', c.background);
  return lines;
}
