/**
 * The stuck index (GSI3). Each active candidate of a stage with a threshold carries the time it
 * becomes stuck (stage entry + threshold) in a sparse, tenant-wide index ordered by that time:
 * `GSI3PK = T#<tenant>#STUCK`, `GSI3SK = <stuck time>#<id>`. One Query with `GSI3SK < now`
 * returns the stuck list, longest past its threshold first.
 *
 * The thresholds live on the tenant's STATS item beside the counters, with a version:
 * - `stuck_days`: the overrides; `stuck_v`: bumped by every save;
 * - `stuck_done_v`: the version the index reflects; `stuck_job: "pending"` while they differ;
 * - `stuck_cursor`: how far the re-index of `stuck_v` has got (absent: from the start).
 * Each counter shard (STATS_SHARDS) carries a copy of `stuck_v` and `stuck_days`. So one
 * BatchGetItem (lib/store/stats.ts) reads counters, thresholds and whether the index can be trusted.
 *
 * Writers: a candidate insert or move computes its index entry from the thresholds it believes in
 * force and conditions its counter shard's update (same transaction) on that shard's `stuck_v`, so
 * no write can commit with thresholds that changed under it; the failed condition hands back the new ones.
 *
 * A save never re-indexes in the request: it bumps `stuck_v`, sets `stuck_job` and clears the
 * cursor, in one transaction that bumps every shard's copy with it. The STATS stream record (filter STUCK_FILTER_PATTERNS, stream-filters.ts) drives the
 * background job (functions/stuck-reindex.ts) one page at a time; each step saves its cursor on
 * STATS conditioned on the version, which makes the next stream record, and so the next step. A
 * newer save makes the older job's next condition fail: it stops, and the job restarts from the
 * first page with the newest thresholds. Stream records of one item are handled in order, one
 * batch at a time, so steps never overlap. Until the job ends (`stuck_done_v = stuck_v`) the
 * summary answers from the per-stage index (GSI1) with the thresholds in force.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { auditPuts, type AuditEntry } from './audit';
import { backoff, cancellationReasons, isTransactionConflict, MAX_ATTEMPTS } from './tx';
import { NotFoundError } from '../errors';
import { DEFAULT_STUCK_DAYS, type Stage } from '../model';
import { ddb, tableName } from './client';
import { keys, STUCK_JOB_PENDING, stuckIndexKey, stuckPartition, TABLE_DEF } from './table';
import { $add, $remove, update } from './update';
import { otherShardUpdates } from './stats-shards';
import { keptRules, registryWrite, type RetentionDays } from './retention';

export { STUCK_JOB_PENDING } from './table';

const DAY_MS = 86_400_000;
type Item = Record<string, unknown>;
export type StuckDays = Partial<Record<Stage, number>>;

/** Thresholds a writer believes in force, with the STATS version they came from. */
export interface Thresholds {
  version: number;
  overrides: StuckDays;
  /** The counter shards the workspace has (STATS_SHARDS once sharded); 1, or absent, before. */
  shards?: number;
}

/** The threshold in days for a stage (0: never stuck). */
export const thresholdOf = (overrides: StuckDays, stage: Stage): number => overrides[stage] ?? DEFAULT_STUCK_DAYS[stage] ?? 0;

/** The time a candidate becomes stuck, or undefined when its stage has no threshold. */
export const stuckAt = (overrides: StuckDays, stage: Stage, enteredAt: string): string | undefined => {
  const days = thresholdOf(overrides, stage);
  return days > 0 ? new Date(Date.parse(enteredAt) + days * DAY_MS).toISOString() : undefined;
};

/**
 * Index attributes of a candidate: `stuck_d` records the threshold it was placed with, so the
 * re-index rewrites only candidates whose threshold changed. `remove` lists what to drop.
 */
export function stuckAttrs(tenantId: string, t: Thresholds, c: { id: string; stage: Stage; stage_entered_at: string }) {
  const at = stuckAt(t.overrides, c.stage, c.stage_entered_at);
  const { byStuckAt } = TABLE_DEF.indexes;
  if (!at) return { set: { stuck_d: 0 } as Item, remove: [byStuckAt.partitionKey, byStuckAt.sortKey] as string[] };
  return { set: { ...stuckIndexKey(tenantId, at, c.id), stuck_d: thresholdOf(t.overrides, c.stage) } as Item, remove: [] as string[] };
}

/**
 * Thresholds per tenant as last seen by this container. A miss assumes the defaults (version 0):
 * the writer's STATS condition catches a wrong guess and hands back the real item.
 */
