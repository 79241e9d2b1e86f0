/**
 * The workspace's counter shards (STATS_SHARDS, lib/store/table.ts): made with the workspace, or
 * later for a workspace from before them (`npm run admin -- stats shard`, and `npm start` by
 * itself). Each shard carries a copy of the stuck thresholds' version and overrides, so a counted
 * write checks them on the shard it adds to (lib/store/stuck.ts thresholdsUnchanged); a save moves
 * every copy in one transaction.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { keys, STATS_SHARDS } from './table';
import { backoff, cancellationReasons, MAX_ATTEMPTS } from './tx';

/** The puts of shards 1 to STATS_SHARDS - 1, each with the thresholds' version and overrides as STATS holds them. */
export const counterShardPuts = (tenantId: string, copy: { stuck_v: number; stuck_days: unknown }) =>
  Array.from({ length: STATS_SHARDS - 1 }, (_, i) => ({
    Put: {
      TableName: tableName(),
      Item: { ...keys.statsShard(tenantId, i + 1), type: 'stats_shard', tenant_id: tenantId, stats_shards: STATS_SHARDS, ...copy },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  }));

/**
 * The same shards set on items that may exist already: a threshold save before the workspace was
 * sharded left copies there that no writer reads, with a version of their own.
 */
const counterShardSets = (tenantId: string, copy: { stuck_v: number; stuck_days: unknown }) =>
  Array.from({ length: STATS_SHARDS - 1 }, (_, i) => ({
    Update: {
      TableName: tableName(),
      Key: keys.statsShard(tenantId, i + 1),
      UpdateExpression: 'SET #type = :type, tenant_id = :tenant, stats_shards = :n, stuck_v = :v, stuck_days = :d',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':type': 'stats_shard',
        ':tenant': tenantId,
        ':n': STATS_SHARDS,
        ':v': copy.stuck_v,
        ':d': copy.stuck_days,
      },
    },
  }));

/**
 * Give a workspace from before the shards its shards: one transaction, on the condition that its
 * thresholds are still the version copied (a save in between: read again and retry). Idempotent.
 */
export async function shardStats(tenantId: string): Promise<'sharded' | 'already' | 'missing'> {
  for (let attempt = 1; ; attempt++) {
    const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.stats(tenantId), ConsistentRead: true }));
    if (!Item) return 'missing';
    if (Item.stats_shards !== undefined) return 'already';
    const version = Item.stuck_v === undefined ? undefined : Number(Item.stuck_v);
    try {
      await ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: keys.stats(tenantId),
                UpdateExpression: 'SET stats_shards = :n',
                ConditionExpression: `attribute_exists(PK) AND attribute_not_exists(stats_shards) AND ${version === undefined ? 'attribute_not_exists(stuck_v)' : 'stuck_v = :v'}`,
                ExpressionAttributeValues: { ':n': STATS_SHARDS, ...(version !== undefined && { ':v': version }) },
              },
            },
            ...counterShardSets(tenantId, { stuck_v: version ?? 0, stuck_days: Item.stuck_days ?? {} }),
          ],
        }),
      );
      return 'sharded';
    } catch (err) {
      if (!cancellationReasons(err) || attempt >= MAX_ATTEMPTS) throw err;
      await backoff(attempt);
    }
  }
}
