/**
 * The approval chain as pure rules (lib/domain/offer-approvals.ts): any-of and all-of steps, a
 * rejection, approvals in every order, a change of terms mid-approval (a new version asks again),
 * steps that apply only above an amount, and two approvers deciding on the same read (the write's
 * condition on the number of decisions makes the second decide again on the first's result).
 */
import { describe, expect, it } from 'vitest';

process.env.TABLE_NAME ??= 'unused';
const { chainState, decideApproval, stepsFor } = await import('../../lib/domain/offer-approvals');
const { ConflictError, ForbiddenError } = await import('../../lib/errors');
type ApprovalDecision = import('../../lib/domain/offer-approvals').ApprovalDecision;
type ApprovalStep = import('../../lib/domain/offer-approvals').ApprovalStep;

const AT = '2026-11-27T12:00:00.000Z';
const offer = (over: object = {}) => ({ status: 'pending_approval', version: 1, amount: 90000, currency: 'EUR', ...over });
const CHAIN: ApprovalStep[] = [
  { approvers: ['hm1', 'hm2'], mode: 'any' },
  { approvers: ['fin', 'ceo'], mode: 'all' },
];

/** Apply decisions one after another, as the runner does after each write. */
function run(chain: readonly ApprovalStep[], o = offer(), who: [string, 'approve' | 'reject'][]) {
  let decisions: ApprovalDecision[] = [];
  let status = o.status;
  const outcomes: string[] = [];
  for (const [userId, decision] of who) {
    const d = decideApproval({ ...o, status }, chain, decisions, { userId, decision, at: AT });
    if ('refuse' in d) outcomes.push(`refused:${d.refuse.status}`);
    else if ('done' in d) outcomes.push('unchanged');
    else {
      decisions = [...decisions, d.write.decision];
      if (d.write.status) status = d.write.status;
      outcomes.push(d.write.status ?? 'recorded');
    }
  }
  return { outcomes, status, decisions };
}

describe('the approval chain', () => {
  it('any-of: one approver of the step passes it; all-of: every approver must', () => {
    const r = run(CHAIN, offer(), [
      ['hm2', 'approve'],
      ['fin', 'approve'],
      ['ceo', 'approve'],
    ]);
    expect(r.outcomes).toEqual(['recorded', 'recorded', 'approved']);
    expect(r.status).toBe('approved');
  });

  it('all-of approvers in either order end the same way', () => {
    for (const order of [
      ['fin', 'ceo'],
      ['ceo', 'fin'],
    ]) {
      const r = run(CHAIN, offer(), [['hm1', 'approve'], ...order.map((u) => [u, 'approve'] as [string, 'approve'])]);
      expect(r.status, order.join(',')).toBe('approved');
    }
  });

  it('a later step waits for the earlier ones (409); someone outside the chain is refused (403)', () => {
    expect(run(CHAIN, offer(), [['fin', 'approve']]).outcomes).toEqual(['refused:409']);
    const outsider = decideApproval(offer(), CHAIN, [], { userId: 'intern', decision: 'approve', at: AT });
    expect('refuse' in outsider && outsider.refuse).toBeInstanceOf(ForbiddenError);
  });

  it('a rejection at any step sends the offer back to draft', () => {
    expect(run(CHAIN, offer(), [['hm1', 'reject']]).status).toBe('draft');
    expect(
      run(CHAIN, offer(), [
        ['hm1', 'approve'],
        ['fin', 'approve'],
        ['ceo', 'reject'],
      ]).status,
    ).toBe('draft');
  });

  it('the same approver again changes nothing; another any-of approver once the step passed is not needed (403)', () => {
    const r = run(CHAIN, offer(), [
      ['hm1', 'approve'],
      ['hm1', 'approve'],
      ['hm2', 'approve'],
    ]);
    expect(r.outcomes).toEqual(['recorded', 'unchanged', 'refused:403']);
  });

  it('an approver of two steps decides at each in turn', () => {
    const chain: ApprovalStep[] = [
      { approvers: ['ceo'], mode: 'any' },
      { approvers: ['ceo', 'fin'], mode: 'all' },
    ];
    const r = run(chain, offer(), [
      ['ceo', 'approve'],
      ['ceo', 'approve'],
      ['fin', 'approve'],
    ]);
    expect(r.outcomes).toEqual(['recorded', 'recorded', 'approved']);
  });

  it('a change mid-approval (a new version) asks the whole chain again', () => {
    const first = run(CHAIN, offer(), [
      ['hm1', 'approve'],
      ['fin', 'approve'],
    ]);
    expect(chainState(CHAIN, first.decisions, 1)).toEqual({ at: 1 });
    expect(chainState(CHAIN, first.decisions, 2)).toEqual({ at: 0 });
    const d = decideApproval(offer({ version: 2 }), CHAIN, first.decisions, { userId: 'fin', decision: 'approve', at: AT });
    expect('refuse' in d && d.refuse).toBeInstanceOf(ConflictError);
  });

  it('a step above an amount applies only above it, in its currency; in another currency it applies', () => {
    const chain: ApprovalStep[] = [
      { approvers: ['hm1'], mode: 'any' },
      { approvers: ['fin'], mode: 'any', above: { amount: 100000, currency: 'EUR' } },
    ];
    expect(stepsFor(chain, offer({ amount: 90000 }))).toHaveLength(1);
    expect(stepsFor(chain, offer({ amount: 120000 }))).toHaveLength(2);
    expect(stepsFor(chain, offer({ amount: 90000, currency: 'USD' }))).toHaveLength(2);
    expect(run(chain, offer({ amount: 90000 }), [['hm1', 'approve']]).status).toBe('approved');
    expect(run(chain, offer({ amount: 120000 }), [['hm1', 'approve']]).status).toBe('pending_approval');
  });

  it('only an offer pending approval is decided on', () => {
    const d = decideApproval(offer({ status: 'draft' }), CHAIN, [], { userId: 'hm1', decision: 'approve', at: AT });
    expect('refuse' in d && d.refuse).toBeInstanceOf(ConflictError);
  });

  it('two all-of approvers deciding on the same read: each write names the decisions it saw, so the second decides again and approves', () => {
    const base = run(CHAIN, offer(), [['hm1', 'approve']]).decisions;
    const a = decideApproval(offer(), CHAIN, base, { userId: 'fin', decision: 'approve', at: AT });
    const b = decideApproval(offer(), CHAIN, base, { userId: 'ceo', decision: 'approve', at: AT });
    // Both decided on one decision seen; the store lets only one write with `seen: 1` land.
    expect('write' in a && a.write.seen).toBe(1);
    expect('write' in b && b.write.seen).toBe(1);
    expect('write' in a && a.write.status).toBeUndefined();
    // The loser reads again (fin's decision now there) and its decision ends the chain.
    const again = decideApproval(offer(), CHAIN, [...base, (a as { write: { decision: ApprovalDecision } }).write.decision], {
      userId: 'ceo',
      decision: 'approve',
      at: AT,
    });
    expect(again).toMatchObject({ write: { seen: 2, status: 'approved' } });
  });
});