const known = new Map<string, Thresholds>();
/** Kept apart from `known`, which a save forgets: a workspace's shard count only ever grows, so it stays true. */
const knownShards = new Map<string, number>();
export const believedThresholds = (tenantId: string): Thresholds => {
  const shards = knownShards.get(tenantId);
  return { ...(known.get(tenantId) ?? { version: 0, overrides: {} }), ...(shards !== undefined && { shards }) };
};
/** Learns from the STATS item, or from any counter shard: each carries the thresholds and the shard count. */
export function learnThresholds(tenantId: string, stats: Item | undefined) {
  if (!stats?.PK) return;
  known.set(tenantId, { version: Number(stats.stuck_v ?? 0), overrides: (stats.stuck_days ?? {}) as StuckDays });
  knownShards.set(tenantId, Math.max(knownShards.get(tenantId) ?? 1, Number(stats.stats_shards ?? 1)));
}

const sharded = (t: Thresholds) => (t.shards ?? 1) > 1;

/** The counter shard a counted write adds to: one of those the writer believes there are, at random. */
export const statsKeyFor = (tenantId: string, t: Thresholds = believedThresholds(tenantId)) =>
  keys.statsShard(tenantId, Math.floor(Math.random() * (t.shards ?? 1)));

/**
 * Condition for the counter update (on the shard statsKeyFor chose): the thresholds are still the
 * ones the write used. Every shard carries `stuck_v`, and a save bumps them all in one
 * transaction. A writer that believes the workspace unsharded also checks that it still is: a
 * container that never read the STATS item learns of the shards from its first refused write.
 */
export const thresholdsUnchanged = (t: Thresholds) => {
  // A tenant from before the stuck index has no stuck_v: the defaults, version 0.
  const version = t.version === 0 ? '(attribute_not_exists(stuck_v) OR stuck_v = :sv)' : 'stuck_v = :sv';
  return {
    ConditionExpression: sharded(t) ? version : `${version} AND attribute_not_exists(stats_shards)`,
    values: { ':sv': t.version },
  };
};

/** Stuck candidates from GSI3: those whose stuck time has passed, longest past it first. */
export async function queryStuck(tenantId: string, now: number, limit: number): Promise<Item[]> {
  const { byStuckAt } = TABLE_DEF.indexes;
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: byStuckAt.name,
      KeyConditionExpression: '#pk = :pk AND #sk < :cut',
      ExpressionAttributeNames: { '#pk': byStuckAt.partitionKey, '#sk': byStuckAt.sortKey },
      // `<stuckAt>#<id>`: '~' sorts after every id character, so a stuck time equal to now counts.
      ExpressionAttributeValues: { ':pk': stuckPartition(tenantId), ':cut': `${new Date(now).toISOString()}#~` },
      ScanIndexForward: true,
      Limit: limit,
    }),
  );
  return Items as Item[];
}

/**
 * Store new thresholds: one transaction of the STATS update, the other counter shards' copies of
 * the version and overrides (each added to, never set, so two saves at once both succeed and
 * every copy stays equal to STATS's), and with them the retention rules' registry entry and the
 * audit record. The newest save wins (last writer's overrides, highest version); the re-index runs
 * in the background. A workspace from before the shards gets copies no writer reads until it is
 * sharded (lib/store/stats-shards.ts shardStats sets them afresh).
 */
export async function saveThresholds(
  tenantId: string,
  overrides: StuckDays,
  { retention, audit, also = {} }: { retention?: RetentionDays; audit?: AuditEntry; also?: Record<string, unknown> } = {},
): Promise<Thresholds & { retention?: RetentionDays }> {
  // Other pipeline settings kept on STATS (the rejection reasons), so GET reads them in its one call.
  const extra = Object.keys(also)
    .map((k, i) => `, ${k} = :x${i}`)
    .join('');
  const save = {
    TableName: tableName(),
    Key: keys.stats(tenantId),
    UpdateExpression: `SET stuck_days = :d, stuck_v = if_not_exists(stuck_v, :zero) + :one, stuck_job = :pending${retention ? ', retention = :r' : ''}${extra} REMOVE stuck_cursor`,
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: {
      ':d': overrides,
      ':zero': 0,
      ':one': 1,
      ':pending': STUCK_JOB_PENDING,
      ...(retention && { ':r': keptRules(retention) }),
      ...Object.fromEntries(Object.values(also).map((v, i) => [`:x${i}`, v])),
    },
  };
  // One transaction, which answers no item. This container's belief is dropped instead of
  // learned; a write on an old belief fails its counter shard's condition and learns. A save
  // racing another transaction on the same items is cancelled whole, so it is simply sent again.
  const TransactItems = [
    { Update: save },
    // Every other counter shard's copy, moved with STATS's.
    ...otherShardUpdates(tenantId, { stuck_days: overrides, stuck_v: $add(1) }),
    ...(retention ? [registryWrite(tenantId, retention)] : []),
    ...(audit ? auditPuts(tenantId, audit) : []),
  ];
  for (let attempt = 1; ; attempt++) {
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems }));
      break;
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') throw new NotFoundError('workspace');
      if (!reasons || !isTransactionConflict(reasons) || attempt >= MAX_ATTEMPTS) throw err;
      await backoff(attempt);
    }
  }
  known.delete(tenantId);
  return { ...believedThresholds(tenantId), ...(retention && { retention }) };
}

