/**
 * An offer's approval chain as pure functions: which steps apply to an offer (a step may apply only
 * above an amount), where the chain stands on the current version's decisions, and what one
 * approver's decision writes. Decisions count for the version they were made on: a change of terms
 * (a new version) asks the whole chain again. The store holds the decision at the write with a
 * condition on the offer's version, status and number of decisions, so two approvers deciding at
 * the same moment both land, one after the other, in one consistent chain.
 */
import { ConflictError, ForbiddenError, type AppError } from '../errors';
import type { Decision } from './retry';

export interface ApprovalStep {
  /** User ids of the workspace's members who may decide at this step. */
  approvers: readonly string[];
  /** `any`: one approval passes the step; `all`: every approver's. */
  mode: 'any' | 'all';
  /** The step applies only to offers above this amount in this currency (another currency: it applies). */
  above?: { amount: number; currency: string };
}

export interface ApprovalDecision {
  step: number;
  user_id: string;
  decision: 'approve' | 'reject';
  version: number;
  at: string;
}

/** The offer as the approval rules read it. */
export interface OfferForApproval {
  status: string;
  version: number;
  /** When approval was last asked for (absent on offers asked before rounds were kept). */
  approval_round_at?: string | null;
  amount: number | null;
  currency: string;
}

/**
 * The steps that apply to an offer, in order. A step above an amount in the offer's currency
 * applies when the amount is above it; in another currency the amounts cannot be compared, so it
 * applies (a finance approver is asked rather than skipped).
 */
export function stepsFor(chain: readonly ApprovalStep[], o: OfferForApproval): ApprovalStep[] {
  return chain.filter((s) => !s.above || s.above.currency !== o.currency || o.amount === null || o.amount > s.above.amount);
}

const passed = (step: ApprovalStep, approvals: readonly ApprovalDecision[], index: number) => {
  const yes = new Set(approvals.filter((a) => a.step === index && a.decision === 'approve').map((a) => a.user_id));
  return step.mode === 'any' ? step.approvers.some((u) => yes.has(u)) : step.approvers.every((u) => yes.has(u));
};

/**
 * Where the chain stands on the decisions of `version` made since `since` (the round: when
 * approval was last asked for): the step waiting, or approved, or rejected.
 */
export function chainState(
  steps: readonly ApprovalStep[],
  decisions: readonly ApprovalDecision[],
  version: number,
  since?: string | null,
): { at: number } | { approved: true } | { rejected: ApprovalDecision } {
  const current = decisions.filter((d) => d.version === version && (!since || d.at >= since));
  const rejection = current.find((d) => d.decision === 'reject');
  if (rejection) return { rejected: rejection };
  const at = steps.findIndex((s, i) => !passed(s, current, i));
  return at === -1 ? { approved: true } : { at };
}

/** What one decision writes: the decision appended, and the offer's new status when it ends the chain. */
export interface ApprovalPlan {
  decision: ApprovalDecision;
  /** How many decisions the offer had when read: the write's condition. */
  seen: number;
  status?: 'approved' | 'draft';
}

/**
 * Decide one approver's decision on the offer as read. Only an offer pending approval is decided
 * on; only an approver of the step now waiting may decide (an approver of a later step waits for
 * the earlier ones); an approver's decision again on the same version changes nothing. A rejection sends the offer back to draft; the approval that passes the last step
 * approves it.
 */
export function decideApproval(
  o: OfferForApproval,
  chain: readonly ApprovalStep[],
  decisions: readonly ApprovalDecision[],
  req: { userId: string; decision: 'approve' | 'reject'; at: string },
): Decision<ApprovalPlan, 'unchanged'> {
  const refuse = (e: AppError) => ({ refuse: e });
  if (o.status !== 'pending_approval') {
    return refuse(
      new ConflictError(`the offer is ${o.status}; only an offer pending approval is approved or rejected`, { code: 'conflict' }),
    );
  }
  const steps = stepsFor(chain, o);
  const state = chainState(steps, decisions, o.version, o.approval_round_at);
  if (!('at' in state)) return { done: 'unchanged' };
  const step = steps[state.at]!;
  const mine = decisions.filter(
    (d) => d.version === o.version && d.user_id === req.userId && (!o.approval_round_at || d.at >= o.approval_round_at),
  );
  // A retry of a decision already counted (at this step, or at an earlier one this approver is done with).
  if (mine.some((d) => d.step === state.at) || (mine.length > 0 && !step.approvers.includes(req.userId))) return { done: 'unchanged' };
  if (!step.approvers.includes(req.userId)) {
    const later = steps.some((s, i) => i > state.at && s.approvers.includes(req.userId));
    return refuse(
      later
        ? new ConflictError(`step ${state.at + 1} of the approval chain is still waiting; you decide at a later step`, { code: 'conflict' })
        : new ForbiddenError('you are not an approver of the step this offer is waiting at'),
    );
  }
  const decision: ApprovalDecision = { step: state.at, user_id: req.userId, decision: req.decision, version: o.version, at: req.at };
  if (req.decision === 'reject') return { write: { decision, seen: decisions.length, status: 'draft' } };
  const after = chainState(steps, [...decisions, decision], o.version, o.approval_round_at);
  return { write: { decision, seen: decisions.length, ...('approved' in after && { status: 'approved' as const }) } };
}
