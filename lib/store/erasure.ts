/**
 * Erasing a candidate's personal data (its declaration's personal fields, lib/entities/candidate.ts)
 * from every item that holds
 * it, so that the erasure wins every race with work in flight:
 * 1. the **marker** (`keys.erasedMarker`) is put first: from then on no writer makes a copy of the
 *    candidate's data, since each checks the marker in the very write that makes one
 *    (lib/store/copies.ts; placements go in the candidate's own transaction);
 * 2. the copies written before it are swept (lib/store/scrub.ts): the copy ledger lists each one,
 *    read consistently;
 * 3. one transaction scrubs the candidate (conditioned on the version read: a change in between
 *    makes the erasure read, sweep and decide again), keeps the receipt on it, puts the marker
 *    with its final time and the **follow-up** (a sweep again once every write in flight at the
 *    erasure has ended), and deletes the search entries; `extra` adds the audit record.
 * A later sweep (a repeated erase, the follow-up, the daily retention run) scrubs whatever it
 * finds and adds it to the receipt. The stuck index is attributes of the candidate item itself;
 * stage history holds no personal data.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { candidate } from '../entities/candidate';
import { erasure } from '../entity';
import { NotFoundError } from '../errors';
import { logger } from '../logger';
import { SCRUBBED_KINDS, type RetentionRule } from '../model';
import { existingKeys, keyOf } from './batch';
import { ddb, queryAll, queryUpTo, tableName } from './client';
import type { Item } from './codec';
import { countOf, emptyCounts, scrubCopies, type ScrubCounts } from './scrub';
import { candidateTokens, searchKey } from './search';
import { changeIndexKey, keys, TABLE_DEF } from './table';
import { cancellationReasons, isTransactionConflict, backoff, MAX_ATTEMPTS } from './tx';
import { $remove, update } from './update';

export type { ScrubbedKind, ScrubCounts } from './scrub';

/** Who erased: a token or a user (as in history), or the service running a workspace's retention rule. */
export type ErasureActor =
  | { type: 'token'; id: string; name?: string }
  | { type: 'user'; id: string; email?: string }
  | { type: 'system'; rule: RetentionRule }
  /** The applicant, through the withdraw link of their confirmation email (lib/domain/withdrawal.ts). */
  | { type: 'applicant' };

export interface ErasureReceipt {
  id: string;
  erased_at: string;
  scrubbed: ScrubCounts;
  actor: ErasureActor;
  /** The candidate's person, erased with it: their id, their candidates erased (this one included), their own items deleted. */
  person?: PersonErased;
}

export interface PersonErased {
  id: string;
  candidates: number;
  items: number;
  /** The person's files whose bytes (every version) and text were deleted. */
  files?: number;
}

/**
 * The marker outlives every kept event body (32 days) and so every resend, replay or retry of
 * the candidate's events: a day more than them.
 */
export const ERASED_MARKER_TTL_S = 33 * 86_400;
/** A follow-up the scheduled run never reached leaves by TTL this long after it was due. */
const FOLLOW_UP_TTL_S = 7 * 86_400;

const epochS = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const markerItem = (tenantId: string, candidateId: string, at: string) => ({
  ...keys.erasedMarker(tenantId, candidateId),
  type: 'erased_marker',
  candidate_id: candidateId,
  erased_at: at,
  [TABLE_DEF.ttlAttribute]: epochS(at) + ERASED_MARKER_TTL_S,
});