/** Candidates read per re-index step, and rewrites in flight within one. */
export const REINDEX_PAGE = 500;
const REINDEX_CONCURRENCY = 16;

export type StepResult = 'idle' | 'advanced' | 'done' | 'superseded';

/**
 * One bounded step of the tenant's re-index: read the STATS item, rewrite the stale candidates of
 * one page from the saved cursor, save the new cursor (or mark the index done), all conditioned
 * on the version read first. Idempotent: candidates already right are skipped without a write,
 * and a repeated step redoes at most one page. 'superseded': a newer save came in between.
 */
export async function reindexStep(tenantId: string, pageSize = REINDEX_PAGE): Promise<StepResult> {
  const { Item: stats } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.stats(tenantId), ConsistentRead: true }));
  if (!stats || stats.stuck_job !== STUCK_JOB_PENDING) return 'idle';
  const t: Thresholds = { version: Number(stats.stuck_v ?? 0), overrides: (stats.stuck_days ?? {}) as StuckDays };
  // The sort key of the last candidate done (the partition is the tenant's).
  const cursor = stats.stuck_cursor as string | undefined;
  // Consistent reads from the base table: every move committed before this version is seen, and
  // every later one already used these thresholds (its STATS condition).
  const page = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
      ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':p': keys.candidatePrefix },
      ProjectionExpression: 'id, #stage, stage_entered_at, stuck_d',
      ExpressionAttributeNames: { '#stage': 'stage' },
      ConsistentRead: true,
      Limit: pageSize,
      ExclusiveStartKey: cursor ? { PK: keys.tenantPartition(tenantId), SK: cursor } : undefined,
    }),
  );
  const stale = ((page.Items ?? []) as Item[]).filter(
    (c) => c.stuck_d === undefined || Number(c.stuck_d) !== thresholdOf(t.overrides, c.stage as Stage),
  );
  let next = 0;
  const worker = async () => {
    while (next < stale.length) await rewrite(tenantId, t, stale[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(REINDEX_CONCURRENCY, stale.length) }, worker));
  const done = !page.LastEvaluatedKey;
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.stats(tenantId),
        UpdateExpression: done ? 'SET stuck_done_v = :v REMOVE stuck_job, stuck_cursor' : 'SET stuck_cursor = :next',
        // The version this step worked for is still the newest, and no other step moved the cursor.
        ConditionExpression: `stuck_v = :v AND ${cursor ? 'stuck_cursor = :cur' : 'attribute_not_exists(stuck_cursor)'}`,
        ExpressionAttributeValues: {
          ':v': t.version,
          ...(cursor && { ':cur': cursor }),
          ...(!done && { ':next': page.LastEvaluatedKey!.SK }),
        },
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return 'superseded';
    throw err;
  }
  return done ? 'done' : 'advanced';
}

/**
 * Rewrite one candidate's index entry, conditioned on the stage and entry time it was computed
 * from: a lost race means a move rewrote it meanwhile, with the thresholds in force.
 */
async function rewrite(tenantId: string, t: Thresholds, c: Item) {
  const { set, remove } = stuckAttrs(tenantId, t, c as { id: string; stage: Stage; stage_entered_at: string });
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.candidate(tenantId, c.id as string),
        ...update(
          { ...set, ...Object.fromEntries(remove.map((a) => [a, $remove()])) },
          {
            expression: '#stage = :stage AND stage_entered_at = :e',
            names: { '#stage': 'stage' },
            values: { ':stage': c.stage, ':e': c.stage_entered_at },
          },
        ),
      }),
    );
  } catch (err) {
    if (!(err instanceof ConditionalCheckFailedException)) throw err;
  }
}
