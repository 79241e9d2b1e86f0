/**
 * Offer rules as pure functions: the status matrix, the reason rule, what a status change and a
 * change of terms write (and when a change makes a new version). They decide on the offer as read;
 * the store's conditions (the offer's version and status) hold the decision at the write.
 */
import { auditChanges } from '../entity';
import { offer, TERM_FIELDS, type OfferRecord } from '../entities/offer';
import { ConflictError, InvalidTransitionError, ValidationError } from '../errors';
import type { Item } from '../item';
import {
  OFFER_REASON_REQUIRED,
  OFFER_SYSTEM_STATUSES,
  OFFER_TRANSITIONS,
  OPEN_OFFER_STATUSES,
  REASON_MAX,
  type OfferStatus,
} from '../model';
import type { AuditBase } from './principal';
import type { Decision } from './retry';

/** The statuses an offer in `from` may change to. */
export const allowedOfferNext = (from: OfferStatus): readonly OfferStatus[] => OFFER_TRANSITIONS[from];

/** An open offer holds its candidate's one open-offer slot. */
export const isOpenOffer = (s: OfferStatus) => OPEN_OFFER_STATUSES.includes(s);

/**
 * Judge a status change: `noop` for the current status, `change` for one the matrix allows;
 * anything else is a 409 `invalid_transition` naming the allowed next statuses.
 */
export function judgeOfferTransition(from: OfferStatus, to: OfferStatus): 'noop' | 'change' {
  if (from === to) return 'noop';
  if (allowedOfferNext(from).includes(to)) return 'change';
  throw new InvalidTransitionError(from, to, allowedOfferNext(from), 'offer');
}

/** The reason a change into `to` records: required for declined and rescinded, kept for any other. */
export function checkOfferReason(to: OfferStatus, reason: string | undefined): string | undefined {
  if (reason === undefined && OFFER_REASON_REQUIRED.includes(to)) {
    throw new ValidationError(`reason is required when an offer becomes ${to} (1 to ${REASON_MAX} characters)`, { field: 'reason' });
  }
  return reason;
}

/** Refused: the candidate already has an open offer. */
export class OfferOpenError extends ConflictError {
  constructor(openId: string | undefined) {
    super(
      `the candidate already has an open offer${openId ? ` (${openId})` : ''}; rescind it or record its outcome before making another`,
      { code: 'offer_open' },
    );
  }
}

/** Refused: a sent offer, or one with an outcome, keeps its terms. */
export class OfferLockedError extends ConflictError {
  constructor(status: OfferStatus) {
    super(`the offer is ${status}; its terms can no longer change (rescind it and make another offer)`, { code: 'offer_locked' });
  }
}

/** A status change as decided; the store writes it on the condition that the offer is still as read. */
export interface OfferStatusPlan {
  current: OfferRecord;
  to: OfferStatus;
  /** The offer's attributes to set (status, times, reason) and remove. */
  set: Item;
  remove: string[];
  /** The change closes the offer: its candidate's open-offer slot is freed in the same write. */
  closes: boolean;
  /** The version this change freezes: the first approval request writes it as it is. */
  freezes: boolean;
  audit?: AuditBase & { changes: ReturnType<typeof auditChanges> };
}

export interface StatusInput {
  status: OfferStatus;
  reason?: string;
  /** Who asks: a person or token (`api`), or the service's scheduled run (`system`). */
  by: 'api' | 'system';
  at: string;
  audit?: AuditBase;
}

/**
 * Decide a status change on the offer as read. The service alone sets `expired`; an offer is not
 * sent once its `expires_at` has passed.
 */
export function decideOfferStatus(current: OfferRecord, input: StatusInput): Decision<OfferStatusPlan, OfferRecord> {
  const { status: to, at } = input;
  if (input.by === 'api' && OFFER_SYSTEM_STATUSES.includes(to)) {
    return { refuse: new ValidationError(`status ${to} is set by the service once expires_at has passed`, { field: 'status' }) };
  }
  try {
    if (judgeOfferTransition(current.status, to) === 'noop') return { done: current };
  } catch (e) {
    return { refuse: e as InvalidTransitionError };
  }
  if (to === 'sent' && current.offer_expires_at !== null && current.offer_expires_at <= at) {
    return {
      refuse: new ConflictError(`expires_at (${current.offer_expires_at}) has passed; change it before sending the offer`, {
        code: 'conflict',
        field: 'expires_at',
      }),
    };
  }
  const set: Item = { status: to, updated_at: at };
  const remove: string[] = [];
  if (input.reason !== undefined) set.reason = input.reason;
  else remove.push('reason');
  const freezes = to === 'pending_approval' && current.requested_at === null;
  if (freezes) set.requested_at = at;
  if (to === 'pending_approval') set.approval_round_at = at;
  if (to === 'sent') set.sent_at = at;
  const after = { ...current, ...set };
  return {
    write: {
      current,
      to,
      set,
      remove,
      closes: !isOpenOffer(to),
      freezes,
      ...(input.audit && { audit: { ...input.audit, changes: auditChanges(offer, current, after, ['status', 'reason']) } }),
    },
  };
}

/** The terms a PATCH may set; null clears an optional one. */
export type TermsPatch = Partial<Record<(typeof TERM_FIELDS)[number], unknown>>;

/** A change of terms as decided. */
export interface OfferTermsPlan {
  current: OfferRecord;
  set: Item;
  remove: string[];
  /** The version the change writes: the current one (before any approval request) or the next. */
  version: number;
  /** A new version item is written (the one before it stays as it was). */
  newVersion: boolean;
  audit?: AuditBase & { changes: ReturnType<typeof auditChanges> };
}

/**
 * Decide a change of terms. Before approval was first asked for, the draft's version changes in
 * place; after, every change makes a new version, and an offer pending approval or approved asks
 * for approval again. A sent offer, or one with an outcome, is locked. Nothing changed: nothing written.
 */
export function decideOfferTerms(
  current: OfferRecord,
  patch: TermsPatch,
  ctx: { at: string; audit?: AuditBase },
): Decision<OfferTermsPlan, OfferRecord> {
  if (!['draft', 'pending_approval', 'approved'].includes(current.status)) return { refuse: new OfferLockedError(current.status) };
  const set: Item = {};
  const remove: string[] = [];
  for (const f of TERM_FIELDS) {
    if (!(f in patch) || patch[f] === undefined) continue;
    const v = patch[f];
    if (JSON.stringify(v) === JSON.stringify(current[f] ?? null)) continue;
    if (v === null) remove.push(f);
    else set[f] = v;
  }
  if (Object.keys(set).length === 0 && remove.length === 0) return { done: current };
  const newVersion = current.requested_at !== null;
  const version = newVersion ? current.version + 1 : current.version;
  Object.assign(set, { version, updated_at: ctx.at });
  // Changed terms were not the ones approved: approval is asked for again.
  if (current.status === 'approved') set.status = 'pending_approval';
  const after: Item = { ...current, ...set };
  for (const f of remove) after[f] = null;
  return {
    write: {
      current,
      set,
      remove,
      version,
      newVersion,
      ...(ctx.audit && { audit: { ...ctx.audit, changes: auditChanges(offer, current, after, [...TERM_FIELDS, 'status']) } }),
    },
  };
}
