/**
 * The audit record's shape and key layout (lib/store/audit.ts, lib/store/audit-query.ts): four
 * complete copies per record (a group of n records in n + 3 items, read back as the same
 * records), personal values never kept, webhook URLs as hosts, a 400-day TTL,
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
const { AUDIT_TTL_DAYS, auditGroupItems, auditItems, auditPuts, diffFields, urlHost, viewPrefix } = await import('../../lib/store/audit');
const { auditFromItem, auditPageKey, auditPlan, auditQueryInput, expandAuditItems } = await import('../../lib/store/audit-query');

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

describe("a group of records (one transaction of one actor's one action)", () => {
  const created = (id: string) =>
    auditBy(token, 'candidate.created', { type: 'candidate', id }, [
      ...diffFields(['name', 'email', 'stage'], undefined, { name: 'Ada Lovelace', email: 'ada@example.com', stage: 'applied' }),
      { field: 'import_id', after: 'job-1' },
    ]);
  const entries = ['c-1', 'c-2', 'c-3'].map(created);
  const items = auditGroupItems(TENANT, entries, NOW);
  const at = '2026-03-01T10:00:00.000Z';
  const targets = items.slice(0, 3);
  const shared = items.slice(3);

  it("is each record's own target copy plus one shared copy per other view: n + 3 items", () => {
    expect(items).toHaveLength(6);
    const ids = targets.map((t) => t.id as string);
    // One random id whose last four hex digits count from 0: no other id can fall between them.
    expect(ids.map((id) => id.slice(0, 32))).toEqual(Array(3).fill(ids[0]!.slice(0, 32)));
    expect(ids.map((id) => id.slice(32))).toEqual(['0000', '0001', '0002']);
    expect(targets.map((t) => t.SK)).toEqual(ids.map((id, n) => `O#c-${n + 1}#${at}#${id}`));
    expect(shared.map((t) => t.SK)).toEqual([`T#${at}#${ids[0]}`, `A#tok-1#${at}#${ids[0]}`, `X#candidate.created#${at}#${ids[0]}`]);
    for (const i of items)
      expect([i.PK, i.type, i.expires_at]).toEqual([`T#${TENANT}#AUDIT`, 'audit', Math.floor(NOW / 1000) + AUDIT_TTL_DAYS * 86_400]);
    // A target copy is a complete record, as a single record's copy is.
    const single = auditItems(TENANT, entries[0]!, NOW)[2]!;
    const { id: _i, SK: _s, ...own } = targets[0]!;
    const { id: _i0, SK: _s0, ...alone } = single;
    expect(own).toEqual(alone);
  });

  it('reads back, in every shared view, as the same records as their target copies say, newest id first', () => {
    for (const copy of shared) {
      const records = expandAuditItems([copy]);
      expect(records.map((r) => r.SK)).toEqual(
        [...targets].reverse().map((t) => `${String(copy.SK).slice(0, String(copy.SK).indexOf(at))}${at}#${t.id}`),
      );
      expect(records.map(auditFromItem)).toEqual([...targets].reverse().map(auditFromItem));
      for (const r of records) {
        expect(r).not.toHaveProperty('records');
        expect(AuditRecord.safeParse(auditFromItem(r)).success).toBe(true);
      }
    }
  });

  it('resumes after a cursor inside the group, and leaves records of one item alone', () => {
    const copy = shared[0]!;
    const [newest, middle, oldest] = expandAuditItems([copy]);
    expect(expandAuditItems([copy], String(newest!.SK)).map((r) => r.id)).toEqual([middle!.id, oldest!.id]);
    expect(expandAuditItems([copy], String(middle!.SK)).map((r) => r.id)).toEqual([oldest!.id]);
    // The oldest record's key is the shared copy's own: a Query after it never returns the copy.
    expect(oldest!.SK).toBe(copy.SK);
    const lone = auditItems(TENANT, entries[0]!, NOW)[0]!;
    expect(expandAuditItems([lone, copy], String(middle!.SK))).toEqual([lone, oldest]);
  });

  it('is one action of one actor from one request: anything else is refused', () => {
    expect(() => auditGroupItems(TENANT, [entries[0]!, { ...entries[1]!, action: 'candidate.updated' }], NOW)).toThrow(/one action/);
    expect(() => auditGroupItems(TENANT, [entries[0]!, { ...entries[1]!, actor: { type: 'token', id: 'tok-2' } }], NOW)).toThrow(
      /one actor/,
    );
    expect(() => auditGroupItems(TENANT, [entries[0]!, { ...entries[1]!, request: { ip: '192.0.2.9' } }], NOW)).toThrow(/one request/);
    expect(auditGroupItems(TENANT, [], NOW)).toEqual([]);
  });
});
