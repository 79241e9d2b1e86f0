/**
 * Offers as the console reads them: the typed calls, the approval chain's state for an offer (the
 * server's own rule, lib/domain/offer-approvals.ts) and the terms a version changed. Compensation
 * is personal data: nothing here logs an offer.
 */
import { chainState, stepsFor, type ApprovalStep } from '../../lib/domain/offer-approvals';
import { api, unwrap } from './api/client';

export const fetchOffers = async (candidateId: string) =>
  (await unwrap(api.GET('/api/candidates/{id}/offers', { params: { path: { id: candidateId } } }))).data;
export type Offer = Awaited<ReturnType<typeof fetchOffers>>[number];
export const fetchOffer = async (id: string) => (await unwrap(api.GET('/api/offers/{id}', { params: { path: { id } } }))).data;
export type OfferDetail = Awaited<ReturnType<typeof fetchOffer>>;
export type OfferVersion = OfferDetail['versions'][number];
export type OfferStatus = Offer['status'];

/** A page of the offers waiting for the signed-in member's decision, with how many wait in all. */
export const fetchAwaiting = async (query: { limit?: number; cursor?: string } = {}) =>
  unwrap(api.GET('/api/offers/approvals', { params: { query } }));
export type AwaitingOffer = Awaited<ReturnType<typeof fetchAwaiting>>['data'][number];

export const fetchChain = async () => (await unwrap(api.GET('/api/settings/offer-approvals'))).data.steps as ApprovalStep[];
export const fetchMemberEmails = async () =>
  new Map((await unwrap(api.GET('/api/members'))).data.map((m) => [m.id, m.email] as [string, string]));

export const OFFER_STATUS_LABELS: Record<OfferStatus, string> = {
  draft: 'Draft',
  pending_approval: 'Pending approval',
  approved: 'Approved',
  sent: 'Sent',
  accepted: 'Accepted',
  declined: 'Declined',
  rescinded: 'Rescinded',
  expired: 'Expired',
};
export const PERIOD_LABELS = { year: 'a year', month: 'a month', hour: 'an hour' } as const;

/** An amount with its currency and period, in the reader's locale ("€65,000.00 a year"); an erased one as such. */
export function moneyText(c: OfferVersion['compensation']): string {
  if (c.amount === null) return `(erased) ${c.currency}`;
  let amount: string;
  try {
    amount = new Intl.NumberFormat(undefined, { style: 'currency', currency: c.currency }).format(c.amount);
  } catch {
    amount = `${c.amount} ${c.currency}`;
  }
  return `${amount} ${PERIOD_LABELS[c.period]}`;
}

/** One step of the chain as it stands for the offer's current version. */
export interface StepView {
  index: number;
  mode: 'any' | 'all';
  above?: { amount: number; currency: string };
  state: 'approved' | 'waiting' | 'not_reached' | 'rejected';
  approvers: { id: string; decision?: OfferDetail['approvals'][number] }[];
}

/** The steps that apply to the offer, each with its approvers' decisions on the current version. */
export function chainView(chain: readonly ApprovalStep[], o: OfferDetail): { steps: StepView[]; waitingAt?: number } {
  const forOffer = { status: o.status, version: o.version, amount: o.compensation.amount, currency: o.compensation.currency };
  const steps = stepsFor(chain, forOffer);
  // The current round's: a rejection before approval was asked again is history, not the state.
  const since = o.approval_round_at;
  const decisions = o.approvals.filter((a) => a.version === o.version && (!since || a.at >= since));
  const asked = o.status !== 'draft' || decisions.length > 0;
  const state = chainState(steps, decisions, o.version);
  const waitingAt = o.status === 'pending_approval' && 'at' in state ? state.at : undefined;
  const views = steps.map((s, i): StepView => {
    const mine = decisions.filter((d) => d.step === i);
    let st: StepView['state'];
    if (mine.some((d) => d.decision === 'reject')) st = 'rejected';
    else if ('approved' in state || ('at' in state && i < state.at) || ('rejected' in state && i < state.rejected.step)) st = 'approved';
    else if (waitingAt === i) st = 'waiting';
    else st = 'not_reached';
    if (!asked) st = 'not_reached';
    return {
      index: i,
      mode: s.mode,
      ...(s.above && { above: s.above }),
      state: st,
      approvers: s.approvers.map((id) => ({ id, decision: mine.find((d) => d.user_id === id) })),
    };
  });
  return { steps: views, waitingAt };
}

/** Whether the offer waits for `userId`'s decision: they approve at the step it waits at and have not decided there. */
export function awaits(chain: readonly ApprovalStep[], o: OfferDetail, userId: string): boolean {
  const { steps, waitingAt } = chainView(chain, o);
  if (waitingAt === undefined) return false;
  const step = steps[waitingAt]!;
  return step.approvers.some((a) => a.id === userId && !a.decision);
}

export const isApprover = (chain: readonly ApprovalStep[], userId: string) => chain.some((s) => s.approvers.includes(userId));

/** The terms, in the order the form and the comparison show them. */
export const TERMS: [key: string, label: string, text: (v: OfferVersion) => string][] = [
  ['compensation', 'Compensation', (v) => moneyText(v.compensation)],
  ['bonus', 'Bonus', (v) => v.bonus ?? ''],
  ['equity', 'Equity', (v) => v.equity ?? ''],
  ['start_date', 'Start date', (v) => v.start_date],
  ['expires_at', 'Expires', (v) => (v.expires_at ? new Date(v.expires_at).toLocaleString() : '')],
  ['employment_type', 'Employment type', (v) => v.employment_type ?? ''],
  ['location', 'Location', (v) => v.location ?? ''],
  ['note', 'Note', (v) => v.note ?? ''],
];

/** What changed from `before` to `after`: each changed term with both texts. */
export function termChanges(before: OfferVersion, after: OfferVersion) {
  return TERMS.map(([key, label, text]) => ({ key, label, before: text(before), after: text(after) })).filter((c) => c.before !== c.after);
}
