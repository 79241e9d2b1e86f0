/**
 * Requisition field and status changes as pure rules: decided on the requisition as read (If-Match,
 * the headcount against the hires, a stale `from_status`, the matrix), returning the plan the
 * store writes (lib/store/requisition-parts.ts) with its audit entry, or a refusal.
 */
import { NotFoundError, StaleRequisitionError, StaleStatusError, InvalidTransitionError } from '../errors';
import type { ReqStatus } from '../model';
import { diffFields, type AuditEntry } from '../store/audit';
import { reqStageCount, reqVersion, type ReqActor, type RequisitionItem } from '../store/requisitions';
import { patchDiff } from '../store/update';
import type { AuditBase } from './principal';
import { allowedNext, HeadcountBelowHiresError } from './requisition-rules';
import type { Decision } from './retry';

/** The fields PATCH may change; `null` clears an optional one. */
export interface RequisitionPatch {
  title?: string;
  department?: string | null;
  location?: string | null;
  job_type?: string | null;
  headcount?: number;
  recruiter_id?: string | null;
  hiring_manager_ids?: string[];
}
export const PATCH_FIELDS = ['title', 'department', 'location', 'job_type', 'headcount', 'recruiter_id', 'hiring_manager_ids'] as const;

/** A requisition as a field or status change reads it (lib/store/requisitions.ts requisitionItem). */
export type RequisitionRead = RequisitionItem;

export interface FieldsPlan {
  current: RequisitionRead;
  actor: ReqActor;
  at: string;
  set: Record<string, unknown>;
  remove: string[];
  /** The version written: the one read plus one (the write is conditioned on the one read). */
  version: number;
  audit?: AuditEntry;
}

/**
 * A field change: with `ifVersion` (If-Match) any other version is a 412; nothing to change is
 * `done` with nothing written; a headcount below the hires already made is refused.
 */
export function decideFields(
  current: RequisitionRead | undefined,
  patch: RequisitionPatch,
  opts: { ifVersion?: number; actor: ReqActor; at: string; audit?: AuditBase; auditFields: readonly string[] },
): Decision<FieldsPlan, { item: RequisitionRead }> {
  if (!current) return { refuse: new NotFoundError('requisition') };
  if (opts.ifVersion !== undefined && reqVersion(current) !== opts.ifVersion) return { refuse: new StaleRequisitionError() };
  const { set, remove } = patchDiff(current, patch, PATCH_FIELDS);
  if (!Object.keys(set).length && !remove.length) return { done: { item: current } };
  const hires = reqStageCount(current, 'placed');
  if (typeof set.headcount === 'number' && set.headcount < hires) return { refuse: new HeadcountBelowHiresError(hires, set.headcount) };
  const after: Record<string, unknown> = { ...current, ...set };
  for (const f of remove) delete after[f];
  const audit = opts.audit && { ...opts.audit, changes: diffFields(opts.auditFields, current, after) };
  return { write: { current, actor: opts.actor, at: opts.at, set, remove, version: reqVersion(current) + 1, audit } };
}

export interface StatusPlan {
  current: RequisitionRead;
  actor: ReqActor;
  at: string;
  to: ReqStatus;
  version: number;
  reason: string | null;
  audit?: AuditEntry;
}

/**
 * A status change along the matrix: with `fromStatus`, a requisition in another status is a
 * StaleStatusError; to the current status it is `done` with nothing written.
 */
export function decideStatus(
  current: RequisitionRead | undefined,
  to: ReqStatus,
  opts: {
    reason?: string;
    fromStatus?: ReqStatus;
    actor: ReqActor;
    at: string;
    audit?: AuditBase;
    visible?: (r: RequisitionRead) => boolean;
  },
): Decision<StatusPlan, { item: RequisitionRead }> {
  if (!current || (opts.visible && !opts.visible(current))) return { refuse: new NotFoundError('requisition') };
  const from = current.status;
  if (opts.fromStatus && from !== opts.fromStatus) return { refuse: new StaleStatusError(from, opts.fromStatus) };
  if (from === to) return { done: { item: current } };
  if (!allowedNext(from).includes(to)) return { refuse: new InvalidTransitionError(from, to, allowedNext(from)) };
  const audit = opts.audit && {
    ...opts.audit,
    // The reason is free text: named, not kept (it could name anyone).
    changes: [{ field: 'status', before: from, after: to }, ...(opts.reason ? [{ field: 'reason' }] : [])],
  };
  return { write: { current, actor: opts.actor, at: opts.at, to, version: reqVersion(current) + 1, reason: opts.reason ?? null, audit } };
}
