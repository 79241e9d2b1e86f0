/**
 * The audit record's shape and key layout (lib/store/audit.ts, lib/store/audit-query.ts): a
 * change's transaction puts one intent in a random intent shard, which the table maintenance
 * consumer expands into one complete item per record, in the workspace's audit partition under
 * the all-records key with a sparse entry in each filter's index; personal values never kept,
 * webhook URLs as hosts, a 400-day TTL, each filter a key range of its own view, and no stream
 * consumer woken by a record.
 */
import { describe, expect, it } from 'vitest';
import { AUDIT_INTENT_FILTER_PATTERNS, MAINTENANCE_FILTER_PATTERNS } from '../../lib/store/stream-filters';
import { AUDIT_INTENT_SHARDS, keys, TABLE_DEF } from '../../lib/store/table';
import { STREAM_FILTER_PATTERNS } from '../../lib/webhooks/events';
import { AuditRecord } from '../../lib/schemas';
import { eventsFromRecord, streamRecord, TENANT } from '../helpers/lambda-records';
import { matchesPattern } from '../../dev/stream';
import { auditActorOf, auditBy } from '../../lib/domain/principal';
import { auditFromItem, auditPageKey, auditPlan, auditQueryInput } from '../../lib/store/audit-query';

import {
  AUDIT_INTENT_TTL_DAYS,
  AUDIT_TTL_DAYS,
  auditIntentItem,
  auditPuts,
  auditRecordItems,
  diffFields,
  urlHost,
} from '../../lib/store/audit';

/** The record items one entry becomes once its intent is expanded. */
const recordItems = (entry: Parameters<typeof auditPuts>[1], now?: number) => auditRecordItems(auditIntentItem(TENANT, [entry], now)!);

const NOW = Date.parse('2026-03-01T10:00:00.000Z');
const session = {
  kind: 'session' as const,
  tenantId: TENANT,
  tenantSlug: 'acme',
  userId: 'u-1',
  email: 'admin@example.com',
  role: 'admin' as const,
  request: { ip: '192.0.2.1', user_agent: 'vitest', request_id: 'req-1' },
};
const token = {
  kind: 'token' as const,
  tenantId: TENANT,
  tenantSlug: 'acme',
  tokenId: 'tok-1',
  tokenName: 'ATS sync',
  scopes: ['*'],
  role: 'admin' as const,
};

