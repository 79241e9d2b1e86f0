/**
 * Erasing a candidate's personal data (name, email, phone, resume_url) from every item that holds
 * it. The copies are found without a Scan:
 * - the candidate item and its search entries: their keys follow from the candidate's id, name
 *   and email (lib/store/search.ts);
 * - every other copy (kept webhook bodies, delivery attempts, placements, idempotency records)
 *   carries the candidate's copy-index key (GSI2, `copyIndexKey`), set in the write that makes
 *   the copy: one Query on one small partition lists them;
 * - the stuck index is attributes of the candidate item itself; stage history holds no personal
 *   data (stages, times, actors).
 * Copies are scrubbed in place (their ids, times and counts stay) and leave the copy index. The
 * last write is one transaction: the candidate's scrub with its receipt, the marker that drops
 * queued deliveries, and the search entries' deletes.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { NotFoundError } from '../errors';
import { SCRUBBED_KINDS, type RetentionRule } from '../model';
import { ddb, queryAll, tableName } from './client';
import type { Item } from './codec';
import { candidateTokens, searchKey } from './search';
import { changeIndexKey, copiesPartition, keys, TABLE_DEF } from './table';
import { cancellationReasons, isTransactionConflict, backoff, MAX_ATTEMPTS } from './tx';
import { $remove, update } from './update';

export type ScrubbedKind = (typeof SCRUBBED_KINDS)[number];
export type ScrubCounts = Record<ScrubbedKind, number>;

/** Who erased: a token or a user (as in history), or the service running a workspace's retention rule. */
export type ErasureActor =
  | { type: 'token'; id: string; name?: string }
  | { type: 'user'; id: string; email?: string }
  | { type: 'system'; rule: RetentionRule };

export interface ErasureReceipt {
  id: string;
  erased_at: string;
  scrubbed: ScrubCounts;
  actor: ErasureActor;
}

/**
 * The marker outlives every kept event body (32 days) and so every resend, replay or retry of
 * the candidate's events: a day more than them.
 */
export const ERASED_MARKER_TTL_S = 33 * 86_400;

const { byRequisitionOrUser } = TABLE_DEF.indexes;
const copyKeyAttrs = [byRequisitionOrUser.partitionKey, byRequisitionOrUser.sortKey];

/** Every item the copy index lists for a candidate: keys and type only. */
export async function listCopies(tenantId: string, candidateId: string): Promise<Item[]> {
  return queryAll({
    TableName: tableName,
    IndexName: byRequisitionOrUser.name,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': byRequisitionOrUser.partitionKey, '#t': 'type' },
    ExpressionAttributeValues: { ':pk': copiesPartition(tenantId, candidateId) },
    ProjectionExpression: 'PK, SK, #t',
  });
}

const emptyCounts = (): ScrubCounts => Object.fromEntries(SCRUBBED_KINDS.map((k) => [k, 0])) as ScrubCounts;

/** An in-place scrub of one copy, conditioned on the copy still holding what it removes. */
async function scrubIf(key: Item, changes: Record<string, unknown>, holds: string): Promise<boolean> {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { PK: key.PK, SK: key.SK },
        ...update(
          { ...changes, ...Object.fromEntries(copyKeyAttrs.map((a) => [a, $remove()])) },
          // TTL may have deleted it meanwhile: never write a husk back.
          { expression: `attribute_exists(PK) AND (${holds})` },
        ),
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * The answer an idempotency record keeps (an API Gateway result: status, headers, JSON body),
 * with the candidate's personal fields emptied as GET answers them after erasure.
 */
export function scrubStoredResponse(response: unknown, candidateId: string, erasedAt: string): unknown {
  const r = response as { body?: unknown } | undefined;
  if (!r || typeof r.body !== 'string') return response;
  let body: { data?: Record<string, unknown> };
  try {
    body = JSON.parse(r.body);
  } catch {
    return { ...r, body: '' };
  }
  const data = body?.data;
  if (!data || data.id !== candidateId) return { ...r, body: '' };
  const scrubbed: Record<string, unknown> = { ...data, erased_at: erasedAt };
  if ('name' in scrubbed) scrubbed.name = '';
  for (const f of ['email', 'phone', 'resume_url']) if (f in scrubbed) scrubbed[f] = null;
  return { ...r, body: JSON.stringify({ ...body, data: scrubbed }) };
}

/** Scrub one listed copy by its kind; true when this call changed it. */
async function scrubCopy(tenantId: string, candidateId: string, copy: Item, erasedAt: string): Promise<ScrubbedKind | undefined> {
  switch (copy.type) {
    case 'webhook_event':
      // The body is the signed envelope: it goes whole; `erased_at` tells resend and replay why.
      return (await scrubIf(copy, { body: $remove(), erased_at: erasedAt }, 'attribute_exists(body)')) ? 'webhook_events' : undefined;
    case 'webhook_attempt':
      // A receiver's answer may echo the payload.
      return (await scrubIf(copy, { response_body: $remove(), erased_at: erasedAt }, 'attribute_not_exists(erased_at)'))
        ? 'delivery_attempts'
        : undefined;
    case 'placement':
      return (await scrubIf(copy, { candidate_name: '', erased_at: erasedAt }, 'attribute_not_exists(erased_at)'))
        ? 'placements'
        : undefined;
    default:
      if (String(copy.PK) === keys.idempotencyPartition(tenantId)) return scrubIdempotencyRecord(copy, candidateId, erasedAt);
      return undefined;
  }
}

/**
 * An idempotency record keeps the first answer, which names the candidate: the answer is kept
 * with the personal fields emptied, so a retry with the same key still gets an answer (the
 * erased record), never a second write.
 */
async function scrubIdempotencyRecord(copy: Item, candidateId: string, erasedAt: string): Promise<ScrubbedKind | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: { PK: copy.PK, SK: copy.SK }, ConsistentRead: true }));
  if (!Item || Item.erased_at) return undefined;
  const changes: Record<string, unknown> = { erased_at: erasedAt };
  if (Item.idem_response !== undefined) changes.idem_response = scrubStoredResponse(Item.idem_response, candidateId, erasedAt);
  return (await scrubIf(copy, changes, 'attribute_not_exists(erased_at)')) ? 'idempotency_records' : undefined;
}