/** The marker, before anything else is read or written; true when this call put it (none was there). */
async function putMarkerFirst(tenantId: string, candidateId: string, at: string): Promise<boolean> {
  try {
    await ddb.send(
      new PutCommand({
        TableName: tableName(),
        Item: markerItem(tenantId, candidateId, at),
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * An erasure that failed after putting its marker takes it back, so the candidate's events flow
 * again, unless the candidate was erased meanwhile (another call). Best effort: a marker left
 * behind only drops the events of a candidate someone asked to erase.
 */
async function withdrawMarker(tenantId: string, candidateId: string, at: string) {
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: keys.erasedMarker(tenantId, candidateId),
              ConditionExpression: 'erased_at = :at',
              ExpressionAttributeValues: { ':at': at },
            },
          },
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.candidate(tenantId, candidateId),
              ConditionExpression: 'attribute_not_exists(erased_at)',
            },
          },
        ],
      }),
    );
  } catch (err) {
    logger.warn('erasure marker not withdrawn', { error: (err as Error).name });
  }
}

/** The follow-up sweep of an erasure, due at `dueAt`, put in the erasure's own transaction. */
const followUpPut = (tenantId: string, candidateId: string, dueAt: string) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.erasureFollowUp(tenantId, candidateId, dueAt),
      type: 'erasure_follow_up',
      tenant_id: tenantId,
      candidate_id: candidateId,
      due_at: dueAt,
      [TABLE_DEF.ttlAttribute]: epochS(dueAt) + FOLLOW_UP_TTL_S,
    },
  },
});

/** The erasure record the candidate item keeps: the receipt a later call answers, with what later sweeps added. */
const receiptAttr = 'erasure';

export const receiptOf = (item: Item): ErasureReceipt | undefined => {
  const r = item[receiptAttr] as ErasureReceipt | undefined;
  return r && typeof r.erased_at === 'string' ? { ...r, id: String(item.id) } : undefined;
};

const readCandidate = async (tenantId: string, candidateId: string) =>
  (await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.candidate(tenantId, candidateId), ConsistentRead: true }))).Item;

/**
 * Erase a candidate (see the top of this file). A candidate already erased answers its receipt
 * with `first: false` and writes nothing: a later sweep is sweepErased's. The follow-up is due
 * `followUpAfterMs` after the erasure.
 */
