/**
 * Who an offer waits for, as pure functions: the members whose decision the chain's current step
 * still needs (every approver of an `any` step; those of an `all` step who have not approved yet).
 * The offer item keeps that set as one string (`awaiting`), so each write that changes the chain's
 * state knows, from the offer it read and conditions on, exactly which index items of the approvers'
 * lists (lib/store/offer-awaiting.ts) exist, and puts and deletes the difference in its transaction.
 */
import type { Awaiting } from '../store/awaiting-set';
import { chainState, stepsFor, type ApprovalDecision, type ApprovalStep, type OfferForApproval } from './offer-approvals';

export { decodeAwaiting, encodeAwaiting, type Awaiting } from '../store/awaiting-set';

/**
 * Who the offer waits for once its decisions are `decisions`: nobody unless it is pending
 * approval and a step of the chain applies to it.
 */
export function awaitingOf(
  o: OfferForApproval & { requested_at?: string | null },
  chain: readonly ApprovalStep[],
  decisions: readonly ApprovalDecision[],
): Awaiting | undefined {
  const round = o.approval_round_at ?? o.requested_at;
  if (o.status !== 'pending_approval' || !round) return undefined;
  const steps = stepsFor(chain, o);
  const state = chainState(steps, decisions, o.version, o.approval_round_at);
  if (!('at' in state)) return undefined;
  const step = steps[state.at]!;
  const approved = new Set(
    decisions
      .filter(
        (d) =>
          d.version === o.version &&
          d.step === state.at &&
          d.decision === 'approve' &&
          (!o.approval_round_at || d.at >= o.approval_round_at),
      )
      .map((d) => d.user_id),
  );
  const users = step.mode === 'any' ? [...step.approvers] : step.approvers.filter((u) => !approved.has(u));
  return users.length ? { round, step: state.at, users: [...new Set(users)].sort() } : undefined;
}
