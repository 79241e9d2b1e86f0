/**
 * Copies of a candidate's personal data, written so that an erasure always wins:
 * - every write that makes a copy also puts a **ledger entry** (`keys.copyLedger`, in the webhook
 *   partition) listing the copies' keys, in the same transaction, so an erasure lists them all
 *   with one consistent Query of the base table (an index cannot be read consistently);
 * - a copy made outside the candidate's own transaction (kept webhook bodies, delivery attempts
 *   holding a receiver's answer, idempotency records) is written on condition that the candidate
 *   has no erasure marker (`keys.erasedMarker`), in that same transaction. Once the marker exists
 *   nothing personal is written: an attempt is logged without the receiver's answer, a body is not
 *   kept, and the caller learns which copies were refused.
 * The erasure puts the marker first and sweeps after it (lib/store/erasure.ts), so a copy is either
 * written before the marker, and listed when the sweep reads the ledger, or refused.
 * Placements need no marker check: they are written in the candidate's own transaction, which
 * an erasure's conditioned update of the candidate orders against (lib/store/candidates.ts).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { newId } from '../ids';
import { logger } from '../logger';
import { batchPut } from './batch';
import { ddb, queryAll, tableName } from './client';
import type { Item } from './codec';
import { keys, TABLE_DEF, tenantOfWebhookPartition } from './table';
import { cancellationReasons, itemSeen } from './tx';

/** On a webhook item (kept body, attempt) that copies a candidate's personal data: that candidate's id. */
export const COPY_OF = 'copy_of';

/** A copy as a ledger entry lists it: its key and its kind (the item's `type`). */
export interface CopyRef {
  PK: string;
  SK: string;
  type: string;
}

/** A ledger entry as erasure reads it. */
export interface LedgerEntry {
  key: { PK: string; SK: string };
  copies: CopyRef[];
}

const refOf = (i: Item): CopyRef => ({ PK: String(i.PK), SK: String(i.SK), type: String(i.type) });
const ttlOf = (i: Item) => i[TABLE_DEF.ttlAttribute] as number | undefined;

/** The ledger entry of copies of one candidate made by one write: it lives as long as the longest-lived of them. */
export function ledgerItem(tenantId: string, candidateId: string, copies: Item[]): Item {
  const ttls = copies.map(ttlOf);
  return {
    ...keys.copyLedger(tenantId, candidateId, newId()),
    type: 'copy_ledger',
    candidate_id: candidateId,
    copies: copies.map(refOf),
    ...(ttls.every((t) => typeof t === 'number') && { [TABLE_DEF.ttlAttribute]: Math.max(...(ttls as number[])) }),
  };
}

/** The condition every write of a copy carries: its candidate has no erasure marker (handed back when it has). */
export const notErasedCheck = (tenantId: string, candidateId: string) => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.erasedMarker(tenantId, candidateId),
    ConditionExpression: 'attribute_not_exists(PK)',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  },
});

/** The puts of a copy made in its candidate's own transaction (a placement): the item and its ledger entry. */
export const copyPuts = (tenantId: string, candidateId: string, item: Item) => [
  { Put: { TableName: tableName(), Item: item } },
  { Put: { TableName: tableName(), Item: ledgerItem(tenantId, candidateId, [item]) } },
];
/** Actions copyPuts adds to a transaction (the import sizes its transactions by it). */
export const COPY_PUT_ACTIONS = 2;

/** Every ledger entry of a candidate: one consistent Query of the base table. */
export async function listLedger(tenantId: string, candidateId: string): Promise<LedgerEntry[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': keys.webhookPartition(tenantId), ':p': keys.copyLedgerPrefix(candidateId) },
    ProjectionExpression: 'PK, SK, copies',
    ConsistentRead: true,
  });
  return items.map((i) => ({ key: { PK: String(i.PK), SK: String(i.SK) }, copies: (i.copies ?? []) as CopyRef[] }));
}

// ---- the webhook pipeline's writes: kept bodies and delivery attempts -----------------------

export interface GuardedWrite {
  /** Items that could not be written: the caller treats them as not recorded (and retries). */
  unwritten: Item[];
  /**
   * Copies whose candidate was found erased: a kept body was not written, an attempt was written
   * without the receiver's answer (its other fields are the delivery log's, not personal).
   */
  erased: Item[];
}

/** TransactWriteItems' limit per call. */
const MAX_ACTIONS = 100;
/** Calls per transaction, the first included, before its items count as not written. */
const MAX_CALLS = 5;
const NOT_RETRIED = new Set(['ValidationException', 'AccessDeniedException']);
const backoff = (call: number) => sleep(Math.random() * Math.min(1_000, 25 * 2 ** call));
const keyOf = (i: Item) => `${i.PK}\u0000${i.SK}`;

/** The copies of one candidate in one transaction (`candidateId`), or one item that copies nobody's data. */
interface Group {
  tenantId?: string;
  candidateId?: string;
  items: Item[];
  /** Its ledger entry: made once, so a retried call writes the same one. */
  ledger?: Item;
  /** Set once the candidate is found erased: the time its marker names. */
  erasedAt?: string;
  /** Set when its transaction could not be written, even alone. */
  failed?: boolean;
}

/** What an erased candidate's copy is written as: an attempt without the receiver's answer; a kept body not at all. */
function withoutCopy(i: Item, erasedAt: string): Item | undefined {
  if (i.type !== 'webhook_attempt') return undefined;
  const { response_body: _answer, [COPY_OF]: _of, ...rest } = i;
  return { ...rest, erased_at: erasedAt };
}

