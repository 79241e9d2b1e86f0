/**
 * The workspace audit log, write side. A change's transaction puts ONE audit intent
 * (auditIntentItem): its record, or a group's records, in one of the workspace's intent partitions
 * (`T#<id>#AUDITQ#<shard>`, a shard at random), so there is no change without its record. The
 * table stream's maintenance consumer (lib/domain/table-maintenance.ts) expands each intent into
 * one item per record in the workspace's audit partition (`T#<id>#AUDIT`, sort key
 * `T#<at>#<id>`: the all-records view), with sparse entries on three indexes for the actor, target
 * and action views (auditViewIndexKey). So the log is eventually consistent: a record shows a
 * moment after its change.
 * Records are put only where absent and never updated or deleted (IAM denies every function but
 * the consumer PutItem there, and all UpdateItem and DeleteItem); they leave by TTL after 400
 * days. A record never holds a candidate's personal values: personal fields are named, not
 * valued, so erasure needs nothing from here. The read side is lib/store/audit-query.ts.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomInt, randomUUID } from 'node:crypto';
import { personalFieldsOf } from '../entity';
import { ddb, tableName } from './client';
import { AUDIT_INTENT_SHARDS, auditViewIndexKey, keys, TABLE_DEF, type AuditIndexedView } from './table';

/** How long a record is kept: more than a year of evidence. */
export const AUDIT_TTL_DAYS = 400;
/** How long an intent is kept: far beyond the stream's 24 hours, so an outage of its consumer loses no record. */
export const AUDIT_INTENT_TTL_DAYS = 7;
export const AUDIT_INTENT_TYPE = 'audit_intent';

/**
 * Fields whose values are personal data: a record names them and keeps no value. Each declared
 * entity's (lib/entities/), by the record's target type.
 */
const personalOf = personalFieldsOf;

export interface AuditActor {
  type: 'user' | 'token' | 'system';
  /** User id, token id, or the system job's name (e.g. a retention rule). */
  id: string;
  /** A user's email (workspace members, not candidates). */
  email?: string;
  /** A token's name, or a system job's. */
  name?: string;
  /** The workspace user who made the token (absent for workspace tokens). */
  created_by?: { id: string; email: string };
}

export interface AuditTarget {
  type: string;
  id: string;
}

/** Where a change came from: the client's address and agent, and API Gateway's request id (X-Request-Id). */
export interface AuditRequest {
  ip?: string;
  user_agent?: string;
  request_id?: string;
}

/** One changed field: personal fields by name only; others with their values before and after. */
export interface AuditChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

export interface AuditEntry {
  action: string;
  actor: AuditActor;
  target: AuditTarget;
  changes?: AuditChange[];
  request?: AuditRequest;
  /** ISO time of the change; now when absent. */
  at?: string;
  /**
   * The person a candidate's change is about, as the write saw it: the feed item goes to their
   * partition without a read of the candidate. On the intent only, never on the record.
   */
  person_id?: string;
}

/** The all-records view's sort-key prefix in the audit partition: `T#<at>#<id>`. */
export const AUDIT_ALL_PREFIX = 'T#';
/** The views of GET /api/audit: all records (the partition itself) and one per filter (an index each). */
export type AuditView = 'all' | AuditIndexedView;

