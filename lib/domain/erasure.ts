/**
 * Erasure (GDPR article 17): a candidate's personal data leaves every item the service keeps,
 * while its id, stage, requisition, timestamps, stage history and every count stay. How the copies
 * are found and scrubbed: lib/store/erasure.ts. The answer is a receipt, the same on every call.
 */
import { nowIso } from '../ids';
import type { ErasureReceipt as ReceiptBody } from '../schemas';
import { eraseCandidateItems, type ErasureActor, type ErasureReceipt } from '../store/erasure';
import { actorOf, type Principal } from './principal';

export type { ErasureActor, ErasureReceipt };

/** What the API answers: the receipt without its actor (the audit log names who erased). */
export const receiptBody = (r: ErasureReceipt): ReceiptBody => ({ id: r.id, erased_at: r.erased_at, scrubbed: r.scrubbed });

/**
 * Erase one candidate of the workspace as `actor`. `first` tells whether this call erased it (a
 * later call answers the stored receipt and writes nothing). The actor is kept on the receipt, so
 * the audit record of a token's, a user's or a retention rule's erasure comes from it.
 */
export async function eraseCandidateAs(tenantId: string, id: string, actor: ErasureActor) {
  return eraseCandidateItems(tenantId, id, actor, nowIso);
}

export async function eraseCandidate(p: Principal, id: string): Promise<ReceiptBody> {
  const { receipt } = await eraseCandidateAs(p.tenantId, id, actorOf(p));
  return receiptBody(receipt);
}
