/**
 * Erasure (GDPR article 17): a candidate's personal data leaves every item the service keeps,
 * while its id, stage, requisition, timestamps, stage history and every count stay. How the copies
 * are found and scrubbed: lib/store/erasure.ts. The answer is a receipt, the same on every call.
 */
import { nowIso } from '../ids';
import type { ErasureReceipt as ReceiptBody } from '../schemas';
import { auditPuts, type AuditActor, type AuditEntry } from '../store/audit';
import { eraseCandidateItems, type ErasureActor, type ErasureReceipt } from '../store/erasure';
import { actorOf, auditBy, type Principal } from './principal';

export type { ErasureActor, ErasureReceipt };

/** What the API answers: the receipt without its actor (the audit log names who erased). */
export const receiptBody = (r: ErasureReceipt): ReceiptBody => ({ id: r.id, erased_at: r.erased_at, scrubbed: r.scrubbed });

/**
 * The audit record of an erasure: the personal fields by name, and how many stored items of each
 * kind were scrubbed. It goes into the erasure's own transaction.
 */
const erasureChanges = (r: ErasureReceipt) => [
  ...['name', 'email', 'phone', 'resume_url'].map((field) => ({ field })),
  { field: 'scrubbed', after: r.scrubbed },
];

/** A retention rule as the audit log's actor: `system`, named after the rule. */
export const ruleActor = (rule: string): AuditActor => ({ type: 'system', id: `retention:${rule}`, name: rule });

/**
 * Erase one candidate of the workspace as `actor`. `first` tells whether this call erased it (a
 * later call answers the stored receipt and writes nothing). The actor is kept on the receipt;
 * `audit` makes the record written with the erasure.
 */
export async function eraseCandidateAs(
  tenantId: string,
  id: string,
  actor: ErasureActor,
  audit: (r: ErasureReceipt) => AuditEntry = (r) => ({
    action: 'candidate.erased',
    actor: actor.type === 'system' ? ruleActor(actor.rule) : actor,
    target: { type: 'candidate', id },
    changes: erasureChanges(r),
  }),
) {
  return eraseCandidateItems(tenantId, id, actor, nowIso, (r) => auditPuts(tenantId, audit(r)));
}

export async function eraseCandidate(p: Principal, id: string): Promise<ReceiptBody> {
  const { receipt } = await eraseCandidateAs(p.tenantId, id, actorOf(p), (r) =>
    auditBy(p, 'candidate.erased', { type: 'candidate', id }, erasureChanges(r)),
  );
  return receiptBody(receipt);
}
