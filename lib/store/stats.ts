/** The tenant's counter item: candidates per stage and in total, requisitions per status. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ReqStatus, Stage } from '../model';
import { ddb, tableName } from './client';
import { counter, keys } from './table';

export interface Stats {
  total: number;
  stage(stage: Stage): number;
  reqStatus(status: ReqStatus): number;
}

export async function getStats(tenantId: string): Promise<Stats> {
  const { Item = {} } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: keys.stats(tenantId), ConsistentRead: true }),
  );
  const n = (name: string) => Number(Item[name] ?? 0);
  return {
    total: n('total'),
    stage: (s) => n(counter.stage(s)),
    reqStatus: (s) => n(counter.reqStatus(s)),
  };
}