/** A webhook URL as the audit keeps it: its host only (a path or query may carry a secret). */
export function urlHost(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * The changes between two versions of a record over `fields`: a field whose value differs is
 * listed, with its values unless it is one of the candidate's personal fields. Values are compared
 * as JSON. Declared entities use their own rules instead (lib/entity.ts auditChanges).
 */
export function diffFields(
  fields: readonly string[],
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): AuditChange[] {
  const out: AuditChange[] = [];
  for (const f of fields) {
    const b = before?.[f] ?? null;
    const a = after[f] ?? null;
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    out.push(personalOf('candidate').includes(f) ? { field: f } : { field: f, ...(before && { before: b }), after: a });
  }
  return out;
}

/** A record's changes as stored: a safety net under diffFields, so a candidate's personal values stay out whatever a caller passes. */
const storedChanges = (e: AuditEntry): AuditChange[] =>
  (e.changes ?? []).map((c) => (personalOf(e.target.type).includes(c.field) ? { field: c.field } : c));

/** What a record says besides its id, target and changes: who, what, when, from where, and until when it is kept. */
function sharedFields(e: AuditEntry, at: string, now: number) {
  const { ip, user_agent, request_id } = e.request ?? {};
  return {
    at,
    action: e.action,
    actor_type: e.actor.type,
    actor_id: e.actor.id,
    ...(e.actor.email && { actor_email: e.actor.email }),
    ...(e.actor.name && { actor_name: e.actor.name }),
    ...(e.actor.created_by && { actor_created_by_id: e.actor.created_by.id, actor_created_by_email: e.actor.created_by.email }),
    ...(ip && { ip }),
    ...(user_agent && { user_agent: user_agent.slice(0, 256) }),
    ...(request_id && { request_id }),
    expires_at: Math.floor(now / 1000) + AUDIT_TTL_DAYS * 86_400,
  };
}

/** Records one intent may hold: one transaction's (at most 100 actions), with room to spare under DynamoDB's 400 KB item. */
export const MAX_GROUP_RECORDS = 100;
/** Transaction actions the records of one change or of one group take: one intent. */
export const AUDIT_GROUP_COPIES = 1;

/** Whether two entries can share a group: the same action by the same actor from the same request. */
export const sameGroup = (a: AuditEntry, b: AuditEntry) =>
  a.action === b.action &&
  a.actor.type === b.actor.type &&
  a.actor.id === b.actor.id &&
  a.actor.email === b.actor.email &&
  a.actor.name === b.actor.name &&
  a.actor.created_by?.id === b.actor.created_by?.id &&
  JSON.stringify(a.request ?? {}) === JSON.stringify(b.request ?? {});

/**
 * The intent of records that share their action, actor and request (sameGroup), made in one
 * transaction at one time (the first entry's `at`, or now): ONE item in a random intent shard of
 * the workspace (keys.auditIntent), keyed by its first record's id, holding what the records share
 * (`record`) and each record's id, target and changes (`records`). The stream consumer expands it
 * into one record item per record (auditRecordItems). It leaves by TTL after AUDIT_INTENT_TTL_DAYS,
 * longer than any consumer outage the stream (24 h) or `npm run admin -- audit settle` covers.
 */
export function auditIntentItem(tenantId: string, entries: AuditEntry[], now = Date.now()): Record<string, unknown> | undefined {
  const first = entries[0];
  if (!first) return undefined;
  if (entries.length > MAX_GROUP_RECORDS) throw new Error(`an audit group holds at most ${MAX_GROUP_RECORDS} records`);
  if (!entries.every((e) => sameGroup(e, first))) throw new Error('an audit group is one action of one actor from one request');
  const at = first.at ?? new Date(now).toISOString();
  // Random, not UUIDv7: the record's key orders by `at` first, and the uuid package stays out of bundles without it.
  const records = entries.map((e) => ({
    id: randomUUID(),
    target_type: e.target.type,
    target_id: e.target.id,
    changes: storedChanges(e),
    ...(e.person_id && { person_id: e.person_id }),
  }));
  const shard = String(randomInt(AUDIT_INTENT_SHARDS));
  return {
    ...keys.auditIntent(tenantId, shard, records[0]!.id),
    type: AUDIT_INTENT_TYPE,
    tenant_id: tenantId,
    record: sharedFields(first, at, now),
    records,
    [TABLE_DEF.ttlAttribute]: Math.floor(now / 1000) + AUDIT_INTENT_TTL_DAYS * 86_400,
  };
}

/**
 * The record items an intent expands into: one per record, in the audit partition under the
 * all-records key `T#<at>#<id>`, with a sparse entry in each of the actor, target and action
 * views' indexes (auditViewIndexKey). Each item is a complete record, so every view reads a page
 * in one Query.
 */
export function auditRecordItems(intent: Record<string, unknown>): Record<string, unknown>[] {
  const shared = intent.record as Record<string, unknown> | undefined;
  const records = intent.records;
  // A malformed intent fails loudly (the consumer reports it) rather than become a record of nothing.
  if (
    typeof intent.tenant_id !== 'string' ||
    !Array.isArray(records) ||
    ['at', 'action', 'actor_id'].some((k) => typeof shared?.[k] !== 'string')
  )
    throw new Error(`malformed audit intent ${String(intent.PK)} ${String(intent.SK)}`);
  const tenantId = intent.tenant_id;
  const at = String(shared!.at);
  return (records as Record<string, unknown>[]).map(({ person_id: _, ...r }) => auditRecordItem(tenantId, { ...shared, ...r }, at));
}

/** One record as its item: `fields` are a record's (sharedFields and its own id, target and changes). */
export function auditRecordItem(tenantId: string, fields: Record<string, unknown>, at = String(fields.at)): Record<string, unknown> {
  const id = String(fields.id);
  return {
    ...keys.auditRecord(tenantId, `${AUDIT_ALL_PREFIX}${at}#${id}`),
    type: 'audit',
    ...fields,
    ...auditViewKeys(tenantId, fields, at, id),
  };
}

/** A record's entries in the actor, target and action views. */
export const auditViewKeys = (tenantId: string, fields: Record<string, unknown>, at: string, id: string) => ({
  ...auditViewIndexKey(tenantId, 'actor', String(fields.actor_id), at, id),
  ...auditViewIndexKey(tenantId, 'target', String(fields.target_id), at, id),
  ...auditViewIndexKey(tenantId, 'action', String(fields.action), at, id),
});

/**
 * The transaction items that record one change: append them to the change's own
 * TransactWriteItems, so there is no change without its intent and no intent without the change.
 */
export const auditPuts = (tenantId: string, e: AuditEntry, now = Date.now()) => auditGroupPuts(tenantId, [e], now);

/** The transaction item of a group of records (auditIntentItem), for the transaction that makes all their changes. */
export function auditGroupPuts(tenantId: string, entries: AuditEntry[], now = Date.now()) {
  const Item = auditIntentItem(tenantId, entries, now);
  return Item ? [{ Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(PK)' } }] : [];
}

/**
 * A record on its own, for an action that writes nothing else to the table (a resend only
 * queues a message; a failed sign-in only counts): one TransactWriteItems of its intent. `extra`:
 * transaction items of the action's own write, when a store function does not make one (a test
 * send's attempt record).
 */
export async function putAudit(tenantId: string, e: AuditEntry, extra: Record<string, unknown>[] = []): Promise<void> {
  await ddb.send(new TransactWriteCommand({ TransactItems: [...extra, ...auditPuts(tenantId, e)] }));
}

/**
 * The cost of a record with nothing written: one ConditionCheck, as a record is one Put, on a key
 * that never exists. A wrong password for a member's email writes a record; one for an email
 * that is nobody's runs this instead, so the two failures still take the same time and a
 * sign-in's timing does not tell which emails are members'.
 */
export async function auditDecoy(): Promise<void> {
  const Key = keys.auditIntent('-', String(randomInt(AUDIT_INTENT_SHARDS)), '-');
  const check = { ConditionCheck: { TableName: tableName(), Key, ConditionExpression: 'attribute_not_exists(PK)' } };
  await ddb.send(new TransactWriteCommand({ TransactItems: [check] })).catch(() => undefined);
}
