/**
 * The audit log, read side (the write side and the key layout: lib/store/audit.ts). Each filter
 * has its own copy of every record, so a page is a key-range Query of one view, newest first:
 * by target when a target is given, else by actor, else by action, else all. The other filters
 * given with it become a FilterExpression; such a page reads at most MAX_CALLS × FILTERED_READ
 * records and may come back short, with a cursor to go on. A group's shared copy (auditGroupItems)
 * is expanded into its records where it is read, so a page shows records only, and a cursor may
 * point inside a group.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { CorruptItemError, type Item, oneOf, str } from './codec';
import { queryPages, tableName } from './client';
import { viewPrefix, type AuditChange, type AuditView } from './audit';
import { keys, type PageKeyShape } from './table';

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  /** ISO 8601 UTC (toISOString), inclusive. */
  from?: string;
  to?: string;
}

/** Queries one page may make: the first page costs at most this many calls at any log size. */
export const MAX_CALLS = 2;
/** Records a filtered Query evaluates per call (a few hundred KB, under DynamoDB's 1 MB page). */
export const FILTERED_READ = 250;

const FILTER_ATTR = { actor: 'actor_id', action: 'action', target: 'target_id' } as const;

/** The view a filter reads, the value that names its records there, and the filters left for the FilterExpression. */
export function auditPlan(f: AuditFilter): { view: AuditView; value: string; rest: [string, string][] } {
  const view: AuditView = f.target !== undefined ? 'target' : f.actor !== undefined ? 'actor' : f.action !== undefined ? 'action' : 'all';
  const value = view === 'all' ? '' : (f[view] as string);
  const rest = (['actor', 'action', 'target'] as const)
    .filter((k) => k !== view && f[k] !== undefined)
    .map((k): [string, string] => [FILTER_ATTR[k], f[k] as string]);
  return { view, value, rest };
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where a page of this filter's view ends: the table key of a record copy in the view. */
export function auditPageKey(tenantId: string, f: AuditFilter): PageKeyShape {
  const { view, value } = auditPlan(f);
  return {
    attrs: ['PK', 'SK'],
    partitions: { PK: keys.auditPartition(tenantId) },
    sortKey: new RegExp(`^${literal(viewPrefix(view, value))}\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z#[0-9a-f-]{36}$`),
  };
}

export function auditQueryInput(tenantId: string, f: AuditFilter): QueryCommandInput {
  const { view, value, rest } = auditPlan(f);
  const prefix = viewPrefix(view, value);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':pk': keys.auditPartition(tenantId),
    ':lo': `${prefix}${f.from ?? ''}`,
    // '~' sorts after every character of a timestamp and an id: the whole of `to`'s millisecond.
    ':hi': `${prefix}${f.to !== undefined ? `${f.to}#~` : '~'}`,
  };
  const filters = rest.map(([attr, v], i) => {
    names[`#f${i}`] = attr;
    values[`:f${i}`] = v;
    return `#f${i} = :f${i}`;
  });
  return {
    TableName: tableName,
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
    ExpressionAttributeValues: values,
    ...(filters.length && { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names }),
    ScanIndexForward: false,
  };
}

/**
 * The records of a page's items, in key order (newest first): an item of one record as it is; a
 * group's shared copy as its records, newest (highest id) first, each keyed where a copy of its
 * own would be (its view's prefix, the group's time, its id). Records at or after `startSK` (the
 * cursor's key, which may be inside a group) were on earlier pages and are left out.
 */
export function expandAuditItems(items: Item[], startSK?: string): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    const { records, ...shared } = item;
    if (!Array.isArray(records)) {
      out.push(item);
      continue;
    }
    const sk = String(item.SK);
    const prefix = sk.slice(0, sk.length - `${String(item.at)}#${String(item.id)}`.length);
    for (const r of [...(records as Item[])].reverse()) {
      const SK = `${prefix}${String(item.at)}#${String(r.id)}`;
      if (startSK === undefined || SK < startSK) out.push({ ...shared, ...r, SK });
    }
  }
  return out;
}

/**
 * Up to `limit` records after `startKey`, newest first, and the key to go on from (undefined at
 * the end). Unfiltered: one Query of `limit`. Filtered: at most MAX_CALLS Queries of FILTERED_READ.
 * Groups are expanded (expandAuditItems): a page that ends inside one ends at its last record's
 * key, which is no item's; the next Query starts there and meets the group's copy again.
 */
export async function queryAudit(
  tenantId: string,
  f: AuditFilter,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: Item[]; lastKey?: Record<string, unknown> }> {
  const input = auditQueryInput(tenantId, f);
  const filtered = input.FilterExpression !== undefined;
  const items: Item[] = [];
  let calls = 0;
  let lastKey: Record<string, unknown> | undefined;
  for await (const page of queryPages(input, { startKey, limit: () => (filtered ? FILTERED_READ : limit - items.length) })) {
    calls++;
    items.push(...expandAuditItems(page.Items ?? [], startKey?.SK as string | undefined));
    lastKey = page.LastEvaluatedKey;
    if (items.length >= limit || calls >= MAX_CALLS) break;
  }
  if (items.length > limit) {
    // More matched than the page holds: go on after the last one it shows.
    items.length = limit;
    const last = items.at(-1)!;
    return { items, lastKey: { PK: last.PK, SK: last.SK } };
  }
  return { items, lastKey };
}

const ACTOR_TYPES = ['user', 'token', 'system'] as const;

/** The audit item's codec. */
export function auditFromItem(item: Item) {
  const changes = item.changes;
  if (!Array.isArray(changes)) throw new CorruptItemError('audit', 'changes');
  const opt = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : null);
  return {
    id: str(item, 'id', 'audit'),
    at: str(item, 'at', 'audit'),
    action: str(item, 'action', 'audit'),
    actor: {
      type: oneOf(item, 'actor_type', ACTOR_TYPES, 'audit'),
      id: str(item, 'actor_id', 'audit'),
      ...(typeof item.actor_email === 'string' && { email: item.actor_email }),
      ...(typeof item.actor_name === 'string' && { name: item.actor_name }),
      ...(typeof item.actor_created_by_id === 'string' && {
        created_by: { id: item.actor_created_by_id, email: str(item, 'actor_created_by_email', 'audit') },
      }),
    },
    target: { type: str(item, 'target_type', 'audit'), id: str(item, 'target_id', 'audit') },
    ip: opt('ip'),
    user_agent: opt('user_agent'),
    request_id: opt('request_id'),
    changes: changes as AuditChange[],
  };
}
