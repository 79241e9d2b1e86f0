/**
 * Shared by the stuck-index tests: bulk candidates with varied stage-entry times, the stuck list
 * the summary must answer (computed here from the thresholds, independently of the index), and
 * what the index holds.
 */
import { STAGES, STUCK_LIMIT, DEFAULT_STUCK_DAYS, type Stage } from '../../lib/model';
import { BatchWriteCommand, UpdateCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from '../../lib/store/client';
import { candidateItem } from '../../lib/store/candidates';
import { keys, counter, stuckPartition, TABLE_DEF } from '../../lib/store/table';
import { newId } from '../../lib/ids';

export interface Seeded {
  id: string;
  stage: Stage;
  entered: string;
}

const DAY = 86_400_000;

/**
 * The workspace's stage counters and total as the candidates' own writes would have left them, for
 * a bulk load that bypassed those writes' transactions: one count per stage in `stages`.
 */
export async function setStageCounters(tenantId: string, stages: readonly Stage[]) {
  const perStage = Object.fromEntries(STAGES.map((s) => [counter.stage(s), stages.filter((x) => x === s).length]));
  const names = Object.keys(perStage);
  await ddb.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.stats(tenantId),
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :n${i}`).join(', ')}, #t = :t`,
      ExpressionAttributeNames: { ...Object.fromEntries(names.map((x, i) => [`#n${i}`, x])), '#t': 'total' },
      ExpressionAttributeValues: { ...Object.fromEntries(names.map((x, i) => [`:n${i}`, perStage[x]])), ':t': stages.length },
    }),
  );
}

/** `n` candidates across all nine stages, entered 0-20 days ago; counters set as writes would. */
export async function seedVaried(tenantId: string, n: number): Promise<Seeded[]> {
  const now = Date.now();
  const seeded: Seeded[] = Array.from({ length: n }, (_, i) => ({
    id: newId(),
    stage: STAGES[i % STAGES.length]!,
    entered: new Date(now - ((i * 7919 * 60_000) % (20 * DAY)) - i * 1000).toISOString(),
  }));
  const items = seeded.map((c, i) =>
    candidateItem(tenantId, {
      id: c.id,
      name: `Varied ${i}`,
      stage: c.stage,
      created_at: c.entered,
      updated_at: c.entered,
      stage_entered_at: c.entered,
    }),
  );
  for (let i = 0; i < items.length; i += 25) {
    let request: Record<string, unknown[]> | undefined = {
      [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
    };
    while (request && Object.keys(request).length) {
      const res = await ddb.send(new BatchWriteCommand({ RequestItems: request as never }));
      request = res.UnprocessedItems as Record<string, unknown[]> | undefined;
    }
  }
  await setStageCounters(
    tenantId,
    seeded.map((c) => c.stage),
  );
  return seeded;
}

const daysOf = (overrides: Partial<Record<Stage, number>>, s: Stage) => overrides[s] ?? DEFAULT_STUCK_DAYS[s] ?? 0;

/** Ids the summary must list, in order: stuck ones, longest past their threshold first, at most 50. */
export function expectedStuck(candidates: Seeded[], overrides: Partial<Record<Stage, number>>, now = Date.now()): string[] {
  return candidates
    .flatMap((c) => {
      const days = daysOf(overrides, c.stage);
      const at = Date.parse(c.entered) + days * DAY;
      return days > 0 && at <= now ? [{ key: `${new Date(at).toISOString()}#${c.id}`, id: c.id }] : [];
    })
    .sort((a, b) => a.key.localeCompare(b.key))
    .slice(0, STUCK_LIMIT)
    .map((c) => c.id);
}

/** The whole index of a tenant, as `id -> stuck index sort key`, to compare with what the thresholds say. */
export async function indexEntries(tenantId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await ddb.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: TABLE_DEF.indexes.byStuckAt.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': TABLE_DEF.indexes.byStuckAt.partitionKey },
        ExpressionAttributeValues: { ':pk': stuckPartition(tenantId) },
        ExclusiveStartKey,
      }),
    );
    for (const i of page.Items ?? []) out.set(i.id as string, i[TABLE_DEF.indexes.byStuckAt.sortKey] as string);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}

/** What the index must hold for these candidates and thresholds. */
export function expectedEntries(candidates: Seeded[], overrides: Partial<Record<Stage, number>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of candidates) {
    const days = daysOf(overrides, c.stage);
    if (days > 0) out.set(c.id, `${new Date(Date.parse(c.entered) + days * DAY).toISOString()}#${c.id}`);
  }
  return out;
}