/** Groups by candidate, each at most a transaction's size with its check and ledger entry, then packed into transactions. */
function transactions(items: Item[]): Group[][] {
  const byCandidate = new Map<string, Group>();
  const plain: Item[] = [];
  for (const i of items) {
    const tenantId = tenantOfWebhookPartition(String(i.PK));
    const candidateId = i[COPY_OF];
    if (typeof candidateId !== 'string' || !tenantId) {
      plain.push(i);
      continue;
    }
    const k = `${tenantId}/${candidateId}`;
    if (!byCandidate.has(k)) byCandidate.set(k, { tenantId, candidateId, items: [] });
    byCandidate.get(k)!.items.push(i);
  }
  const groups: Group[] = [];
  for (const g of byCandidate.values()) {
    // A full group (its check, MAX_ACTIONS - 2 copies and its entry) takes a transaction alone,
    // so no transaction names one marker twice.
    for (let n = 0; n < g.items.length; n += MAX_ACTIONS - 2) {
      const part = g.items.slice(n, n + MAX_ACTIONS - 2);
      groups.push({ ...g, items: part, ledger: ledgerItem(g.tenantId!, g.candidateId!, part) });
    }
  }
  // Each on its own: a failed transaction is split down to the item that fails.
  for (const i of plain) groups.push({ items: [i] });
  const size = (g: Group) => g.items.length + (g.candidateId ? 2 : 0);
  const out: Group[][] = [];
  let current: Group[] = [];
  let used = 0;
  for (const g of groups.sort((a, b) => size(b) - size(a))) {
    if (used + size(g) > MAX_ACTIONS) {
      out.push(current);
      current = [];
      used = 0;
    }
    current.push(g);
    used += size(g);
  }
  if (current.length) out.push(current);
  return out;
}

/** One transaction of guarded puts, written again without the copies of candidates it finds erased. */
async function tryTransaction(groups: Group[]): Promise<boolean> {
  for (let call = 1; ; call++) {
    const actions: Record<string, unknown>[] = [];
    const checks = new Map<number, Group>();
    const put = (Item: Item) => void actions.push({ Put: { TableName: tableName(), Item } });
    for (const g of groups) {
      if (!g.candidateId) g.items.forEach(put);
      else if (g.erasedAt === undefined) {
        checks.set(actions.length, g);
        actions.push(notErasedCheck(g.tenantId!, g.candidateId));
        g.items.forEach(put);
        put(g.ledger!);
      } else {
        for (const i of g.items) {
          const kept = withoutCopy(i, g.erasedAt);
          if (kept) put(kept);
        }
      }
    }
    if (!actions.length) return true;
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: actions as never }));
      return true;
    } catch (err) {
      const reasons = cancellationReasons(err);
      let decided = false;
      for (const [at, g] of checks) {
        if (reasons?.[at]?.Code !== 'ConditionalCheckFailed') continue;
        const erasedAt = itemSeen(reasons[at])?.erased_at;
        g.erasedAt = typeof erasedAt === 'string' ? erasedAt : new Date().toISOString();
        decided = true;
      }
      // An erasure found: written again at once, without its copies.
      if (decided && call < MAX_CALLS) continue;
      // Logged by error name only: the items hold personal data.
      const name = (err as Error).name;
      logger.warn('guarded write failed', { error: name, call, items: actions.length });
      if (NOT_RETRIED.has(name) || call >= MAX_CALLS) return false;
      await backoff(call);
    }
  }
}

/**
 * Write groups in one transaction; if it cannot be written, in halves, down to one group alone,
 * so one candidate's trouble fails only its own deliveries (as BatchWriteItem's unprocessed items
 * would), never its neighbours'.
 */
async function writeTransaction(groups: Group[]): Promise<void> {
  if (await tryTransaction(groups)) return;
  if (groups.length === 1) {
    groups[0]!.failed = true;
    return;
  }
  const half = Math.ceil(groups.length / 2);
  await Promise.all([writeTransaction(groups.slice(0, half)), writeTransaction(groups.slice(half))]);
}

/**
 * Put delivery-log items (kept bodies, attempts). Items that copy a candidate's data (`copy_of`)
 * go in transactions, each candidate's with its marker check and ledger entry, up to 100 actions
 * a call, all at once; items that copy nothing go with them, or, when none does, through
 * BatchWriteItem (lib/store/batch.ts). Never throws for a failed write: resolves to what could not
 * be written and to the copies refused because their candidate was erased.
 */
export async function putGuarded(items: Item[]): Promise<GuardedWrite> {
  const unique = [...new Map(items.map((i) => [keyOf(i), i])).values()];
  if (!unique.some((i) => typeof i[COPY_OF] === 'string')) return { unwritten: await batchPut(items), erased: [] };
  const batches = transactions(unique);
  await Promise.all(batches.map(writeTransaction));
  const failed = new Set<string>();
  const erased = new Set<string>();
  for (const g of batches.flat()) {
    for (const i of g.items) {
      if (g.failed) failed.add(keyOf(i));
      else if (g.erasedAt !== undefined) erased.add(keyOf(i));
    }
  }
  return { unwritten: items.filter((i) => failed.has(keyOf(i))), erased: items.filter((i) => erased.has(keyOf(i))) };
}
