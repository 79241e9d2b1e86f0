/**
 * Candidate lists: the Query behind each list of GET /candidates (all, a stage, a requisition, a
 * board column, the change feed), offset and cursor pages, and the page key a cursor carries.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Stage } from '../model';
import { checkTimeBudget } from '../time-budget';
import { ddb, prefixQuery, queryPages, queryUpTo, tableName } from './client';
import {
  changesPartition,
  keys,
  reqCandidatesPartition,
  reqStagePartition,
  stagePartition,
  TABLE_DEF,
  type IndexDef,
  type PageKeyShape,
} from './table';

type Item = Record<string, unknown>;

/** `source`: only the candidates of that source (a filter on the list's own Query). */
export type CandidateQuery =
  | { kind: 'all'; source?: string }
  | { kind: 'stage'; stage: Stage; source?: string }
  | { kind: 'requisition'; reqId: string; stage?: Stage; source?: string }
  /** Changed at or after `since` (a toISOString() value), oldest change first. */
  | { kind: 'changes'; since: string };

function queryInput(tenantId: string, q: CandidateQuery): QueryCommandInput {
  const input = unfiltered(tenantId, q);
  if (q.kind === 'changes' || q.source === undefined) return input;
  return {
    ...input,
    FilterExpression: '#source = :source',
    ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#source': 'source' },
    ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':source': q.source },
  };
}

function unfiltered(tenantId: string, q: CandidateQuery): QueryCommandInput {
  const { byStageOrStatus, byRequisitionOrUser, byChange, byRequisitionStage } = TABLE_DEF.indexes;
  switch (q.kind) {
    case 'changes':
      // `<since>#<id>` sorts after `<since>`, so a change at exactly `since` is included.
      return {
        TableName: tableName(),
        IndexName: byChange.name,
        KeyConditionExpression: '#cpk = :pk AND #csk >= :since',
        ExpressionAttributeNames: { '#cpk': byChange.partitionKey, '#csk': byChange.sortKey },
        ExpressionAttributeValues: { ':pk': changesPartition(tenantId), ':since': q.since },
        ScanIndexForward: true,
      };
    case 'all':
      return { ...prefixQuery(keys.tenantPartition(tenantId), keys.candidatePrefix), ConsistentRead: true };
    case 'stage':
      return {
        TableName: tableName(),
        IndexName: byStageOrStatus.name,
        KeyConditionExpression: `${byStageOrStatus.partitionKey} = :pk`,
        ExpressionAttributeValues: { ':pk': stagePartition(tenantId, q.stage) },
        ScanIndexForward: false,
      };
    case 'requisition':
      // A board column: one partition per requisition and stage, newest stage entry first.
      if (q.stage)
        return {
          TableName: tableName(),
          IndexName: byRequisitionStage.name,
          KeyConditionExpression: '#bpk = :pk',
          ExpressionAttributeNames: { '#bpk': byRequisitionStage.partitionKey },
          ExpressionAttributeValues: { ':pk': reqStagePartition(tenantId, q.reqId, q.stage) },
          ScanIndexForward: false,
        };
      return {
        TableName: tableName(),
        IndexName: byRequisitionOrUser.name,
        KeyConditionExpression: `${byRequisitionOrUser.partitionKey} = :pk`,
        ExpressionAttributeValues: { ':pk': reqCandidatesPartition(tenantId, q.reqId) },
        ScanIndexForward: false,
      };
  }
}

/**
 * One page of candidates, newest first, skipping `offset` matches. Skipped items are read
 * keys-only; each read after the first waits for the request's time budget (a 429 naming
 * `offset` when the skip cannot end in time). `Limit` never exceeds what is still wanted, so a
 * filtered page cannot overshoot.
 */
export async function queryCandidates(tenantId: string, q: CandidateQuery, offset: number, limit: number): Promise<Item[]> {
  const base = queryInput(tenantId, q);
  let startKey: Item | undefined;
  const { byStageOrStatus, byRequisitionOrUser, byRequisitionStage } = TABLE_DEF.indexes;
  const keyAttrs = [
    TABLE_DEF.partitionKey,
    TABLE_DEF.sortKey,
    byStageOrStatus.partitionKey,
    byStageOrStatus.sortKey,
    byRequisitionOrUser.partitionKey,
    byRequisitionOrUser.sortKey,
    byRequisitionStage.partitionKey,
    byRequisitionStage.sortKey,
  ];
  for (let skip = offset, reads = 0; skip > 0; reads++) {
    if (reads > 0) checkTimeBudget('offset');
    const page = await ddb.send(
      new QueryCommand({
        ...base,
        Limit: skip,
        ExclusiveStartKey: startKey,
        ProjectionExpression: keyAttrs.map((_, i) => `#k${i}`).join(', '),
        ExpressionAttributeNames: {
          ...base.ExpressionAttributeNames,
          ...Object.fromEntries(keyAttrs.map((k, i) => [`#k${i}`, k])),
        },
      }),
    );
    skip -= page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
    if (!startKey) return [];
  }
  if (offset > 0) checkTimeBudget('offset');
  if (q.kind !== 'changes' && q.source !== undefined) return (await queryFiltered(base, limit, startKey)).items;
  return queryUpTo(base, limit, startKey);
}

