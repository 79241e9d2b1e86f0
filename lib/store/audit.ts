/**
 * The workspace audit log, write side. One partition per workspace (`T#<id>#AUDIT`); each record
 * is written as four copies in the transaction of the change it describes, under sort-key
 * prefixes that make every filter of GET /api/audit a key-range Query, newest first:
 *   `T#<at>#<id>` all records; `A#<actor id>#<at>#<id>`; `O#<target id>#<at>#<id>`;
 *   `X#<action>#<at>#<id>`.
 * Records of one actor's one action made in one transaction (an import's rows) may be written as
 * a group (auditGroupItems): each keeps its own target copy, and the group shares one copy in each
 * of the other three views, which the read side expands back into the records.
 * Copies are put only where absent and never updated or deleted (IAM denies UpdateItem and
 * DeleteItem on the partition); they leave by TTL after 400 days. A record never holds a
 * candidate's personal values: personal fields are named, not valued, so erasure needs nothing
 * from here. The read side is lib/store/audit-query.ts, bundled only by the audit route.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { ddb, tableName } from './client';
import { keys } from './table';

/** How long a record is kept: more than a year of evidence. */
export const AUDIT_TTL_DAYS = 400;

/** Fields whose values are personal data: a record names them and keeps no value. */
export const PERSONAL_FIELDS: readonly string[] = ['name', 'email', 'phone', 'resume_url'];

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
}

/** The sort-key prefixes of the four copies, one per access pattern. */
export const AUDIT_VIEWS = { all: 'T#', actor: 'A#', target: 'O#', action: 'X#' } as const;
export type AuditView = keyof typeof AUDIT_VIEWS;
/** Transaction actions one record takes: a copy per view. */
export const AUDIT_COPIES = Object.keys(AUDIT_VIEWS).length;

/** The prefix under which a view keeps the records of one value (actor id, target id or action). */
export const viewPrefix = (view: AuditView, value = '') => (view === 'all' ? AUDIT_VIEWS.all : `${AUDIT_VIEWS[view]}${value}#`);

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
 * listed, with its values unless it is personal (PERSONAL_FIELDS). Values are compared as JSON.
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
    out.push(PERSONAL_FIELDS.includes(f) ? { field: f } : { field: f, ...(before && { before: b }), after: a });
  }
  return out;
}

/** A record's changes as stored: a safety net under diffFields, so a candidate's personal values stay out whatever a caller passes. */
const storedChanges = (e: AuditEntry): AuditChange[] =>
  (e.changes ?? []).map((c) => (e.target.type === 'candidate' && PERSONAL_FIELDS.includes(c.field) ? { field: c.field } : c));