export async function eraseCandidateItems(
  tenantId: string,
  candidateId: string,
  actor: ErasureActor,
  now: () => string,
  extra: (receipt: ErasureReceipt) => Record<string, unknown>[] = () => [],
  followUpAfterMs = 0,
  person?: PersonErased,
): Promise<{ receipt: ErasureReceipt; first: boolean }> {
  let current = await readCandidate(tenantId, candidateId);
  if (!current) throw new NotFoundError('candidate');
  const done = receiptOf(current);
  if (done) return { receipt: done, first: false };
  const markedAt = now();
  const placed = await putMarkerFirst(tenantId, candidateId, markedAt);
  const counts = emptyCounts();
  try {
    for (let attempt = 1; ; attempt++) {
      const at = attempt === 1 ? markedAt : now();
      await scrubCopies(tenantId, candidateId, at, counts);
      const tokens = candidateTokens(current as { name: string; email?: string });
      const receipt: ErasureReceipt = {
        id: candidateId,
        erased_at: at,
        scrubbed: { ...counts, candidate: 1, search_entries: tokens.length },
        actor,
        ...(person && { person }),
      };
      try {
        await ddb.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.candidate(tenantId, candidateId),
                  ...update(
                    {
                      ...erasure(candidate, $remove),
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
              { Put: { TableName: tableName(), Item: markerItem(tenantId, candidateId, at) } },
              followUpPut(tenantId, candidateId, new Date(Date.parse(at) + followUpAfterMs).toISOString()),
              ...tokens.map((t) => ({ Delete: { TableName: tableName(), Key: searchKey(tenantId, t, candidateId) } })),
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
        // Changed (or erased by another call) since it was read: read, sweep and decide again.
        current = await readCandidate(tenantId, candidateId);
        if (!current) throw new NotFoundError('candidate');
        const other = receiptOf(current);
        if (other) return { receipt: other, first: false };
        await backoff(attempt);
      }
    }
  } catch (err) {
    if (placed) await withdrawMarker(tenantId, candidateId, markedAt);
    throw err;
  }
}

/**
 * Sweep an erased candidate's copies again (a repeated erase call, the follow-up, the daily
 * retention run): what it scrubs is added to the receipt, with `extra` (the audit record of the
 * sweep) in the same transaction. Undefined when the candidate is not (or no longer) erased.
 */
export async function sweepErased(
  tenantId: string,
  candidateId: string,
  extra: (added: ScrubCounts, receipt: ErasureReceipt) => Record<string, unknown>[] = () => [],
  /** The receipt as the caller just read it: spares reading the candidate again. */
  known?: ErasureReceipt,
): Promise<{ receipt: ErasureReceipt; added: ScrubCounts } | undefined> {
  const current = known ? undefined : await readCandidate(tenantId, candidateId);
  const receipt = known ?? (current && receiptOf(current));
  if (!receipt) return undefined;
  const added = await scrubCopies(tenantId, candidateId, receipt.erased_at);
  if (!countOf(added)) return { receipt, added };
  const kinds = SCRUBBED_KINDS.filter((k) => added[k] > 0);
  const scrubbed = { ...receipt.scrubbed };
  for (const k of kinds) scrubbed[k] = (scrubbed[k] ?? 0) + added[k];
  const after = { ...receipt, scrubbed };
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.candidate(tenantId, candidateId),
            // Added, not set: two sweeps at once scrub different copies and both count.
            UpdateExpression: `SET ${kinds.map((_, n) => `#r.#s.#k${n} = if_not_exists(#r.#s.#k${n}, :zero) + :n${n}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(#r)',
            ExpressionAttributeNames: { '#r': receiptAttr, '#s': 'scrubbed', ...Object.fromEntries(kinds.map((k, n) => [`#k${n}`, k])) },
            ExpressionAttributeValues: { ':zero': 0, ...Object.fromEntries(kinds.map((k, n) => [`:n${n}`, added[k]])) },
          },
        },
        ...extra(added, after),
      ],
    }),
  );
  return { receipt: after, added };
}

/** Follow-ups due at `nowIso`, oldest first, at most `limit`: one Query of their partition. */
export async function dueFollowUps(nowIso: string, limit: number): Promise<{ tenantId: string; candidateId: string; sk: string }[]> {
  const items = await queryUpTo(
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK < :upto',
      ExpressionAttributeValues: { ':pk': keys.erasureFollowUpPartition(), ':upto': `${nowIso}#~` },
      ConsistentRead: true,
    },
    limit,
  );
  return items.map((i) => ({ tenantId: String(i.tenant_id), candidateId: String(i.candidate_id), sk: String(i.SK) }));
}

/** A follow-up done: its item goes (running it again would only sweep again). */
export async function followUpDone(sk: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { PK: keys.erasureFollowUpPartition(), SK: sk } }));
}

/**
 * Which of these candidates were erased (their markers, `tenant/candidate` keys): what a batch of
 * deliveries reads once, all at once (no added wait beside the batch's other reads), in the
 * webhook partitions the delivery function may read: BatchGetItem, 100 markers per call.
 */
export async function erasedAmong(pairs: { tenantId: string; candidateId: string }[]): Promise<Set<string>> {
  const markers = pairs.map((p) => ({ pair: `${p.tenantId}/${p.candidateId}`, key: keys.erasedMarker(p.tenantId, p.candidateId) }));
  const found = await existingKeys(markers.map((m) => m.key));
  return new Set(markers.filter((m) => found.has(keyOf(m.key))).map((m) => m.pair));
}

/** Candidates erased in a workspace since `since` (their markers, 33 days at most): one Query. */
export async function recentErasures(tenantId: string, since: string): Promise<string[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    FilterExpression: 'erased_at >= :since',
    ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenantId), ':p': keys.erasedMarkerPrefix, ':since': since },
  });
  return items.map((i) => String(i.candidate_id));
}
