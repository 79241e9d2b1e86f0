/**
 * The requisition part of a hire's transaction (lib/store/requisition-counters.ts
 * reqCounterWrite), built from the part the rule decided (requisitionPart, whose decisions
 * test/unit/hire-rules.test.ts holds): a hire that fills writes the `filled` change and its
 * history record on its own requisition only.
 */
import { describe, expect, it } from 'vitest';
import { reqCounterWrite } from '../../lib/store/requisition-counters';
import { counter } from '../../lib/store/table';

const AT = '2026-11-24T12:00:00.000Z';
const PLACED = counter.stage('placed');
const deltas = { [counter.stage('offer_accepted')]: -1, [PLACED]: 1 };

describe('reqCounterWrite on a hire', () => {
  it('the hire that fills: conditioned on the version read, a system record, the status counters', () => {
    const fills = reqCounterWrite('t', { id: 'a', mustBeOpen: false, placing: true, fills: { version: 1, title: 'A' } }, deltas, AT);
    expect(fills.filled).toHaveLength(1);
    expect(JSON.stringify(fills.filled[0])).toContain('REQ#a#H#');
    expect(fills.stats).toEqual({ [counter.reqStatus('open')]: -1, [counter.reqStatus('filled')]: 1 });
    expect(JSON.stringify(fills.update)).toContain('#v = :v');
  });

  it('a hire that counts: no status record, a condition that it neither fills nor exceeds', () => {
    const write = reqCounterWrite('t', { id: 'b', mustBeOpen: false, placing: true }, deltas, AT);
    expect(write.filled).toEqual([]);
    expect(write.stats).toEqual({});
    expect(JSON.stringify(write.update)).toContain('"SK":"REQ#b"');
    expect(JSON.stringify(write.update)).toContain('#placed < #fill');
  });
});