/** What a record says besides its id, target and changes: who, what, when, from where, and until when it is kept. */
function sharedFields(e: AuditEntry, at: string, now: number) {
  const { ip, user_agent, request_id } = e.request ?? {};
  return {
    type: 'audit',
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

/** The items of one record: its four copies, complete each, so any view reads a page in one Query. */
export function auditItems(tenantId: string, e: AuditEntry, now = Date.now()): Record<string, unknown>[] {
  const at = e.at ?? new Date(now).toISOString();
  // Random, not UUIDv7: the key orders by `at` first, and the uuid package stays out of bundles without it.
  const id = randomUUID();
  const record = { ...sharedFields(e, at, now), id, target_type: e.target.type, target_id: e.target.id, changes: storedChanges(e) };
  const PK = keys.auditPartition(tenantId);
  const tail = `${at}#${id}`;
  return [
    `${viewPrefix('all')}${tail}`,
    `${viewPrefix('actor', e.actor.id)}${tail}`,
    `${viewPrefix('target', e.target.id)}${tail}`,
    `${viewPrefix('action', e.action)}${tail}`,
  ].map((SK) => ({ PK, SK, ...record }));
}

/** Records one group may hold: the ids of its records end in four hex digits counting from 0. */
export const MAX_GROUP_RECORDS = 0x10000;
/** Transaction actions a group takes besides its records' target copies: one copy in each other view. */
export const AUDIT_GROUP_COPIES = AUDIT_COPIES - 1;

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
 * The items of records that share their action, actor and request (sameGroup) and are made in
 * one transaction, at one time (the first entry's `at`, or now): each record's own target copy,
 * complete, plus ONE copy in each of the views all, actor and action holding every record's id,
 * target and changes (`records`). A group of n costs n + 3 items instead of 4n.
 *
 * The records' ids are one random id whose last four hex digits count 0, 1, 2, ...; the shared
 * copies sit at the first (smallest) id. So no other record's key can fall between a group's
 * records, and a page that ends inside a group ends at the key its next record would have had
 * (lib/store/audit-query.ts expands a group and resumes inside it from that key).
 */
export function auditGroupItems(tenantId: string, entries: AuditEntry[], now = Date.now()): Record<string, unknown>[] {
  const first = entries[0];
  if (!first) return [];
  if (entries.length > MAX_GROUP_RECORDS) throw new Error(`an audit group holds at most ${MAX_GROUP_RECORDS} records`);
  if (!entries.every((e) => sameGroup(e, first))) throw new Error('an audit group is one action of one actor from one request');
  const at = first.at ?? new Date(now).toISOString();
  const base = randomUUID().slice(0, 32);
  const shared = sharedFields(first, at, now);
  const records = entries.map((e, n) => ({
    id: `${base}${n.toString(16).padStart(4, '0')}`,
    target_type: e.target.type,
    target_id: e.target.id,
    changes: storedChanges(e),
  }));
  const PK = keys.auditPartition(tenantId);
  const tail = `${at}#${records[0]!.id}`;
  return [
    ...records.map((r) => ({ PK, SK: `${viewPrefix('target', r.target_id)}${at}#${r.id}`, ...shared, ...r })),
    ...[viewPrefix('all'), viewPrefix('actor', first.actor.id), viewPrefix('action', first.action)].map((prefix) => ({
      PK,
      SK: `${prefix}${tail}`,
      ...shared,
      id: records[0]!.id,
      records,
    })),
  ];
}

/**
 * The transaction items that record one change: append them to the change's own
 * TransactWriteItems, so there is no change without its record and no record without the change.
 */
export const auditPuts = (tenantId: string, e: AuditEntry, now = Date.now()) => putsOf(auditItems(tenantId, e, now));

/** The transaction items of a group of records (auditGroupItems), for the transaction that makes all their changes. */
export const auditGroupPuts = (tenantId: string, entries: AuditEntry[], now = Date.now()) =>
  putsOf(auditGroupItems(tenantId, entries, now));

const putsOf = (items: Record<string, unknown>[]) =>
  items.map((Item) => ({ Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } }));

/**
 * A record on its own, for an action that writes nothing else to the table (a resend only
 * queues a message; a failed sign-in only counts): one TransactWriteItems of its copies. `extra`:
 * transaction items of the action's own write, when a store function does not make one (a test
 * send's attempt record).
 */
export async function putAudit(tenantId: string, e: AuditEntry, extra: Record<string, unknown>[] = []): Promise<void> {
  await ddb.send(new TransactWriteCommand({ TransactItems: [...extra, ...auditPuts(tenantId, e)] }));
}

/**
 * The cost of a record with nothing written: as many ConditionChecks as a record has copies, on
 * keys that never exist. A wrong password for a member's email writes a record; one for an email
 * that is nobody's runs this instead, so the two failures still take the same time and a
 * sign-in's timing does not tell which emails are members'.
 */
export async function auditDecoy(): Promise<void> {
  const PK = keys.auditPartition('-');
  const checks = Object.values(AUDIT_VIEWS).map((prefix) => ({
    ConditionCheck: { TableName: tableName, Key: { PK, SK: prefix }, ConditionExpression: 'attribute_not_exists(PK)' },
  }));
  await ddb.send(new TransactWriteCommand({ TransactItems: checks })).catch(() => undefined);
}