/** The most candidates one page of a filtered list reads (and the most each of its Queries evaluates). */
export const FILTERED_PAGE_READS = 1_000;
const FILTERED_QUERY_READS = 200;

/**
 * Up to `limit` matches of a filtered Query from `startKey` on, reading at most
 * FILTERED_PAGE_READS items, in Queries of FILTERED_QUERY_READS (a rare value would otherwise
 * cost a Query per few items). `next`: where the next page starts (the last match of a full
 * page, or where the reading stopped), none at the end; a page can be short, even empty, and
 * still have one.
 */
export async function queryFiltered(
  input: QueryCommandInput,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: Item[]; next?: Item }> {
  const items: Item[] = [];
  let read = 0;
  for await (const page of queryPages(input, { startKey, limit: () => Math.min(FILTERED_QUERY_READS, FILTERED_PAGE_READS - read) })) {
    read += page.ScannedCount ?? 0;
    items.push(...(page.Items ?? []));
    if (items.length >= limit) return { items: items.slice(0, limit), next: items[limit - 1] };
    if (!page.LastEvaluatedKey) return { items };
    if (read >= FILTERED_PAGE_READS) return { items, next: page.LastEvaluatedKey };
  }
  return { items };
}

/** Candidates who entered `stage` before `cutoff`, longest waiting first. */
export async function queryStageEnteredBefore(tenantId: string, stage: Stage, cutoff: string, limit: number): Promise<Item[]> {
  const { byStageOrStatus } = TABLE_DEF.indexes;
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: byStageOrStatus.name,
      KeyConditionExpression: '#pk = :pk AND #sk < :cutoff',
      ExpressionAttributeNames: { '#pk': byStageOrStatus.partitionKey, '#sk': byStageOrStatus.sortKey },
      ExpressionAttributeValues: { ':pk': stagePartition(tenantId, stage), ':cutoff': cutoff },
      ScanIndexForward: true,
      Limit: limit,
    }),
  );
  return Items;
}

const CANDIDATE_SK = new RegExp(`^${keys.candidatePrefix}[0-9a-f-]{36}$`);

/**
 * Where a page of this query ends: the key attributes that position a candidate in it (its
 * LastEvaluatedKey: the table key, plus the index key when it runs on an index), and the
 * partition values such a key must carry; anything else is not its key.
 */
export function candidatePageKey(tenantId: string, q: CandidateQuery): PageKeyShape {
  const { byStageOrStatus, byRequisitionOrUser, byChange, byRequisitionStage } = TABLE_DEF.indexes;
  const table = {
    attrs: [TABLE_DEF.partitionKey, TABLE_DEF.sortKey],
    partitions: { [TABLE_DEF.partitionKey]: keys.tenantPartition(tenantId) },
  };
  const on = (index: IndexDef, partition: string): PageKeyShape => ({
    attrs: [...table.attrs, index.partitionKey, index.sortKey],
    partitions: { ...table.partitions, [index.partitionKey]: partition },
    sortKey: CANDIDATE_SK,
  });
  if (q.kind === 'changes') return on(byChange, changesPartition(tenantId));
  if (q.kind === 'stage') return on(byStageOrStatus, stagePartition(tenantId, q.stage));
  if (q.kind === 'requisition' && q.stage) return on(byRequisitionStage, reqStagePartition(tenantId, q.reqId, q.stage));
  if (q.kind === 'requisition') return on(byRequisitionOrUser, reqCandidatesPartition(tenantId, q.reqId));
  return { ...table, sortKey: CANDIDATE_SK };
}

/**
 * One page of candidates starting after `startKey` (a page key of the same query), in the same
 * order as queryCandidates. One Query, unless the list is filtered by source (queryFiltered).
 */
export async function queryCandidatesAfter(
  tenantId: string,
  q: CandidateQuery,
  startKey: Record<string, string>,
  limit: number,
): Promise<Item[]> {
  return queryUpTo(queryInput(tenantId, q), limit, startKey);
}

/** One page of a list filtered by source (queryFiltered), from the start or after a page key of the same query. */
export function queryFilteredCandidates(
  tenantId: string,
  q: CandidateQuery,
  limit: number,
  startKey?: Record<string, string>,
): Promise<{ items: Item[]; next?: Item }> {
  return queryFiltered(queryInput(tenantId, q), limit, startKey);
}
