import { describe, expect, it } from 'vitest';
import { $add, $entries, $ifNotExists, $increment, $remove, patchDiff, update } from '../../lib/store/update';

describe('update expressions from a changes object', () => {
  it('SETs plain values, REMOVEs and ADDs through placeholders, skipping undefined', () => {
    expect(update({ status: 'failed', position: 3, skipped: undefined, failing_since: $remove(), sent: $add(2) })).toEqual({
      UpdateExpression: 'SET #u0 = :u1, #u2 = :u3 REMOVE #u4 ADD #u5 :u6',
      ExpressionAttributeNames: { '#u0': 'status', '#u2': 'position', '#u4': 'failing_since', '#u5': 'sent' },
      ExpressionAttributeValues: { ':u1': 'failed', ':u3': 3, ':u6': 2 },
    });
  });

  it('writes if_not_exists for first-time values and counters that start at zero', () => {
    expect(update({ failing_since: $ifNotExists('t'), failure_count: $increment(1) }).UpdateExpression).toBe(
      'SET #u0 = if_not_exists(#u0, :u1), #u2 = if_not_exists(#u2, :u3) + :u4',
    );
  });

  it('keeps a hand-written condition with its own placeholders, and leaves out empty maps', () => {
    const parts = update(
      { gone: $remove() },
      { expression: 'id = :id AND #s = :running', names: { '#s': 'status' }, values: { ':id': 'j', ':running': 'running' } },
    );
    expect(parts).toEqual({
      UpdateExpression: 'REMOVE #u0',
      ConditionExpression: 'id = :id AND #s = :running',
      ExpressionAttributeNames: { '#u0': 'gone', '#s': 'status' },
      ExpressionAttributeValues: { ':id': 'j', ':running': 'running' },
    });
    expect(update({ x: $remove() })).not.toHaveProperty('ExpressionAttributeValues');
  });

  it('SETs and REMOVEs entries of a map through placeholders, and an entry list with none is no change', () => {
    expect(update({ n: $add(1), guards: $entries({ 'req-2': 'c1' }, ['none']) })).toEqual({
      UpdateExpression: 'SET #u2.#u3 = :u4 REMOVE #u2.#u5 ADD #u0 :u1',
      ExpressionAttributeNames: { '#u0': 'n', '#u2': 'guards', '#u3': 'req-2', '#u5': 'none' },
      ExpressionAttributeValues: { ':u1': 1, ':u4': 'c1' },
    });
    expect(update({ a: 1, guards: $entries({}) })).toEqual({
      UpdateExpression: 'SET #u0 = :u1',
      ExpressionAttributeNames: { '#u0': 'a' },
      ExpressionAttributeValues: { ':u1': 1 },
    });
  });

  it('refuses no changes and a condition whose placeholders clash with generated ones', () => {
    expect(() => update({ a: undefined })).toThrow(/no changes/);
    expect(() => update({ a: 1 }, { expression: 'b = :u0', values: { ':u0': 1 } })).toThrow(/clashes/);
  });
});

describe('patchDiff', () => {
  it('sets new values, removes nulls, and skips what is left out or already there', () => {
    const current = { title: 'A', location: 'Berlin', department: 'Ops' };
    const patch = { title: 'A', location: null, department: 'Eng', job_type: undefined, headcount: 2 };
    expect(patchDiff(current, patch, ['title', 'location', 'department', 'job_type', 'headcount'] as const)).toEqual({
      set: { department: 'Eng', headcount: 2 },
      remove: ['location'],
    });
    // A null for a field the item does not have changes nothing.
    expect(patchDiff({}, { location: null }, ['location'] as const)).toEqual({ set: {}, remove: [] });
  });
});
