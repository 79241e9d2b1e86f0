/**
 * One import row's judgement, as far as it can be told without writing: its own error, a
 * duplicate email, its requisition. Shared by the dry run (lib/domain/imports.ts) and the
 * worker's run (lib/domain/import-run.ts), and apart from the import's routes so that the worker's
 * bundle carries neither their schemas nor the file reader.
 */
import { type AppError, RequisitionNotOpenError, ValidationError } from '../errors';
import type { ImportRow, RowError } from '../imports/parse';
import { candidatesByEmails, type EmailCandidate } from '../store/search';
import { duplicateCandidate } from './people-rules';
import { getRequisition, type RequisitionItem } from '../store/requisitions';

export type Outcome = { kind: 'created' } | { kind: 'skipped' | 'failed'; error: RowError };

export const failed = (err: AppError): Outcome => ({
  kind: 'failed',
  error: { field: err.field ?? null, code: err.code, message: err.message },
});

/** Requisitions as read once per slice (or dry run); the insert checks `open` again in its own condition. */
export type Requisitions = (id: string) => Promise<RequisitionItem | undefined>;
export const requisitionReader = (tenantId: string): Requisitions => {
  const seen = new Map<string, Promise<RequisitionItem | undefined>>();
  return (id) => {
    if (!seen.has(id)) seen.set(id, getRequisition(tenantId, id));
    return seen.get(id)!;
  };
};

/** The candidates using each email of some rows, as candidatesByEmails read them (consistent, before any of the rows is written). */
export type EmailOwners = ReadonlyMap<string, EmailCandidate[]>;

/**
 * The owners of the emails of `rows` (those without an error of their own): read together,
 * a few Queries for many rows (candidatesByEmails) instead of one per row.
 */
export function emailOwners(tenantId: string, rows: readonly ImportRow[]): Promise<Map<string, EmailCandidate[]>> {
  const emails = rows.flatMap((r) => (!r.error && r.body?.email !== undefined ? [r.body.email] : []));
  return candidatesByEmails(tenantId, emails);
}

/**
 * One row's fate as far as it can be told without writing: its own error, the same person already
 * on its requisition, or its requisition. `owners` holds the row's email (emailOwners, read after
 * every row written before this one). `candidateId` is the id the row gets: its own candidate
 * found means an earlier run created it. Otherwise the row may be created (with the requisition it
 * goes on); `joins`: its email is a known person's, whose candidate it becomes (the create's match,
 * which the write decides again: a person the read did not see yet is matched there too).
 */
export async function judgeRow(
  r: ImportRow,
  owners: EmailOwners,
  reqs: Requisitions,
  candidateId?: string,
): Promise<Outcome | { kind: 'create'; req?: RequisitionItem; joins: boolean }> {
  if (r.error) return { kind: r.error.skipped ? 'skipped' : 'failed', error: r.error };
  const input = r.body!;
  const known = input.email !== undefined ? (owners.get(input.email) ?? []) : [];
  // This very row, created by an earlier run of the job that stopped before counting it.
  if (candidateId && known.some((c) => c.id === candidateId)) return { kind: 'created' };
  const same = known.find((c) => c.req_id === (input.req_id ?? null));
  if (same) {
    const err = duplicateCandidate(same.id, input.req_id !== undefined);
    return { kind: 'skipped', error: { field: err.field ?? null, code: 'duplicate_candidate', message: err.message, skipped: true } };
  }
  const req = input.req_id ? await reqs(input.req_id) : undefined;
  if (input.req_id) {
    if (!req) return failed(new ValidationError('req_id names no requisition in this workspace', { field: 'req_id' }));
    if (req.status !== 'open') return failed(new RequisitionNotOpenError(req.status));
  }
  return { kind: 'create', req, joins: known.length > 0 || r.repeat === true };
}

/** Rows judged at once (their emails already read: what is left is a requisition's read, once per requisition). */
export const ROW_CONCURRENCY = 8;
