/**
 * The offer routes: draft an offer for a candidate, list a candidate's offers, read one with its
 * versions, change its terms and its status. The matrix and the version rule are pure functions in
 * offer-rules.ts; who may read and write, in offer-access.ts.
 */
import { auditChanges } from '../entity';
import { offer as offerEntity, type OfferRecord, type OfferVersionRecord } from '../entities/offer';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import { logger } from '../logger';
import type { OfferStatus, Stage } from '../model';
import type { ChangeOfferStatusBody, CreateOfferBody, Offer, OfferDetail, OfferVersion, UpdateOfferBody } from '../api/offers';
import { getCandidate } from '../store/candidates';
import {
  getOffer as readOffer,
  getOfferWithVersions,
  listCandidateOffers,
  writeOfferCreate,
  writeOfferStatus,
  writeOfferTerms,
} from '../store/offers';
import { getRequisition } from '../store/requisitions';
import { mayReadOffer, mayWriteOffer, readNeedsRequisition, type OfferCaller } from './offer-access';
import { checkOfferReason, decideOfferStatus, decideOfferTerms, OfferOpenError, type TermsPatch } from './offer-rules';
import { actorOf, auditBy, type Principal } from './principal';
import { viewerOf } from './visibility';
import { moveCandidate } from './candidate-writes';
import { decideAndWrite } from './retry';
import { stepsFor, type ApprovalStep } from './offer-approvals';
import { awaitingOf, decodeAwaiting } from './offer-awaiting';
import { getApprovalChain } from '../store/offer-approvals';

const BUSY = 'offer is being changed concurrently; try again';

/** The caller as the rules see them: a signed-in member, or a token acting with its creator's role. */
const callerOf = (p: Principal): OfferCaller => {
  const v = viewerOf(p);
  return { role: v.role, userId: v.userId ?? '' };
};

const approvalRequired = () =>
  new ConflictError('this offer is approved through its approval chain (POST /api/offers/{id}/approvals)', {
    code: 'approval_required',
    field: 'status',
  });

const erasedError = () =>
  new ConflictError('the candidate was erased; no offer can be made or changed for them', { code: 'candidate_erased' });

function checkWrite(p: Principal) {
  if (!mayWriteOffer(callerOf(p))) throw new ForbiddenError('only admins and recruiters draft and change offers');
}

