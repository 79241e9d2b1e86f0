/**
 * Finding and scrubbing the copies of one candidate's personal data, without a Scan:
 * - the **copy ledger** (lib/store/copies.ts), read consistently: every copy written since it
 *   exists, listed in the very write that made the copy;
 * - the **copy index** (GSI2, `copyIndexKey`): copies written before the ledger carry its key.
 *   An index is read eventually consistently, so it is only ever the older copies' way in.
 * Each copy is scrubbed in place (its ids, times and counts stay), conditioned on it still holding
 * what is removed (a copy TTL deleted meanwhile is never written back as a husk), and leaves the
 * index; the ledger entries read are then deleted, so a later sweep reads only what came since.
 * The candidate item and its search entries are the erasure's own transaction's (erasure.ts).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deliveryAttempt } from '../entities/delivery-attempt';
import { offer, offerVersion } from '../entities/offer';
import { placement } from '../entities/placement';
import { erasure } from '../entity';
import { SCRUBBED_KINDS } from '../model';
import { ddb, queryAll, tableName } from './client';
import { COPY_OF, listLedger, type CopyRef } from './copies';
import { copiesPartition, keys, TABLE_DEF } from './table';
import { scrubStoredResponse } from './stored-response';
import { $remove, update } from './update';

export { scrubStoredResponse };

export type ScrubbedKind = (typeof SCRUBBED_KINDS)[number];
export type ScrubCounts = Record<ScrubbedKind, number>;

export const emptyCounts = (): ScrubCounts => Object.fromEntries(SCRUBBED_KINDS.map((k) => [k, 0])) as ScrubCounts;
export const countOf = (c: ScrubCounts) => Object.values(c).reduce((a, b) => a + b, 0);

const { byRequisitionOrUser } = TABLE_DEF.indexes;
const copyKeyAttrs = [byRequisitionOrUser.partitionKey, byRequisitionOrUser.sortKey];

/** The older copies the copy index lists for a candidate (eventually consistent): keys and type only. */
async function indexedCopies(tenantId: string, candidateId: string): Promise<CopyRef[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: byRequisitionOrUser.name,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': byRequisitionOrUser.partitionKey, '#t': 'type' },
    ExpressionAttributeValues: { ':pk': copiesPartition(tenantId, candidateId) },
    ProjectionExpression: 'PK, SK, #t',
  });
  return items.map((i) => ({ PK: String(i.PK), SK: String(i.SK), type: String(i.type ?? '') }));
}

/**
 * An in-place scrub of one copy, conditioned on the copy still holding what it removes. It leaves
 * the copy index; `keepIndex` keeps the GSI2 key of a copy listed there for its own sake (an
 * offer in its candidate's offers).
 */
async function scrubIf(key: CopyRef, changes: Record<string, unknown>, holds: string, keepIndex = false): Promise<boolean> {
  try {
    await ddb.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: key.PK, SK: key.SK },
        ...update(
          { ...changes, [COPY_OF]: $remove(), ...(!keepIndex && Object.fromEntries(copyKeyAttrs.map((a) => [a, $remove()]))) },
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

/** Scrub one listed copy by its kind; the kind when this call changed it. */
async function scrubCopy(tenantId: string, candidateId: string, copy: CopyRef, erasedAt: string): Promise<ScrubbedKind | undefined> {
  switch (copy.type) {
    case 'webhook_event':
      // The body is the signed envelope: it goes whole; `erased_at` tells resend and replay why.
      return (await scrubIf(copy, { body: $remove(), erased_at: erasedAt }, 'attribute_exists(body)')) ? 'webhook_events' : undefined;
    case 'webhook_attempt':
      // A receiver's answer may echo the payload.
      return (await scrubIf(copy, { ...erasure(deliveryAttempt, $remove), erased_at: erasedAt }, 'attribute_not_exists(erased_at)'))
        ? 'delivery_attempts'
        : undefined;
    case 'placement':
      return (await scrubIf(copy, { ...erasure(placement, $remove), erased_at: erasedAt }, 'attribute_not_exists(erased_at)'))
        ? 'placements'
        : undefined;
    case 'offer':
      // Its ids, dates and statuses stay, and so does its place in the candidate's offers.
      return (await scrubIf(copy, { ...erasure(offer, $remove), erased_at: erasedAt }, 'attribute_not_exists(erased_at)', true))
        ? 'offers'
        : undefined;
    case 'offer_approval':
      // An approver's comment; who decided what, on which version and when, stays.
      return (await scrubIf(copy, { comment: $remove(), erased_at: erasedAt }, 'attribute_not_exists(erased_at)'))
        ? 'offer_approvals'
        : undefined;
    case 'offer_version':
      return (await scrubIf(copy, { ...erasure(offerVersion, $remove), erased_at: erasedAt }, 'attribute_not_exists(erased_at)'))
        ? 'offer_versions'
        : undefined;
    default:
      if (copy.PK === keys.idempotencyPartition(tenantId)) return scrubIdempotencyRecord(copy, candidateId, erasedAt);
      return undefined;
  }
}

/**
 * An idempotency record keeps the first answer, which names the candidate: the answer is kept
 * with the personal fields emptied, so a retry with the same key still gets an answer (the
 * erased record), never a second write.
 */
async function scrubIdempotencyRecord(copy: CopyRef, candidateId: string, erasedAt: string): Promise<ScrubbedKind | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: { PK: copy.PK, SK: copy.SK }, ConsistentRead: true }));
  if (!Item || Item.erased_at) return undefined;
  const changes: Record<string, unknown> = { erased_at: erasedAt };
  if (Item.idem_response !== undefined) changes.idem_response = scrubStoredResponse(Item.idem_response, candidateId, erasedAt);
  return (await scrubIf(copy, changes, 'attribute_not_exists(erased_at)')) ? 'idempotency_records' : undefined;
}

/** Calls at once: a candidate with hundreds of deliveries is swept in a few seconds. */
const SCRUB_PARALLEL = 16;

async function inTurns<T>(items: T[], each: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += SCRUB_PARALLEL) await Promise.all(items.slice(i, i + SCRUB_PARALLEL).map(each));
}

/**
 * Sweep: scrub every copy the ledger and the copy index list now, then delete the ledger entries
 * read (their copies are scrubbed, and no copy can be written after the erasure's marker). Counts
 * what this call changed into `counts`. A failed scrub throws before any entry is deleted.
 */
export async function scrubCopies(tenantId: string, candidateId: string, erasedAt: string, counts = emptyCounts()): Promise<ScrubCounts> {
  const [ledger, indexed] = await Promise.all([listLedger(tenantId, candidateId), indexedCopies(tenantId, candidateId)]);
  const copies = new Map<string, CopyRef>();
  for (const c of [...ledger.flatMap((e) => e.copies), ...indexed]) copies.set(`${c.PK}\u0000${c.SK}`, c);
  await inTurns([...copies.values()], async (c) => {
    const kind = await scrubCopy(tenantId, candidateId, c, erasedAt);
    if (kind) counts[kind]++;
  });
  await inTurns(ledger, async (e) => void (await ddb.send(new DeleteCommand({ TableName: tableName(), Key: e.key }))));
  return counts;
}
