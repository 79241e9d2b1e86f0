import { describe, expect, it } from 'vitest';
import { bool, CorruptItemError, listOf, num, oneOf, optNumberMap, optStr, roleOf, str } from '../../lib/store/codec';
import { replayJobFromItem } from '../../lib/store/replay-jobs';
import { attemptFromItem } from '../../lib/store/webhook-attempts';
import { endpointFromItem } from '../../lib/store/webhook-endpoints';
import { storedEventFromItem } from '../../lib/store/webhook-events';
import { EVENT_TYPES } from '../../lib/model';

describe('store codecs narrow item attributes', () => {
  const item = { id: 'x', n: 3, role: 'admin', scopes: ['a', 'b'], nil: null, map: { applied: 2 }, on: false };

  it('returns attributes of the right type', () => {
    expect(str(item, 'id', 'e')).toBe('x');
    expect(bool(item, 'on', 'e')).toBe(false);
    expect(optStr(item, 'missing', 'e')).toBeUndefined();
    expect(optStr(item, 'nil', 'e')).toBeUndefined();
    expect(oneOf(item, 'role', ['admin', 'member'], 'e')).toBe('admin');
    expect(listOf(item, 'scopes', ['a', 'b', 'c'], 'e')).toEqual(['a', 'b']);
    expect(optNumberMap(item, 'map', 'e')).toEqual({ applied: 2 });
    expect(optNumberMap(item, 'missing', 'e')).toBeUndefined();
  });

  it('reads a role: the `member` stored before roles were split is a recruiter; an unknown one is corrupt', () => {
    expect(roleOf({ role: 'member' }, 'user')).toBe('recruiter');
    for (const role of ['admin', 'recruiter', 'hiring_manager', 'interviewer']) expect(roleOf({ role }, 'session')).toBe(role);
    expect(() => roleOf({ role: 'owner' }, 'user')).toThrow(CorruptItemError);
    expect(() => roleOf({}, 'user')).toThrow(CorruptItemError);
  });

  it('throws on a missing or mistyped attribute, naming it but not its value', () => {
    expect(() => str(item, 'missing', 'user')).toThrow(CorruptItemError);
    expect(() => str(item, 'n', 'user')).toThrow('corrupt user item: attribute n');
    expect(() => optStr(item, 'n', 'user')).toThrow(CorruptItemError);
    expect(() => bool(item, 'id', 'webhook')).toThrow(CorruptItemError);
    expect(() => bool(item, 'missing', 'webhook')).toThrow(CorruptItemError);
    expect(() => oneOf(item, 'role', ['member'], 'user')).toThrow(CorruptItemError);
    expect(() => oneOf(item, 'role', ['member'], 'user')).not.toThrow(/admin/);
    expect(() => listOf(item, 'scopes', ['a'], 'token')).toThrow(CorruptItemError);
    expect(() => listOf(item, 'id', ['x'], 'token')).toThrow(CorruptItemError);
    expect(() => optNumberMap(item, 'scopes', 'tenant')).toThrow(CorruptItemError);
    expect(() => optNumberMap({ m: { applied: '2' } }, 'm', 'tenant')).toThrow(CorruptItemError);
  });
});

describe('number and defaulted boolean attributes', () => {
  it('reads them, giving the default only for an absent attribute', () => {
    expect(num({ n: 3 }, 'n', 'e')).toBe(3);
    expect(num({}, 'n', 'e', 0)).toBe(0);
    expect(num({ n: null }, 'n', 'e', 0)).toBe(0);
    expect(bool({}, 'b', 'e', false)).toBe(false);
    expect(() => num({}, 'n', 'e')).toThrow('corrupt e item: attribute n');
    expect(() => num({ n: '3' }, 'n', 'e', 0)).toThrow(CorruptItemError);
    expect(() => num({ n: Number.NaN }, 'n', 'e')).toThrow(CorruptItemError);
    expect(() => bool({ b: 'yes' }, 'b', 'e', false)).toThrow(CorruptItemError);
  });
});

describe('webhook entity codecs', () => {
  const endpoint = {
    PK: 'T#t#WEBHOOKS',
    SK: 'WH#w',
    type: 'webhook',
    id: 'w',
    tenant_id: 't',
    url: 'https://example.com/h',
    secret: 's',
    events: ['candidate.created'],
    active: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
  const attempt = {
    id: '0190a000-0000-7000-8000-000000000000',
    event_id: 'e',
    event_type: 'candidate.created',
    attempt: 1,
    response_status: 200,
    success: true,
    duration_ms: 12,
    created_at: '2026-01-01T00:00:00.000Z',
  };
  const job = { id: 'j', webhook_id: 'w', since: '2026-01-01T00:00:00.000Z', status: 'running', created_at: 'a', updated_at: 'b' };

  it('fill what an item may leave out', () => {
    expect(endpointFromItem(endpoint)).toMatchObject({ failure_count: 0, description: null, failing_since: null, previous_secret: null });
    expect(attemptFromItem(attempt)).toMatchObject({
      error: null,
      response_body: null,
      next_attempt_at: null,
      dead_lettered: false,
      error_category: null,
    });
    expect(replayJobFromItem(job)).toEqual({ ...job, queued: 0, sent: 0, finished: 0, position: 0, scan_done: false });
    expect(storedEventFromItem({ event_id: 'e', event_type: 't', body: '{}', stored_at: 'x' })).toEqual({
      event_id: 'e',
      event_type: 't',
      body: '{}',
      stored_at: 'x',
    });
  });

  it('read an all-events endpoint with every event type there is, old ones included', async () => {
    const before = EVENT_TYPES.filter((t) => !t.startsWith('requisition.'));
    // Stored before the requisition events existed, with every type there was: all events.
    expect(endpointFromItem({ ...endpoint, events: before }).events).toEqual([...EVENT_TYPES]);
    expect(endpointFromItem({ ...endpoint, events: ['candidate.created'], all_events: true }).events).toEqual([...EVENT_TYPES]);
    // A chosen subset stays that subset, then and now.
    expect(endpointFromItem({ ...endpoint, events: before.slice(1) }).events).toEqual(before.slice(1));
    expect(endpointFromItem({ ...endpoint, events: before, all_events: false }).events).toEqual(before);
  });

  it('refuse a malformed item, naming the entity and the attribute', () => {
    expect(() => endpointFromItem({ ...endpoint, events: ['nope'] })).toThrow('corrupt webhook item: attribute events');
    expect(() => endpointFromItem({ ...endpoint, failure_count: '2' })).toThrow('corrupt webhook item: attribute failure_count');
    expect(() => attemptFromItem({ ...attempt, success: undefined })).toThrow('corrupt webhook_attempt item: attribute success');
    expect(() => attemptFromItem({ ...attempt, response_status: '200' })).toThrow(
      'corrupt webhook_attempt item: attribute response_status',
    );
    expect(() => replayJobFromItem({ ...job, status: 'paused' })).toThrow('corrupt webhook_replay item: attribute status');
    expect(() => replayJobFromItem({ ...job, queued: 'many' })).toThrow('corrupt webhook_replay item: attribute queued');
    expect(() => storedEventFromItem({ event_id: 'e', event_type: 't', stored_at: 'x' })).toThrow(
      'corrupt webhook_event item: attribute body',
    );
  });
});
