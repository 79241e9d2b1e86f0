/**
 * An interviewer's assignments: the candidates of the interviews they are booked on, read from
 * their booking partition (lib/store/interviews.ts) with one Query projecting the candidate ids,
 * and those candidates' items (BatchGetItem, 100 keys a call). Apart from the interviews module,
 * so the candidate functions bundle this read alone.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb as client, queryAll, tableName } from './client';
import type { Item } from './codec';
import { keys } from './table';

/** The ids of the candidates the interviewer is booked to interview (scheduled interviews, past and coming). */
export async function assignedCandidateIds(tenantId: string, userId: string): Promise<Set<string>> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': keys.interviewerPartition(tenantId, userId) },
    ProjectionExpression: 'candidate_id',
  });
  return new Set(items.map((i) => i.candidate_id).filter((c): c is string => typeof c === 'string'));
}

/** The candidate items of these ids that exist, in no particular order. */
export async function getCandidateItems(tenantId: string, ids: readonly string[]): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    let pending: Record<string, unknown>[] = ids.slice(i, i + 100).map((id) => keys.candidate(tenantId, id));
    // BatchGet may leave keys unprocessed under throttling: ask again for those alone.
    while (pending.length) {
      const res = await client.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      out.push(...((res.Responses?.[tableName()] ?? []) as Item[]));
      pending = (res.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return out;
}
