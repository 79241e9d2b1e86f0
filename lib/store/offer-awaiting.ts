/**
 * Each member's list of offers waiting for their decision: one partition per member
 * (`T#<tenant>#AWAIT#<user>`), an item per offer (`W#<round>#<offer id>`: read backwards, the
 * newest round first) and `COUNT`, the number of items, changed in the same transaction as them.
 * An item holds ids, the step and the status only (no compensation, no name), so erasure has
 * nothing to reach in it. The items are written by the transactions that change an offer's
 * approval state (asking, deciding, a new version, leaving `pending_approval`), from the set the
 * offer item keeps (`awaiting`, lib/store/awaiting-set.ts), on the condition that the offer
 * still holds the set read, so the items and the count never drift from the offers.
 */
import { QueryCommand, TransactGetCommand } from '@aws-sdk/lib-dynamodb';
import { added, encodeAwaiting, removed, type AwaitingChange } from './awaiting-set';
import type { Item } from '../item';
import { ddb, tableName } from './client';
import { keys, type Key, type PageKeyShape } from './table';
import { backoff, cancellationReasons } from './tx';
import { $remove, type Condition } from './update';

export const awaitingPartition = (tenantId: string, userId: string) => `${keys.tenantPartition(tenantId)}#AWAIT#${userId}`;
const PREFIX = 'W#';
export const awaitingKey = (tenantId: string, userId: string, round: string, offerId: string): Key => ({
  PK: awaitingPartition(tenantId, userId),
  SK: `${PREFIX}${round}#${offerId}`,
});
const countKey = (tenantId: string, userId: string): Key => ({ PK: awaitingPartition(tenantId, userId), SK: 'COUNT' });

/** The page key of a member's list (lib/domain/cursor.ts). */
export const awaitingPageKey = (tenantId: string, userId: string): PageKeyShape => ({
  attrs: ['PK', 'SK'],
  partitions: { PK: awaitingPartition(tenantId, userId) },
  sortKey: /^W#[0-9T:.Z-]{20,30}#[0-9a-f-]{36}$/,
});

/** The offer as the index items name it. */
export interface AwaitedOffer {
  id: string;
  candidate_id: string;
  req_id: string | null;
}

/**
 * The transaction actions of a change of who waits: an item put for each member waited for after
 * it (an item already there is put again with its new step), deleted for each member no longer
 * waited for, and each member's count moved by the difference (one update per member).
 */
export function awaitingActions(tenantId: string, o: AwaitedOffer, c: AwaitingChange): Record<string, unknown>[] {
  const delta = new Map<string, number>();
  for (const u of added(c)) delta.set(u, (delta.get(u) ?? 0) + 1);
  const deletes = removed(c).map((r) => {
    delta.set(r.user, (delta.get(r.user) ?? 0) - 1);
    return { Delete: { TableName: tableName(), Key: awaitingKey(tenantId, r.user, r.round, o.id) } };
  });
  const a = c.after;
  const puts = (a?.users ?? []).map((u) => ({
    Put: {
      TableName: tableName(),
      Item: {
        ...awaitingKey(tenantId, u, a!.round, o.id),
        type: 'offer_awaiting',
        tenant_id: tenantId,
        user_id: u,
        offer_id: o.id,
        candidate_id: o.candidate_id,
        ...(o.req_id && { req_id: o.req_id }),
        step: a!.step,
        status: 'pending_approval',
        since: a!.round,
      },
    },
  }));
  const counts = [...delta]
    .filter(([, n]) => n !== 0)
    .map(([u, n]) => ({
      Update: {
        TableName: tableName(),
        Key: countKey(tenantId, u),
        UpdateExpression: 'ADD waiting :n',
        ExpressionAttributeValues: { ':n': n },
      },
    }));
  return [...deletes, ...puts, ...counts];
}

/** The offer's `awaiting` attribute after the change (set, or removed for nobody). */
export const awaitingAttr = (c: AwaitingChange) => ({ awaiting: encodeAwaiting(c.after) ?? $remove() });

/** The condition that the offer still holds the set the change was decided on. */
export function awaitingCondition(c: AwaitingChange): Condition {
  const before = encodeAwaiting(c.before);
  return before === undefined
    ? { expression: 'attribute_not_exists(#aw)', names: { '#aw': 'awaiting' } }
    : { expression: '#aw = :aw', names: { '#aw': 'awaiting' }, values: { ':aw': before } };
}