/** Scrub every copy the index lists now; counts what this call changed. */
export async function scrubCopies(tenantId: string, candidateId: string, erasedAt: string, counts = emptyCounts()): Promise<ScrubCounts> {
  const copies = await listCopies(tenantId, candidateId);
  // A few at a time: a candidate with hundreds of deliveries finishes in a few seconds.
  for (let i = 0; i < copies.length; i += SCRUB_PARALLEL) {
    const kinds = await Promise.all(copies.slice(i, i + SCRUB_PARALLEL).map((c) => scrubCopy(tenantId, candidateId, c, erasedAt)));
    for (const k of kinds) if (k) counts[k]++;
  }
  return counts;
}
const SCRUB_PARALLEL = 16;

/** The erasure record the candidate item keeps: the receipt a second call answers again. */
const receiptAttr = 'erasure';

export const receiptOf = (item: Item): ErasureReceipt | undefined => {
  const r = item[receiptAttr] as ErasureReceipt | undefined;
  return r && typeof r.erased_at === 'string' ? { ...r, id: String(item.id) } : undefined;
};

/**
 * Erase a candidate: scrub its copies, then one transaction scrubs the candidate (conditioned on
 * the version read, so a concurrent change makes it read and decide again), keeps the receipt on
 * it, puts the delivery marker and deletes the search entries. `extra` adds entries to that
 * transaction (the audit record). A candidate already erased answers its first receipt.
 */
export async function eraseCandidateItems(
  tenantId: string,
  candidateId: string,
  actor: ErasureActor,
  now: () => string,
  extra: (receipt: ErasureReceipt) => Record<string, unknown>[] = () => [],
): Promise<{ receipt: ErasureReceipt; first: boolean }> {
  const counts = emptyCounts();
  for (let attempt = 1; ; attempt++) {
    const { Item: current } = await ddb.send(
      new GetCommand({ TableName: tableName, Key: keys.candidate(tenantId, candidateId), ConsistentRead: true }),
    );
    if (!current) throw new NotFoundError('candidate');
    const done = receiptOf(current);
    if (done) return { receipt: done, first: false };
    const at = now();
    await scrubCopies(tenantId, candidateId, at, counts);
    const tokens = candidateTokens(current as { name: string; email?: string });
    const receipt: ErasureReceipt = {
      id: candidateId,
      erased_at: at,
      scrubbed: { ...counts, candidate: 1, search_entries: tokens.length },
      actor,
    };
    try {
      await ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.candidate(tenantId, candidateId),
                ...update(
                  {
                    name: '',
                    email: $remove(),
                    phone: $remove(),
                    resume_url: $remove(),
                    erased_at: at,
                    updated_at: at,
                    ...changeIndexKey(tenantId, at, candidateId),
                    [receiptAttr]: receipt,
                  },
                  {
                    expression: 'attribute_not_exists(erased_at) AND updated_at = :seen',
                    values: { ':seen': current.updated_at },
                  },
                ),
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: {
                  ...keys.erasedMarker(tenantId, candidateId),
                  type: 'erased_marker',
                  candidate_id: candidateId,
                  erased_at: at,
                  [TABLE_DEF.ttlAttribute]: Math.floor(Date.parse(at) / 1000) + ERASED_MARKER_TTL_S,
                },
              },
            },
            ...tokens.map((t) => ({ Delete: { TableName: tableName, Key: searchKey(tenantId, t, candidateId) } })),
            ...extra(receipt),
          ],
        }),
      );
      return { receipt, first: true };
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      if (reasons[0]?.Code !== 'ConditionalCheckFailed' && !isTransactionConflict(reasons)) throw err;
      if (attempt >= MAX_ATTEMPTS) throw err;
      await backoff(attempt);
    }
  }
}

/**
 * Which of these candidates were erased (their markers, `tenant/candidate` keys): what a batch of
 * deliveries or stream records reads once, all at once (no added wait beside the batch's other
 * reads), in the webhook partitions the delivery function may read. GetItem, not BatchGetItem: no
 * function is granted that, and a batch names few candidates.
 */
export async function erasedAmong(pairs: { tenantId: string; candidateId: string }[]): Promise<Set<string>> {
  const unique = [...new Map(pairs.map((p) => [`${p.tenantId}/${p.candidateId}`, p])).entries()];
  const found = await Promise.all(
    unique.map(async ([key, p]) => {
      const { Item } = await ddb.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.erasedMarker(p.tenantId, p.candidateId),
          ConsistentRead: true,
          ProjectionExpression: 'PK',
        }),
      );
      return Item ? key : undefined;
    }),
  );
  return new Set(found.filter((k): k is string => k !== undefined));
}

/** Candidates erased in a workspace since `since` (their markers, 33 days at most): one Query. */
export async function recentErasures(tenantId: string, since: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    FilterExpression: 'erased_at >= :since',
    ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenantId), ':p': keys.erasedMarkerPrefix, ':since': since },
  });
  return items.map((i) => String(i.candidate_id));
}