describe('an audit record', () => {
  const entry = auditBy(
    session,
    'candidate.updated',
    { type: 'candidate', id: 'c-1' },
    diffFields(
      ['name', 'email', 'phone', 'resume_url', 'req_id'],
      { name: 'Ada Lovelace', email: 'ada@example.com', req_id: null },
      { name: 'Ada King', email: 'ada@example.org', phone: '+44 20 7946 0000', req_id: 'r-1' },
    ),
  );
  const intent = auditIntentItem(TENANT, [entry], NOW)!;
  const items = auditRecordItems(intent);

  it('is one intent in a random intent shard of the workspace, put only where absent, kept 7 days', () => {
    expect(String(intent.PK)).toMatch(new RegExp(`^T#${TENANT}#AUDITQ#[0-${AUDIT_INTENT_SHARDS - 1}]$`));
    expect(intent).toMatchObject({ type: 'audit_intent', tenant_id: TENANT, [TABLE_DEF.ttlAttribute]: NOW / 1000 + 7 * 86_400 });
    expect(AUDIT_INTENT_TTL_DAYS).toBe(7);
    expect(String(intent.PK)).not.toBe(keys.auditPartition(TENANT));
    // The shards are chosen at random: over many changes, every one of them takes writes.
    const shards = new Set(Array.from({ length: 400 }, () => auditIntentItem(TENANT, [entry], NOW)!.PK));
    expect(shards.size).toBe(AUDIT_INTENT_SHARDS);
  });

  it('expands into one complete item in the audit partition, under the all-records key, with an entry in each view', () => {
    expect(items).toHaveLength(1);
    const at = '2026-03-01T10:00:00.000Z';
    const [item] = items;
    const id = item!.id as string;
    expect(item).toMatchObject({
      PK: `T#${TENANT}#AUDIT`,
      SK: `T#${at}#${id}`,
      type: 'audit',
      GSI1PK: `T#${TENANT}#AUDIT#A#u-1`,
      GSI1SK: `${at}#${id}`,
      GSI2PK: `T#${TENANT}#AUDIT#O#c-1`,
      GSI2SK: `${at}#${id}`,
      GSI5PK: `T#${TENANT}#AUDIT#X#candidate.updated`,
      GSI5SK: `${at}#${id}`,
    });
    expect(item!.PK).toBe(keys.auditPartition(TENANT));
    // Nothing on the stuck index (GSI3) or the change feed (GSI4).
    for (const attr of ['GSI3PK', 'GSI3SK', 'GSI4PK', 'GSI4SK']) expect(item).not.toHaveProperty(attr);
  });

  it('names personal fields without their values, and keeps others before and after', () => {
    const record = auditFromItem(items[0]!);
    expect(record.changes).toEqual([
      { field: 'name' },
      { field: 'email' },
      { field: 'phone' },
      { field: 'req_id', before: null, after: 'r-1' },
    ]);
    const text = JSON.stringify([intent, items]);
    // The whole phone number: a part of it could be part of a random id.
    for (const personal of ['Ada', 'ada@example', '+44 20 7946 0000']) expect(text).not.toContain(personal);
  });

  it('drops personal values a caller passes for a candidate anyway', () => {
    const [item] = recordItems({ ...entry, changes: [{ field: 'email', before: 'a@example.com', after: 'b@example.com' }] }, NOW);
    expect(item!.changes).toEqual([{ field: 'email' }]);
  });

  it('has the actor, target, request and a 400-day TTL, and answers the route schema', () => {
    const record = auditFromItem(items[0]!);
    expect(record).toMatchObject({
      action: 'candidate.updated',
      at: '2026-03-01T10:00:00.000Z',
      actor: { type: 'user', id: 'u-1', email: 'admin@example.com' },
      target: { type: 'candidate', id: 'c-1' },
      ip: '192.0.2.1',
      user_agent: 'vitest',
      request_id: 'req-1',
    });
    expect(AuditRecord.safeParse(record).success).toBe(true);
    expect(items[0]![TABLE_DEF.ttlAttribute]).toBe(NOW / 1000 + AUDIT_TTL_DAYS * 86_400);
    expect(AUDIT_TTL_DAYS).toBe(400);
  });

  it('names a token by id and name, and goes into a transaction as one conditional Put of its intent', () => {
    expect(auditActorOf(token)).toEqual({ type: 'token', id: 'tok-1', name: 'ATS sync' });
    const puts = auditPuts(TENANT, auditBy(token, 'token.revoked', { type: 'token', id: 'tok-2' }));
    expect(puts).toHaveLength(1);
    expect(puts[0]!.Put.ConditionExpression).toBe('attribute_not_exists(PK)');
    expect(puts[0]!.Put.Item).toMatchObject({
      type: 'audit_intent',
      record: { actor_type: 'token', actor_id: 'tok-1', actor_name: 'ATS sync' },
    });
  });

  it('keeps a webhook URL as its host only', () => {
    expect(urlHost('https://user:pw@hooks.example.com:8443/in?token=s3cret')).toBe('hooks.example.com:8443');
    expect(urlHost('not a url')).toBeNull();
  });

  it('a record wakes no stream consumer; its intent only the table maintenance consumer; neither makes an event', () => {
    for (const item of items) {
      const rec = streamRecord('INSERT', item);
      for (const pattern of [...STREAM_FILTER_PATTERNS, ...MAINTENANCE_FILTER_PATTERNS]) expect(matchesPattern(pattern, rec)).toBe(false);
      expect(eventsFromRecord(rec)).toEqual([]);
    }
    const rec = streamRecord('INSERT', intent);
    for (const pattern of STREAM_FILTER_PATTERNS) expect(matchesPattern(pattern, rec)).toBe(false);
    expect(AUDIT_INTENT_FILTER_PATTERNS.some((p) => matchesPattern(p, rec))).toBe(true);
    expect(MAINTENANCE_FILTER_PATTERNS).toEqual(expect.arrayContaining(AUDIT_INTENT_FILTER_PATTERNS));
    expect(eventsFromRecord(rec)).toEqual([]);
  });
});