/** One entry of a member's list as stored. */
export interface AwaitingEntry {
  offer_id: string;
  candidate_id: string;
  req_id: string | null;
  step: number;
  since: string;
}

const entryOf = (i: Item): AwaitingEntry => ({
  offer_id: String(i.offer_id),
  candidate_id: String(i.candidate_id),
  req_id: typeof i.req_id === 'string' ? i.req_id : null,
  step: Number(i.step),
  since: String(i.since),
});

/** A page of the member's list, newest round first: one Query. */
export async function queryAwaiting(
  tenantId: string,
  userId: string,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ entries: AwaitingEntry[]; lastKey?: Item }> {
  const page = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :w)',
      ExpressionAttributeValues: { ':pk': awaitingPartition(tenantId, userId), ':w': PREFIX },
      ScanIndexForward: false,
      Limit: limit,
      ...(startKey && { ExclusiveStartKey: startKey }),
    }),
  );
  const items = page.Items ?? [];
  const last = page.LastEvaluatedKey && items.length ? items.at(-1) : undefined;
  return { entries: items.map(entryOf), lastKey: last && { PK: last.PK, SK: last.SK } };
}

/** What a page needs besides its entries: the offers, their candidates and requisitions, the chain and the count. */
export interface AwaitingContext {
  offers: Map<string, Item>;
  candidates: Map<string, Item>;
  requisitions: Map<string, Item>;
  chain: unknown;
  count: number;
}

/** Keys per TransactGetItems call: a page of 25 names at most 3 x 25 + 2. */
const MAX_KEYS = 100;
/** Calls for one page's context, the first included: a read that meets a write in flight is refused, and asked again. */
const MAX_CALLS = 3;

/**
 * The context of a page of entries in one TransactGetItems: one call for up to 100 items, read
 * consistently, and authorised by GetItem alone (a function's read access: no BatchGetItem, which
 * only the delivery function is granted). A read refused because a transaction was writing one of
 * the items is asked again.
 */
export async function readAwaitingContext(tenantId: string, userId: string, entries: readonly AwaitingEntry[]): Promise<AwaitingContext> {
  const wanted = new Map<string, Key>();
  const add = (k: Key) => wanted.set(`${k.PK}\u0000${k.SK}`, k);
  add(keys.tenant(tenantId));
  add(countKey(tenantId, userId));
  for (const e of entries) {
    add(keys.offer(tenantId, e.offer_id));
    add(keys.candidate(tenantId, e.candidate_id));
    if (e.req_id) add(keys.requisition(tenantId, e.req_id));
  }
  if (wanted.size > MAX_KEYS) throw new Error(`a page of ${entries.length} needs ${wanted.size} keys`);
  const found: Item[] = [];
  for (let call = 1; ; call++) {
    try {
      const res = await ddb.send(
        new TransactGetCommand({ TransactItems: [...wanted.values()].map((Key) => ({ Get: { TableName: tableName(), Key } })) }),
      );
      for (const r of res.Responses ?? []) if (r.Item) found.push(r.Item);
      break;
    } catch (err) {
      if (!cancellationReasons(err) || call >= MAX_CALLS) throw err;
      await backoff(call);
    }
  }
  const byKey = new Map(found.map((i) => [`${i.PK}\u0000${i.SK}`, i]));
  const get = (k: Key) => byKey.get(`${k.PK}\u0000${k.SK}`);
  const pick = (ids: Iterable<string>, key: (id: string) => Key) =>
    new Map(
      [...ids].flatMap((id) => {
        const i = get(key(id));
        return i ? [[id, i] as const] : [];
      }),
    );
  return {
    offers: pick(
      entries.map((e) => e.offer_id),
      (id) => keys.offer(tenantId, id),
    ),
    candidates: pick(
      entries.map((e) => e.candidate_id),
      (id) => keys.candidate(tenantId, id),
    ),
    requisitions: pick(
      entries.flatMap((e) => (e.req_id ? [e.req_id] : [])),
      (id) => keys.requisition(tenantId, id),
    ),
    chain: get(keys.tenant(tenantId))?.offer_approvals,
    count: Math.max(0, Number(get(countKey(tenantId, userId))?.waiting ?? 0)),
  };
}
