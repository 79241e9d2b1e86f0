/**
 * The approval routes: the workspace's chain (admins set it) and an approver's decision on an
 * offer. The chain's rules are pure functions in offer-approvals.ts; the store numbers the
 * decisions, so approvers deciding at the same moment leave one chain, in the order they landed.
 */
import type { ApprovalChain, ApprovalChainBody, ApprovalDecisionBody, ApprovalResult } from '../api/offer-approvals';
import type { OfferApproval } from '../api/offers';
import type { OfferRecord } from '../entities/offer';
import { ConflictError, NotFoundError } from '../errors';
import { nowIso } from '../ids';
import { getApprovalChain, setApprovalChain, writeDecision, type DecisionParts, type StoredDecision } from '../store/offer-approvals';
import { getOfferWithVersions } from '../store/offers';
import { decideApproval, stepsFor, type ApprovalPlan, type ApprovalStep } from './offer-approvals';
import { auditBy, type Principal, type SessionPrincipal } from './principal';
import { decideAndWrite } from './retry';
import { awaitingOf, decodeAwaiting } from './offer-awaiting';

const toStep = (s: ApprovalStep): ApprovalChain['steps'][number] => ({
  approvers: [...s.approvers],
  mode: s.mode,
  ...(s.above && { above: { amount: s.above.amount, currency: s.above.currency } }),
});

export async function getOfferApprovals(p: Principal): Promise<ApprovalChain> {
  return { steps: (await getApprovalChain(p.tenantId)).map(toStep) };
}

export async function updateOfferApprovals(p: Principal, body: ApprovalChainBody): Promise<ApprovalChain> {
  const steps = body.steps.map(toStep);
  const before = await getApprovalChain(p.tenantId);
  await setApprovalChain(
    p.tenantId,
    steps,
    auditBy(p, 'settings.offer_approvals_changed', { type: 'workspace', id: p.tenantId }, [
      { field: 'offer_approvals', before, after: steps },
    ]),
  );
  return { steps };
}

/** The error of an approval asked where the chain has no step for the offer. */
export const noChain = () =>
  new ConflictError('no approval step applies to this offer; approve it with its status route (POST /api/v1/offers/{id}/status)', {
    code: 'conflict',
  });

const toApproval = (d: StoredDecision): OfferApproval => ({
  step: d.step,
  user_id: d.user_id,
  decision: d.decision,
  version: d.version,
  comment: d.comment,
  at: d.at,
});

interface State {
  offer: OfferRecord;
  decisions: StoredDecision[];
  chain: ApprovalStep[];
}

async function read(tenantId: string, id: string): Promise<State> {
  const [found, chain] = await Promise.all([getOfferWithVersions(tenantId, id), getApprovalChain(tenantId)]);
  if (!found) throw new NotFoundError('offer');
  return { offer: found.offer, decisions: found.decisions, chain };
}

/**
 * An approver's decision, as themselves: one Query (the offer with its decisions) and the chain's
 * GetItem at once, then one transaction; a lost race (another approver's decision took the number)
 * decides again on a fresh read.
 */
export async function decideOfferApproval(p: SessionPrincipal, id: string, body: ApprovalDecisionBody): Promise<ApprovalResult> {
  const answer = (s: State, status = s.offer.status, added: StoredDecision[] = []): ApprovalResult => ({
    offer_id: id,
    status,
    approvals: [...s.decisions, ...added].map(toApproval),
  });
  return decideAndWrite<State, { s: State; plan: ApprovalPlan }, ApprovalResult, DecisionParts>({
    state: read(p.tenantId, id),
    decide: (s) => {
      if (s.offer.status === 'pending_approval' && stepsFor(s.chain, s.offer).length === 0) return { refuse: noChain() };
      const d = decideApproval(s.offer, s.chain, s.decisions, { userId: p.userId, decision: body.decision, at: nowIso() });
      if ('done' in d) return { done: answer(s) };
      if ('refuse' in d) return { refuse: d.refuse };
      return { write: { s, plan: d.write } };
    },
    write: async ({ s, plan }) => {
      const audit = auditBy(p, 'offer.approval_decided', { type: 'offer', id }, [
        { field: 'decision', after: plan.decision.decision },
        ...(body.comment !== undefined ? [{ field: 'comment' }] : []),
      ]);
      const waiting = {
        before: decodeAwaiting(s.offer.awaiting),
        after: awaitingOf({ ...s.offer, status: plan.status ?? s.offer.status }, s.chain, [...s.decisions, plan.decision]),
      };
      const outcome = await writeDecision(p.tenantId, s.offer, plan, body.comment, audit, waiting);
      if ('refused' in outcome && outcome.refused === 'erased') {
        throw new ConflictError('the candidate was erased; no comment can be kept on their offer', { code: 'candidate_erased' });
      }
      return { outcome, result: answer(s, plan.status ?? s.offer.status, [{ ...plan.decision, comment: body.comment ?? null }]) };
    },
    again: () => read(p.tenantId, id),
    busy: 'the offer is being decided on concurrently; try again',
  });
}
