/** The tenant's counter item: candidates per stage and in total, requisitions per status. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ReqStatus, Stage } from '../model';
import { ddb, tableName } from './client';
import { optNumberMap } from './codec';
import { learnThresholds, type StuckDays } from './stuck';
import { counter, keys } from './table';

export interface Stats {
  total: number;
  stage(stage: Stage): number;
  reqStatus(status: ReqStatus): number;
  /** False when the tenant has no STATS item, i.e. no such tenant. */
  exists: boolean;
  /** The tenant's stuck-threshold overrides (on top of the defaults); undefined before the stuck index existed. */
  stuckDays: StuckDays | undefined;
  /** True when the stuck index (GSI3) reflects the thresholds in force (lib/store/stuck.ts). */
  stuckIndexReady: boolean;
  /** The item as read (its retention rules: lib/store/retention.ts retentionOf). */
  item: Record<string, unknown>;
}

export async function getStats(tenantId: string): Promise<Stats> {
  const { Item = {} } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.stats(tenantId), ConsistentRead: true }));
  const n = (name: string) => Number(Item[name] ?? 0);
  learnThresholds(tenantId, Item);
  return {
    exists: Boolean(Item.PK),
    item: Item,
    stuckDays: Item.stuck_v === undefined ? undefined : (optNumberMap<Stage>(Item, 'stuck_days', 'stats') ?? {}),
    // A tenant from before the stuck index has no stuck_done_v until its first threshold save
    // has re-indexed its candidates.
    stuckIndexReady: Item.stuck_done_v !== undefined && n('stuck_v') === n('stuck_done_v'),
    total: n('total'),
    stage: (s) => n(counter.stage(s)),
    reqStatus: (s) => n(counter.reqStatus(s)),
  };
}
