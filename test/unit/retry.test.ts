/**
 * The read-decide-write loop (lib/domain/retry.ts) without DynamoDB: a refusal is decided again
 * on what it saw, a lost race is tried again, and the attempt cap answers 409.
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { decideAndWrite } = await import('../../lib/domain/retry');
const { MAX_ATTEMPTS } = await import('../../lib/store/tx');
const { ConflictError } = await import('../../lib/errors');
const { HeadcountReachedError, requisitionPart } = await import('../../lib/domain/requisition-rules');
type RequisitionSeen = import('../../lib/domain/requisition-rules').RequisitionSeen;

const open = (hires: number): RequisitionSeen => ({ id: 'r1', title: 'T', status: 'open', version: 1, hires, headcount: 2 });

/** A requisition held by the "store": its condition refuses a hire the plan did not expect. */
function hireLoop(held: RequisitionSeen, first: RequisitionSeen | undefined) {
  const writes: unknown[] = [];
  const run = decideAndWrite({
    state: first,
    decide: (seen: RequisitionSeen | undefined) => {
      const d = requisitionPart('r1', seen, { placing: true });
      return 'refuse' in d ? d : { write: d.part };
    },
    write: async (part) => {
      writes.push(part);
      const fills = held.hires + 1 >= held.headcount!;
      if (held.hires >= held.headcount! || Boolean(part.fills) !== fills) {
        return { outcome: { refused: 'requisition' as const, seen: held as unknown as Record<string, unknown>, all: {} } };
      }
      held.hires++;
      return { outcome: { written: true as const }, result: part };
    },
    again: (_s, lost) => ('refused' in lost ? (lost.seen as unknown as RequisitionSeen) : _s),
    busy: 'busy',
  });
  return { run, writes };
}

describe('decideAndWrite', () => {
  it('a refused condition is decided again on the item it saw: the hire that fills', async () => {
    const { run, writes } = hireLoop(open(1), undefined);
    expect(await run).toEqual({ id: 'r1', mustBeOpen: false, placing: true, fills: { version: 1, title: 'T' } });
    expect(writes).toHaveLength(2);
  });

  it('a refusal the rule then makes is thrown as the rule typed it', async () => {
    const { run, writes } = hireLoop(open(2), undefined);
    await expect(run).rejects.toBeInstanceOf(HeadcountReachedError);
    expect(writes).toHaveLength(1);
  });

  it('races that never clear stop at the attempt cap with a 409', { timeout: 10_000 }, async () => {
    let writes = 0;
    const run = decideAndWrite<number, number, number, string>({
      state: 0,
      decide: (n) => ({ write: n }),
      write: async () => {
        writes++;
        return { outcome: { conflict: true } };
      },
      again: (n) => n + 1,
      busy: 'too busy',
    });
    await expect(run).rejects.toThrow(ConflictError);
    await expect(run).rejects.toThrow('too busy');
    expect(writes).toBe(MAX_ATTEMPTS);
  });

  it('an answer that needs no write writes nothing', async () => {
    let writes = 0;
    const r = await decideAndWrite({
      state: 'x',
      decide: () => ({ done: 'nothing to do' }),
      write: async () => {
        writes++;
        return { outcome: { written: true as const } };
      },
      again: (s) => s,
      busy: 'b',
    });
    expect([r, writes]).toEqual(['nothing to do', 0]);
  });
});