describe('audit queries', () => {
  it('read the most selective view: target, then actor, then action, then all', () => {
    expect(auditPlan({ actor: 'u', action: 'a.b', target: 't' })).toEqual({
      view: 'target',
      value: 't',
      rest: [
        ['actor_id', 'u'],
        ['action', 'a.b'],
      ],
    });
    expect(auditPlan({ actor: 'u', action: 'a.b' }).view).toBe('actor');
    expect(auditPlan({ action: 'a.b' }).view).toBe('action');
    expect(auditPlan({})).toEqual({ view: 'all', value: '', rest: [] });
  });

  it('are a key range of their view, newest first, bounded by from and to (inclusive)', () => {
    const from = '2026-01-01T00:00:00.000Z';
    const to = '2026-02-01T00:00:00.000Z';
    const q = auditQueryInput(TENANT, { actor: 'u-1', from, to });
    expect(q.IndexName).toBe('GSI1');
    expect(q.KeyConditionExpression).toBe('#pk = :pk AND #sk BETWEEN :lo AND :hi');
    expect(q.ExpressionAttributeNames).toEqual({ '#pk': 'GSI1PK', '#sk': 'GSI1SK' });
    expect(q.ScanIndexForward).toBe(false);
    expect(q.FilterExpression).toBeUndefined();
    expect(q.ExpressionAttributeValues).toEqual({ ':pk': `T#${TENANT}#AUDIT#A#u-1`, ':lo': from, ':hi': `${to}#~` });
    // A record at `to` exactly is inside; one a millisecond later is not.
    const [atTo] = recordItems({ action: 'x.y', actor: { type: 'user', id: 'u-1' }, target: { type: 't', id: 't' }, at: to });
    const sk = String(atTo!.GSI1SK);
    expect(sk >= (q.ExpressionAttributeValues![':lo'] as string) && sk <= (q.ExpressionAttributeValues![':hi'] as string)).toBe(true);
    expect(`2026-02-01T00:00:00.001Z#x` > (q.ExpressionAttributeValues![':hi'] as string)).toBe(true);
    const combined = auditQueryInput(TENANT, { actor: 'u-1', action: 'token.created' });
    expect(combined.FilterExpression).toBe('#f0 = :f0');
    expect(combined.ExpressionAttributeNames).toMatchObject({ '#f0': 'action' });
    // All records: the audit partition itself, its `T#` keys only (no index entry is needed).
    const all = auditQueryInput(TENANT, {});
    expect(all.IndexName).toBeUndefined();
    expect(all.ExpressionAttributeNames).toEqual({ '#pk': 'PK', '#sk': 'SK' });
    expect(all.ExpressionAttributeValues).toEqual({ ':pk': `T#${TENANT}#AUDIT`, ':lo': 'T#0', ':hi': 'T#~' });
    expect(auditQueryInput(TENANT, { target: 'c-1' }).IndexName).toBe('GSI2');
    expect(auditQueryInput(TENANT, { action: 'x.y' }).IndexName).toBe('GSI5');
  });

  it('page keys fit only their own view', () => {
    const key = auditPageKey(TENANT, { target: 'c-1' });
    expect(key.attrs).toEqual(['PK', 'SK', 'GSI2PK', 'GSI2SK']);
    expect(key.partitions).toEqual({ PK: `T#${TENANT}#AUDIT`, GSI2PK: `T#${TENANT}#AUDIT#O#c-1` });
    const [item] = recordItems({ action: 'x.y', actor: { type: 'system', id: 'job' }, target: { type: 't', id: 'c-1' } });
    expect(key.sortKey.test(String(item!.SK))).toBe(true);
    expect(key.sortKey.test(`O#c-1#${item!.at}#${item!.id}`)).toBe(false);
    expect(auditPageKey(TENANT, {})).toEqual({ attrs: ['PK', 'SK'], partitions: { PK: `T#${TENANT}#AUDIT` }, sortKey: key.sortKey });
  });
});

describe("a group of records (one transaction of one actor's one action)", () => {
  const created = (id: string) =>
    auditBy(token, 'candidate.created', { type: 'candidate', id }, [
      ...diffFields(['name', 'email', 'stage'], undefined, { name: 'Ada Lovelace', email: 'ada@example.com', stage: 'applied' }),
      { field: 'import_id', after: 'job-1' },
    ]);
  const entries = ['c-1', 'c-2', 'c-3'].map(created);
  const intent = auditIntentItem(TENANT, entries, NOW)!;
  const items = auditRecordItems(intent);
  const at = '2026-03-01T10:00:00.000Z';

  it('is one intent holding its records, and expands into one complete item per record', () => {
    expect(intent.records).toHaveLength(3);
    expect(items).toHaveLength(3);
    expect(new Set(items.map((i) => i.id)).size).toBe(3);
    expect(items.map((i) => i.target_id)).toEqual(['c-1', 'c-2', 'c-3']);
    expect(intent.SK).toBe(items[0]!.id);
    for (const i of items) {
      expect([i.PK, i.SK, i.type, i.expires_at]).toEqual([
        `T#${TENANT}#AUDIT`,
        `T#${at}#${i.id}`,
        'audit',
        Math.floor(NOW / 1000) + AUDIT_TTL_DAYS * 86_400,
      ]);
      expect(AuditRecord.safeParse(auditFromItem(i)).success).toBe(true);
      expect(i).not.toHaveProperty('records');
    }
    // A grouped record is the record a change of its own would have made.
    const single = recordItems(entries[0]!, NOW)[0]!;
    const strip = ({ id: _i, SK: _s, GSI1SK: _a, GSI2SK: _o, GSI5SK: _x, ...rest }: Record<string, unknown>) => rest;
    expect(strip(items[0]!)).toEqual(strip(single));
    expect(JSON.stringify(intent)).not.toContain('Ada');
  });

  it('is one action of one actor from one request: anything else is refused', () => {
    expect(() => auditIntentItem(TENANT, [entries[0]!, { ...entries[1]!, action: 'candidate.updated' }], NOW)).toThrow(/one action/);
    expect(() => auditIntentItem(TENANT, [entries[0]!, { ...entries[1]!, actor: { type: 'token', id: 'tok-2' } }], NOW)).toThrow(
      /one actor/,
    );
    expect(() => auditIntentItem(TENANT, [entries[0]!, { ...entries[1]!, request: { ip: '192.0.2.9' } }], NOW)).toThrow(/one request/);
    expect(auditIntentItem(TENANT, [], NOW)).toBeUndefined();
  });
});
