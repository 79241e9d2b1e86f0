import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../lib/domain/cursor';
import { candidatePageKey } from '../../lib/store/candidate-lists';
import { attemptPageKey } from '../../lib/store/webhook-attempts';
import { keys } from '../../lib/store/table';

const ID = '0190a000-0000-7000-8000-00000000000a';
const deliveries = (tenantId: string, webhookId: string, status: string | null = null) => ({
  tenantId,
  filters: JSON.stringify(['deliveries', webhookId, status, null]),
  key: attemptPageKey(tenantId, webhookId),
});

describe('one list cursor for every paged list', () => {
  it('round-trips a delivery-log page key, keeping only the key attributes', () => {
    const scope = deliveries('t1', 'w1');
    const key = keys.attempt('t1', 'w1', ID);
    expect(decodeCursor(encodeCursor(scope, { ...key, body: 'not kept' }), scope)).toEqual(key);
  });

  it('binds a cursor to its tenant, list and filters', () => {
    const cursor = encodeCursor(deliveries('t1', 'w1'), keys.attempt('t1', 'w1', ID));
    expect(() => decodeCursor(cursor, deliveries('t2', 'w1'))).toThrow(/another workspace/);
    expect(() => decodeCursor(cursor, deliveries('t1', 'w2'))).toThrow(/other filters/);
    expect(() => decodeCursor(cursor, deliveries('t1', 'w1', 'failed'))).toThrow(/other filters/);
    const candidates = { tenantId: 't1', filters: JSON.stringify([null, null]), key: candidatePageKey('t1', { kind: 'all' }) };
    const candidateCursor = encodeCursor(candidates, keys.candidate('t1', ID));
    expect(decodeCursor(candidateCursor, candidates)).toEqual(keys.candidate('t1', ID));
    expect(() => decodeCursor(candidateCursor, deliveries('t1', 'w1'))).toThrow(/other filters/);
  });

  it("refuses a key outside the caller's list even under the right filters, and the old delivery format", () => {
    const scope = deliveries('t1', 'w1');
    expect(() => decodeCursor(encodeCursor(scope, keys.attempt('t1', 'w2', ID)), scope)).toThrow(/malformed/);
    expect(() => decodeCursor(encodeCursor(scope, keys.candidate('t1', ID)), scope)).toThrow(/another list/);
    expect(() => decodeCursor(Buffer.from(`a:${ID}`).toString('base64url'), scope)).toThrow(/altered or truncated/);
  });
});
