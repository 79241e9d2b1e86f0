/**
 * The audit log, read side (the write side and the key layout: lib/store/audit.ts). Each record
 * is one item in its workspace's audit partition with a sparse entry in an index per filter, so a
 * page is a key-range Query of one view, newest first: by target when a target is given, else by
 * actor, else by action (each its index), else all (the partition itself). The other filters
 * given with it become a FilterExpression; such a page reads at most MAX_CALLS × FILTERED_READ
 * records and may come back short, with a cursor to go on.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { CorruptItemError, type Item, oneOf, str } from './codec';
import { queryPages, tableName } from './client';
import { AUDIT_ALL_PREFIX, type AuditChange, type AuditView } from './audit';
import { AUDIT_VIEW_INDEXES, auditViewPartition, keys, TABLE_DEF, type PageKeyShape } from './table';

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

/** Where a view's keys are: the partition and sort key attributes its Query reads, its partition value, and its sort keys' prefix. */
function viewKeys(tenantId: string, view: AuditView, value: string) {
  if (view === 'all')
    return {
      index: undefined,
      pk: TABLE_DEF.partitionKey,
      sk: TABLE_DEF.sortKey,
      partition: keys.auditPartition(tenantId),
      prefix: AUDIT_ALL_PREFIX,
    };
  const index = AUDIT_VIEW_INDEXES[view];
  return { index: index.name, pk: index.partitionKey, sk: index.sortKey, partition: auditViewPartition(tenantId, view, value), prefix: '' };
}

const RECORD_TAIL = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z#[0-9a-f-]{36}$';

/**
 * Where a page of this filter's view ends: a record's table key, plus its entry in the view's
 * index for a filtered view, whose partition must be the filter's own.
 */
export function auditPageKey(tenantId: string, f: AuditFilter): PageKeyShape {
  const { view, value } = auditPlan(f);
  const v = viewKeys(tenantId, view, value);
  return {
    attrs: v.index ? ['PK', 'SK', v.pk, v.sk] : ['PK', 'SK'],
    partitions: { PK: keys.auditPartition(tenantId), ...(v.index && { [v.pk]: v.partition }) },
    sortKey: new RegExp(`^${AUDIT_ALL_PREFIX}${RECORD_TAIL}`),
  };
}

export function auditQueryInput(tenantId: string, f: AuditFilter): QueryCommandInput {
  const { view, value, rest } = auditPlan(f);
  const v = viewKeys(tenantId, view, value);
  const names: Record<string, string> = { '#pk': v.pk, '#sk': v.sk };
  const values: Record<string, unknown> = {
    ':pk': v.partition,
    // '0' sorts before every timestamp, and keeps an index's bound non-empty, as DynamoDB requires.
    ':lo': `${v.prefix}${f.from ?? '0'}`,
    // '~' sorts after every character of a timestamp and an id: the whole of `to`'s millisecond.
    ':hi': `${v.prefix}${f.to !== undefined ? `${f.to}#~` : '~'}`,
  };
  const filters = rest.map(([attr, val], i) => {
    names[`#f${i}`] = attr;
    values[`:f${i}`] = val;
    return `#f${i} = :f${i}`;
  });
  return {
    TableName: tableName(),
    ...(v.index && { IndexName: v.index }),
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lo AND :hi',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ...(filters.length && { FilterExpression: filters.join(' AND ') }),
    ScanIndexForward: false,
  };
}

/**
 * Up to `limit` records after `startKey`, newest first, and the key to go on from (undefined at
 * the end). Unfiltered: one Query of `limit`. Filtered: at most MAX_CALLS Queries of FILTERED_READ.
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
    items.push(...(page.Items ?? []));
    lastKey = page.LastEvaluatedKey;
    if (items.length >= limit || calls >= MAX_CALLS) break;
  }
  if (items.length > limit) {
    // More matched than the page holds: go on after the last one it shows, in its view's keys.
    items.length = limit;
    const last = items.at(-1)!;
    const attrs = auditPageKey(tenantId, f).attrs;
    return { items, lastKey: Object.fromEntries(attrs.map((a) => [a, last[a]])) };
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
