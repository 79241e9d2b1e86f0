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
import { type Changes, update } from './update';

/**
 * An Update of every counter shard but STATS (1 to STATS_SHARDS - 1) with `changes`
 * (lib/store/update.ts), each marked as its tenant's shard: the shards of a new workspace, the
 * copies a threshold save moves, and the shards a workspace from before them is given.
 */
export const otherShardUpdates = (tenantId: string, changes: Changes) =>
  Array.from({ length: STATS_SHARDS - 1 }, (_, i) => ({
    Update: {
      TableName: tableName(),
      Key: keys.statsShard(tenantId, i + 1),
      ...update({ type: 'stats_shard', tenant_id: tenantId, ...changes }),
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
                ...update(
                  { stats_shards: STATS_SHARDS },
                  version === undefined
                    ? { expression: 'attribute_exists(PK) AND attribute_not_exists(stats_shards) AND attribute_not_exists(stuck_v)' }
                    : { expression: 'attribute_not_exists(stats_shards) AND stuck_v = :v', values: { ':v': version } },
                ),
              },
            },
            // Updates, not puts: a threshold save before the sharding left copies there that no writer
            // reads, with a version of their own.
            ...otherShardUpdates(tenantId, { stats_shards: STATS_SHARDS, stuck_v: version ?? 0, stuck_days: Item.stuck_days ?? {} }),
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