/** The hiring managers a requisition's team names. */
async function hiringManagers(tenantId: string, reqId: string | null): Promise<string[]> {
  if (!reqId) return [];
  const r = await getRequisition(tenantId, reqId);
  const hm = r?.hiring_manager_ids;
  return Array.isArray(hm) ? hm.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Interviewers never reach an offer route (lib/permissions.ts); a hiring manager off the
 * requisition's team gets the 404 a record of another workspace is, as for every hidden record.
 */
async function checkRead(p: Principal, reqId: string | null, hidden: 'offer' | 'candidate') {
  const c = callerOf(p);
  const managers = readNeedsRequisition(c) ? await hiringManagers(p.tenantId, reqId) : [];
  if (!mayReadOffer(c, managers)) throw new NotFoundError(hidden);
}

const termsOf = (o: OfferRecord | OfferVersionRecord) => ({
  compensation: { amount: o.amount, currency: o.currency, period: o.period },
  bonus: o.bonus,
  equity: o.equity,
  start_date: o.start_date,
  expires_at: o.offer_expires_at,
  employment_type: o.employment_type,
  location: o.location,
  note: o.note,
});

export const toOffer = (o: OfferRecord): Offer => ({
  id: o.id,
  candidate_id: o.candidate_id,
  req_id: o.req_id,
  status: o.status,
  version: o.version,
  ...termsOf(o),
  reason: o.reason,
  requested_at: o.requested_at,
  approval_round_at: o.approval_round_at ?? null,
  sent_at: o.sent_at,
  created_at: o.created_at,
  updated_at: o.updated_at,
  ...(o.erased_at && { erased_at: o.erased_at }),
});
const toVersion = (v: OfferVersionRecord): OfferVersion => ({ version: v.version, ...termsOf(v), created_at: v.created_at });

/** The request's terms as the item holds them (flat; `expires_at` as `offer_expires_at`). */
function flatTerms(b: UpdateOfferBody): TermsPatch {
  const { compensation, expires_at, ...rest } = b;
  return {
    ...rest,
    ...(compensation && { amount: compensation.amount, currency: compensation.currency, period: compensation.period }),
    ...(expires_at !== undefined && { offer_expires_at: expires_at === null ? null : new Date(expires_at).toISOString() }),
  };
}

/**
 * Draft an offer: one GetItem (the candidate), then one transaction that also takes the
 * candidate's open-offer slot, so a second open offer is refused whatever the timing.
 */
export async function createOffer(p: Principal, candidateId: string, body: CreateOfferBody): Promise<Offer> {
  checkWrite(p);
  const cand = await getCandidate(p.tenantId, candidateId);
  if (!cand) throw new NotFoundError('candidate');
  if (cand.erased_at) throw erasedError();
  const at = nowIso();
  const id = newId();
  const record = {
    ...Object.fromEntries(Object.keys(offerEntity.fields).map((f) => [f, null])),
    ...flatTerms(body),
    id,
    candidate_id: candidateId,
    req_id: typeof cand.req_id === 'string' ? cand.req_id : null,
    status: 'draft',
    version: 1,
    created_at: at,
    updated_at: at,
  } as OfferRecord;
  delete (record as Partial<OfferRecord>).erased_at;
  const audit = auditBy(p, 'offer.created', { type: 'offer', id }, auditChanges(offerEntity, undefined, record));
  const outcome = await writeOfferCreate(p.tenantId, record, audit);
  if ('written' in outcome) return toOffer(record);
  if ('conflict' in outcome) throw new ConflictError(BUSY);
  if (outcome.refused === 'open') throw new OfferOpenError(outcome.seen?.offer_id as string | undefined);
  if (outcome.refused === 'erased') throw erasedError();
  throw new Error(`offer create refused by its ${outcome.refused} part`);
}

/** A candidate's offers: the candidate's GetItem and the offers' index Query, at once. */
export async function listOffers(p: Principal, candidateId: string): Promise<Offer[]> {
  const [cand, offers] = await Promise.all([getCandidate(p.tenantId, candidateId), listCandidateOffers(p.tenantId, candidateId)]);
  if (!cand) throw new NotFoundError('candidate');
  await checkRead(p, typeof cand.req_id === 'string' ? cand.req_id : null, 'candidate');
  return offers.map(toOffer);
}

/** One offer with its versions: one Query. */
export async function getOffer(p: Principal, id: string): Promise<OfferDetail> {
  const found = await getOfferWithVersions(p.tenantId, id);
  if (!found) throw new NotFoundError('offer');
  await checkRead(p, found.offer.req_id, 'offer');
  return {
    ...toOffer(found.offer),
    versions: found.versions.map(toVersion),
    approvals: found.decisions.map((d) => ({
      step: d.step,
      user_id: d.user_id,
      decision: d.decision,
      version: d.version,
      comment: d.comment,
      at: d.at,
    })),
  };
}

const again = (tenantId: string, id: string) => async () => {
  const o = await readOffer(tenantId, id);
  if (!o) throw new NotFoundError('offer');
  return o;
};

async function current(tenantId: string, id: string): Promise<OfferRecord> {
  const o = await readOffer(tenantId, id);
  if (!o) throw new NotFoundError('offer');
  return o;
}

/** Change the terms: one GetItem, one transaction (a new version once approval was asked for). */
export function updateOffer(p: Principal, id: string, body: UpdateOfferBody): Promise<Offer> {
  checkWrite(p);
  return decideAndWrite({
    state: current(p.tenantId, id),
    decide: (o) => decideOfferTerms(o, flatTerms(body), { at: nowIso(), audit: auditBy(p, 'offer.updated', { type: 'offer', id }) }),
    write: async (plan) => {
      const { outcome, after } = await writeOfferTerms(p.tenantId, plan, await waitingChange(p.tenantId, plan.current, plan.set));
      if ('refused' in outcome && outcome.refused === 'erased') throw erasedError();
      return { outcome, result: after };
    },
    again: again(p.tenantId, id),
    busy: BUSY,
  }).then(toOffer);
}

/**
 * Who the offer waits for before and after a change (asking for approval starts the chain at its
 * first step; a new version asks it again; leaving pending_approval ends it): the workspace's
 * chain is read only when the offer is pending approval after the change.
 */
async function waitingChange(tenantId: string, current: OfferRecord, set: Record<string, unknown>, chain?: ApprovalStep[]) {
  const after = { ...current, ...set } as OfferRecord;
  const steps = after.status === 'pending_approval' ? (chain?.length ? chain : await getApprovalChain(tenantId)) : [];
  // Decisions count for their version and round: a new version or round has none yet.
  const fresh = after.version !== current.version || after.approval_round_at !== current.approval_round_at;
  const before = decodeAwaiting(current.awaiting);
  if (after.status !== 'pending_approval') return { before };
  return { before, after: fresh ? awaitingOf(after, steps, []) : before };
}

/** The stage a candidate enters when their offer reaches a status. */
const STAGE_OF: Partial<Record<OfferStatus, Stage>> = { sent: 'offer_sent', accepted: 'offer_accepted' };

/**
 * The candidate follows the offer: sent moves them to `offer_sent`, accepted to `offer_accepted`
 * (a stage move as POST /pipeline makes it, by the same caller, naming the offer for its events).
 * The offer's change is already written: a move that fails is logged and left to the recruiter.
 */
async function followStage(p: Principal, o: OfferRecord): Promise<void> {
  const stage = STAGE_OF[o.status];
  if (!stage) return;
  try {
    await moveCandidate(p.tenantId, o.candidate_id, stage, nowIso, {
      actor: actorOf(p),
      audit: auditBy(p, 'candidate.stage_changed', { type: 'candidate', id: o.candidate_id }),
      offer: { offer_id: o.id, offer_version: o.version, start_date: o.start_date },
    });
  } catch (e) {
    logger.warn('the candidate did not follow the offer', { offer_id: o.id, candidate_id: o.candidate_id, error: (e as Error).name });
  }
}

/**
 * Change the status along the matrix: one GetItem, one transaction; sent and accepted then move
 * the candidate (followStage).
 */
export async function changeOfferStatus(p: Principal, id: string, body: ChangeOfferStatusBody): Promise<Offer> {
  checkWrite(p);
  const reason = checkOfferReason(body.status, body.reason);
  let changed = false;
  // Approved only through the chain when one of its steps applies to the offer.
  const chain = body.status === 'approved' ? await getApprovalChain(p.tenantId) : [];
  const after = await decideAndWrite({
    state: current(p.tenantId, id),
    decide: (o) =>
      o.status === 'pending_approval' && stepsFor(chain, o).length > 0
        ? { refuse: approvalRequired() }
        : decideOfferStatus(o, {
            status: body.status,
            reason,
            by: 'api',
            at: nowIso(),
            audit: auditBy(p, 'offer.status_changed', { type: 'offer', id }),
          }),
    write: async (plan) => {
      const { outcome, after } = await writeOfferStatus(p.tenantId, plan, await waitingChange(p.tenantId, plan.current, plan.set, chain));
      // Requisitions are never deleted; were one missing, retrying could not help.
      if ('refused' in outcome && outcome.refused === 'pending') throw new NotFoundError('requisition');
      changed = 'written' in outcome;
      return { outcome, result: after };
    },
    again: again(p.tenantId, id),
    busy: BUSY,
  });
  if (changed) await followStage(p, after);
  return toOffer(after);
}
