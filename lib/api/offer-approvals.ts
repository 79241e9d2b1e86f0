/**
 * Offer approvals: the workspace's approval chain (admins) and an approver's decision on an offer
 * (the console's session: an approver acts as themselves). The chain's rules are lib/domain's
 * (offer-approvals.ts).
 */
import * as z from 'zod/mini';
import { IdParam, dataOf, intParam, nextCursor, pageCursor, text, timestamp } from './fields';
import { Compensation, Offer, OfferApproval } from './offers';
import { DOCS, type Route } from './route';

export const MAX_APPROVAL_STEPS = 10;
export const MAX_APPROVERS = 20;
const approverId = z.uuid({ error: 'approvers must be user ids' });

export const ApprovalStepBody = z.strictObject({
  approvers: z
    .array(approverId)
    .check(
      z.minLength(1, { error: 'approvers must name at least one user' }),
      z.maxLength(MAX_APPROVERS, { error: `approvers must name at most ${MAX_APPROVERS} users` }),
    ),
  mode: z.enum(['any', 'all'], { error: 'mode must be one of any, all' }),
  /** The step applies only to offers above this amount in this currency (in another currency it applies). */
  above: z.optional(z.strictObject({ amount: Compensation.shape.amount, currency: Compensation.shape.currency })),
});

export const ApprovalChainBody = z.strictObject({
  steps: z.array(ApprovalStepBody).check(z.maxLength(MAX_APPROVAL_STEPS, { error: `steps must be at most ${MAX_APPROVAL_STEPS}` })),
});
export type ApprovalChainBody = z.output<typeof ApprovalChainBody>;

const StepAnswer = z.object({
  approvers: z.array(z.string()),
  mode: z.enum(['any', 'all']),
  above: z.optional(z.object({ amount: z.number(), currency: z.string() })),
});
export const ApprovalChain = z.object({ steps: z.array(StepAnswer) });
export type ApprovalChain = z.infer<typeof ApprovalChain>;

export const ApprovalDecisionBody = z.strictObject({
  decision: z.enum(['approve', 'reject'], { error: 'decision must be one of approve, reject' }),
  comment: z.optional(text('comment', 1000)),
});
export type ApprovalDecisionBody = z.output<typeof ApprovalDecisionBody>;

/** Where an offer's chain stands after a decision. */
export const ApprovalResult = z.object({
  offer_id: z.uuid(),
  status: z.string(),
  approvals: z.array(OfferApproval),
});
export type ApprovalResult = z.infer<typeof ApprovalResult>;

/** A page of the offers waiting for the caller's decision holds at most this many (one TransactGetItems names each offer, its candidate and requisition). */
export const MAX_AWAITING_PAGE = 25;

export const AwaitingQuery = z.strictObject({
  limit: z._default(intParam('limit', 1, MAX_AWAITING_PAGE), MAX_AWAITING_PAGE),
  cursor: pageCursor,
});

/** An offer waiting for the caller's decision: the offer, who it is for, and the step (from 0) that waits. */
export const AwaitingOffer = z.object({
  offer: Offer,
  /** `name` is null once the candidate was erased. */
  candidate: z.object({ id: z.uuid(), name: z.nullable(z.string()) }),
  requisition: z.nullable(z.object({ id: z.uuid(), title: z.nullable(z.string()) })),
  step: z.int(),
  /** When approval was asked for in this round. */
  waiting_since: timestamp,
});

/** Newest round first; `count`: how many offers wait for the caller (the console header's count). */
export const AwaitingPage = z.object({ data: z.array(AwaitingOffer), count: z.int(), next_cursor: nextCursor });

// ---- routes ------------------------------------------------------------------------------

export const getOfferApprovals = {
  method: 'GET',
  path: '/api/settings/offer-approvals',
  handler: 'get-offer-approvals',
  auth: 'session',
  access: 'read',
  summary: DOCS && "The workspace's offer approval chain (no steps: offers are approved with their status route)",
  status: 200,
  response: dataOf(ApprovalChain),
} as const satisfies Route;

export const updateOfferApprovals = {
  method: 'PUT',
  path: '/api/settings/offer-approvals',
  handler: 'update-offer-approvals',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Set the offer approval chain: its steps in order, each any or all of its approvers, optionally only above an amount',
  body: ApprovalChainBody,
  status: 200,
  response: dataOf(ApprovalChain),
} as const satisfies Route;

export const decideOfferApproval = {
  method: 'POST',
  path: '/api/offers/{id}/approvals',
  handler: 'decide-offer-approval',
  auth: 'session',
  access: 'write',
  summary: DOCS && 'Approve or reject an offer pending approval, as yourself, at the step it is waiting at',
  params: IdParam,
  body: ApprovalDecisionBody,
  ...(DOCS && {
    errors: {
      403: 'Not an approver of the step the offer is waiting at (code forbidden)',
      409: 'The offer is not pending approval, or waits at an earlier step (code conflict); or the candidate was erased (code candidate_erased)',
    },
  }),
  status: 200,
  response: dataOf(ApprovalResult),
} as const satisfies Route;

export const listOfferApprovals = {
  method: 'GET',
  path: '/api/offers/approvals',
  handler: 'list-offer-approvals',
  auth: 'session',
  access: 'read',
  summary:
    DOCS &&
    'The offers whose approval chain waits for your decision at its current step, newest first, with their count; only offers you may read',
  query: AwaitingQuery,
  status: 200,
  response: AwaitingPage,
} as const satisfies Route;
