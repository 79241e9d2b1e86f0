/**
 * The audit record's shape and key layout (lib/store/audit.ts, lib/store/audit-query.ts): four
 * complete copies per record, personal values never kept, webhook URLs as hosts, a 400-day TTL,
 * each filter a key range of its own view, and no stream consumer woken by a record.
 */
import { describe, expect, it } from 'vitest';
import { keys, STUCK_FILTER_PATTERNS, TABLE_DEF } from '../../lib/store/table';
import { eventsFromRecord, STREAM_FILTER_PATTERNS } from '../../lib/webhooks/events';
import { AuditRecord } from '../../lib/schemas';
import { streamRecord, TENANT } from '../helpers/lambda-records';

// The store modules build the table client at import (no table is used here).
process.env.TABLE_NAME ??= 'unused';
const { matchesPattern } = await import('../../dev/stream');
const { auditActorOf, auditBy } = await import('../../lib/domain/principal');
const { AUDIT_TTL_DAYS, auditItems, auditPuts, diffFields, urlHost, viewPrefix } = await import('../../lib/store/audit');
const { auditFromItem, auditPageKey, auditPlan, auditQueryInput } = await import('../../lib/store/audit-query');

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
const token = { kind: 'token' as const, tenantId: TENANT, tenantSlug: 'acme', tokenId: 'tok-1', tokenName: 'ATS sync', scopes: ['*'] };

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
  const items = auditItems(TENANT, entry, NOW);

  it('is four complete copies, one per view, in the workspace audit partition', () => {
    expect(items).toHaveLength(4);
    const at = '2026-03-01T10:00:00.000Z';
    const id = items[0]!.id as string;
    expect(items.map((i) => i.SK)).toEqual([`T#${at}#${id}`, `A#u-1#${at}#${id}`, `O#c-1#${at}#${id}`, `X#candidate.updated#${at}#${id}`]);
    for (const i of items) {
      expect(i.PK).toBe(keys.auditPartition(TENANT));
      expect(i.PK).toBe(`T#${TENANT}#AUDIT`);
      const { PK: _p, SK: _s, ...rest } = i;
      const { PK: _p0, SK: _s0, ...first } = items[0]!;
      expect(rest).toEqual(first);
    }
  });

  it('names personal fields without their values, and keeps others before and after', () => {
    const record = auditFromItem(items[0]!);
    expect(record.changes).toEqual([
      { field: 'name' },
      { field: 'email' },
      { field: 'phone' },
      { field: 'req_id', before: null, after: 'r-1' },
    ]);
    const text = JSON.stringify(items);
    for (const personal of ['Ada', 'ada@example', '7946']) expect(text).not.toContain(personal);
  });

  it('drops personal values a caller passes for a candidate anyway', () => {
    const [item] = auditItems(TENANT, { ...entry, changes: [{ field: 'email', before: 'a@example.com', after: 'b@example.com' }] }, NOW);
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

  it('names a token by id and name, and goes into a transaction as conditional Puts', () => {
    expect(auditActorOf(token)).toEqual({ type: 'token', id: 'tok-1', name: 'ATS sync' });
    const puts = auditPuts(TENANT, auditBy(token, 'token.revoked', { type: 'token', id: 'tok-2' }));
    expect(puts).toHaveLength(4);
    for (const p of puts) expect(p.Put.ConditionExpression).toBe('attribute_not_exists(PK)');
  });

  it('keeps a webhook URL as its host only', () => {
    expect(urlHost('https://user:pw@hooks.example.com:8443/in?token=s3cret')).toBe('hooks.example.com:8443');
    expect(urlHost('not a url')).toBeNull();
  });

  it('wakes neither the webhook fan-out nor the stuck re-index, and makes no event', () => {
    for (const item of items) {
      const rec = streamRecord('INSERT', item);
      for (const pattern of [...STREAM_FILTER_PATTERNS, ...STUCK_FILTER_PATTERNS]) expect(matchesPattern(pattern, rec)).toBe(false);
      expect(eventsFromRecord(rec)).toEqual([]);
    }
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

  it('are a key range, newest first, bounded by from and to (inclusive)', () => {
    const from = '2026-01-01T00:00:00.000Z';
    const to = '2026-02-01T00:00:00.000Z';
    const q = auditQueryInput(TENANT, { actor: 'u-1', from, to });
    expect(q.KeyConditionExpression).toBe('PK = :pk AND SK BETWEEN :lo AND :hi');
    expect(q.ScanIndexForward).toBe(false);
    expect(q.FilterExpression).toBeUndefined();
    expect(q.ExpressionAttributeValues).toEqual({ ':pk': `T#${TENANT}#AUDIT`, ':lo': `A#u-1#${from}`, ':hi': `A#u-1#${to}#~` });
    // A record at `to` exactly is inside; one a millisecond later is not.
    const [atTo] = auditItems(TENANT, { action: 'x.y', actor: { type: 'user', id: 'u-1' }, target: { type: 't', id: 't' }, at: to });
    const sk = `A#u-1#${to}#${atTo!.id}`;
    expect(sk >= (q.ExpressionAttributeValues![':lo'] as string) && sk <= (q.ExpressionAttributeValues![':hi'] as string)).toBe(true);
    expect(`A#u-1#2026-02-01T00:00:00.001Z#x` > (q.ExpressionAttributeValues![':hi'] as string)).toBe(true);
    const combined = auditQueryInput(TENANT, { actor: 'u-1', action: 'token.created' });
    expect(combined.FilterExpression).toBe('#f0 = :f0');
    expect(combined.ExpressionAttributeNames).toEqual({ '#f0': 'action' });
  });

  it('page keys fit only their own view', () => {
    const key = auditPageKey(TENANT, { target: 'c-1' });
    expect(key.partitions).toEqual({ PK: `T#${TENANT}#AUDIT` });
    const [item] = auditItems(TENANT, { action: 'x.y', actor: { type: 'system', id: 'job' }, target: { type: 't', id: 'c-1' } });
    expect(key.sortKey.test(`${viewPrefix('target', 'c-1')}${item!.at}#${item!.id}`)).toBe(true);
    expect(key.sortKey.test(`${viewPrefix('target', 'c-2')}${item!.at}#${item!.id}`)).toBe(false);
    expect(key.sortKey.test(`${viewPrefix('all')}${item!.at}#${item!.id}`)).toBe(false);
  });
});
