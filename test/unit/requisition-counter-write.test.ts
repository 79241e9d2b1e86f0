/**
 * The requisition part of a hire's transaction (lib/store/requisitions.ts reqCounterWrite): it
 * decides from the requisition a failed condition returned, and only from that requisition's own
 * read. A retry whose candidate moved to another requisition must not reuse the old one's.
 */
import { describe, expect, it } from 'vitest';
import { reqCounterWrite } from '../../lib/store/requisition-counters';
import { HeadcountReachedError } from '../../lib/domain/requisition-rules';
import { counter } from '../../lib/store/table';

const AT = '2026-11-24T12:00:00.000Z';
const PLACED = counter.stage('placed');
const requisitionA = { id: 'a', title: 'A', status: 'open', headcount: 2, version: 1, [PLACED]: 2, created_at: AT };
const deltas = { [counter.stage('offer_accepted')]: -1, [PLACED]: 1 };

describe('reqCounterWrite on a hire', () => {
  it("decides from the requisition's own read: full refuses, one short fills with a system record", () => {
    expect(() => reqCounterWrite('t', 'a', deltas, { placing: true, seen: requisitionA, at: AT })).toThrow(HeadcountReachedError);
    const fills = reqCounterWrite('t', 'a', deltas, { placing: true, seen: { ...requisitionA, [PLACED]: 1 }, at: AT });
    expect(fills.extra).toHaveLength(1);
    expect(JSON.stringify(fills.extra[0])).toContain('REQ#a#H#');
    expect(fills.stats).toEqual({ [counter.reqStatus('open')]: -1, [counter.reqStatus('filled')]: 1 });
  });

  it("ignores another requisition's read: no refusal, no status record on the wrong requisition", () => {
    const write = reqCounterWrite('t', 'b', deltas, { placing: true, seen: requisitionA, at: AT });
    expect(write.extra).toEqual([]);
    expect(write.stats).toEqual({});
    expect(JSON.stringify(write.update)).toContain('"SK":"REQ#b"');
    expect(JSON.stringify(write.update)).not.toContain('REQ#a');
  });
});
