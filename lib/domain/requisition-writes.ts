/**
 * Requisition field and status changes: the rules of requisition-rules.ts run in the
 * read-decide-write loop (retry.ts) over the store's named parts (lib/store/requisition-parts.ts).
 * A lost race decides again on what the winner left, so parallel status changes leave one chain
 * of history records, each starting where the one before ended.
 */
import { requisition } from '../entities/requisition';
import { nowIso } from '../ids';
import type { ReqStatus } from '../model';
import { writeFields, writeStatus } from '../store/requisition-parts';
import { getRequisition, requisitionItem, type ReqActor, type RequisitionItem } from '../store/requisitions';
import type { AuditBase } from './principal';
import { decideFields, decideStatus, type RequisitionPatch } from './requisition-changes';
import { decideAndWrite } from './retry';

/** The fields a requisition's audit records name. */
export const REQ_AUDIT_FIELDS = requisition.audited;

const BUSY = 'requisition is being changed concurrently; try again';

/**
 * Change a requisition's fields: one GetItem, then one write conditioned on the version read
 * (and, for a headcount, on the hires staying at or below it). With `ifVersion` (If-Match), any
 * other version is a 412. A change to nothing writes nothing.
 */
export function updateRequisitionFields(
  tenantId: string,
  id: string,
  patch: RequisitionPatch,
  opts: { ifVersion?: number; actor: ReqActor; audit?: AuditBase },
): Promise<{ item: RequisitionItem }> {
  return decideAndWrite({
    state: getRequisition(tenantId, id),
    decide: (current) => decideFields(current, patch, { ...opts, at: nowIso(), auditFields: REQ_AUDIT_FIELDS }),
    write: async (plan) => {
      const { outcome, after } = await writeFields(tenantId, plan);
      return { outcome, result: { item: after } };
    },
    again: (_current, lost) => {
      if ('conflict' in lost) return getRequisition(tenantId, id);
      if (lost.refused === 'requisition') return lost.seen && requisitionItem(lost.seen);
      throw new Error(`requisition change refused by its ${lost.refused} part`);
    },
    busy: BUSY,
  });
}

/**
 * Change a requisition's status: one GetItem, then one transaction (the requisition at the
 * version read, its history record numbered by the new version, the tenant's status counters).
 */
export function changeStatus(
  tenantId: string,
  id: string,
  to: ReqStatus,
  opts: { reason?: string; fromStatus?: ReqStatus; actor: ReqActor; audit?: AuditBase; visible?: (r: RequisitionItem) => boolean },
): Promise<{ item: RequisitionItem }> {
  return decideAndWrite({
    state: getRequisition(tenantId, id),
    decide: (current) => decideStatus(current, to, { ...opts, at: nowIso() }),
    write: async (plan) => {
      const { outcome, after } = await writeStatus(tenantId, plan);
      return { outcome, result: { item: after } };
    },
    again: (_current, lost) => {
      if ('refused' in lost && lost.refused === 'requisition') return lost.seen && requisitionItem(lost.seen);
      // A lost race, or a history record of that version already written: read it as it is now.
      if ('conflict' in lost || lost.refused === 'history') return getRequisition(tenantId, id);
      throw new Error(`requisition status change refused by its ${lost.refused} part`);
    },
    busy: BUSY,
  });
}
