/**
 * The tenant's STATS item (its settings: stuck thresholds, retention, rejection reasons, offer and
 * interview rules) and its counters (candidates per stage and in total, requisitions per status),
 * spread over STATS_SHARDS counter shards (lib/store/table.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ReqStatus, Stage } from '../model';
import { batchGet } from './batch';
import { ddb, tableName } from './client';
import { optNumberMap } from './codec';
import { learnThresholds, type StuckDays } from './stuck';
import { counter, keys, STATS_SHARDS } from './table';

/** The STATS item's settings, as read. */
export interface StatsItem {
  /** False when the tenant has no STATS item, i.e. no such tenant. */
  exists: boolean;
  /** The tenant's stuck-threshold overrides (on top of the defaults); undefined before the stuck index existed. */
  stuckDays: StuckDays | undefined;
  /** True when the stuck index (GSI3) reflects the thresholds in force (lib/store/stuck.ts). */
  stuckIndexReady: boolean;
  /** The item as read (its retention rules: lib/store/retention.ts retentionOf). */
  item: Record<string, unknown>;
}

export interface Stats extends StatsItem {
  total: number;
  stage(stage: Stage): number;
  reqStatus(status: ReqStatus): number;
}

function settingsOf(tenantId: string, Item: Record<string, unknown>): StatsItem {
  learnThresholds(tenantId, Item);
  const n = (name: string) => Number(Item[name] ?? 0);
  return {
    exists: Boolean(Item.PK),
    item: Item,
    stuckDays: Item.stuck_v === undefined ? undefined : (optNumberMap<Stage>(Item, 'stuck_days', 'stats') ?? {}),
    // A tenant from before the stuck index has no stuck_done_v until its first threshold save
    // has re-indexed its candidates.
    stuckIndexReady: Item.stuck_done_v !== undefined && n('stuck_v') === n('stuck_done_v'),
  };
}

/** The settings alone: one GetItem of the STATS item, for a read that needs no count. */
export async function getStatsItem(tenantId: string): Promise<StatsItem> {
  const { Item = {} } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.stats(tenantId), ConsistentRead: true }));
  return settingsOf(tenantId, Item);
}

/**
 * The settings and the counters: the STATS item and every counter shard, in one BatchGetItem. A
 * counter is the sum of its shards' (an absent shard, as in a workspace from before them, adds
 * nothing).
 */
export async function getStats(tenantId: string): Promise<Stats> {
  const shards = await batchGet(
    Array.from({ length: STATS_SHARDS }, (_, k) => keys.statsShard(tenantId, k)),
    { consistent: true },
  );
  const statsKey = keys.stats(tenantId);
  const n = (name: string) => shards.reduce((sum, s) => sum + Number(s[name] ?? 0), 0);
  return {
    ...settingsOf(tenantId, shards.find((s) => s.PK === statsKey.PK) ?? {}),
    total: n('total'),
    stage: (s) => n(counter.stage(s)),
    reqStatus: (s) => n(counter.reqStatus(s)),
  };
}
