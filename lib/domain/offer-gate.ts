/**
 * The workspace setting `offer_required`: a move into `offer_sent` needs the candidate's open
 * offer to be approved or sent. Only POST /pipeline imports this (the candidate functions'
 * bundles stay as they are); a move made by sending the offer does not pass through it.
 */
import { ConflictError, NotFoundError } from '../errors';
import type { OfferStatus, Stage } from '../model';
import { getOffer, getOpenOfferId } from '../store/offers';
import { getCandidate } from '../store/candidates';
import { getStatsItem } from '../store/stats';

/** The offer statuses that let a candidate into `offer_sent` when the workspace requires one. */
const READY: readonly OfferStatus[] = ['approved', 'sent'];

/** Pure: refused when the setting is on and the candidate's open offer (if any) is not ready. */
export function decideOfferGate(stage: Stage, required: boolean, offerStatus: OfferStatus | undefined): ConflictError | undefined {
  if (stage !== 'offer_sent' || !required) return undefined;
  if (offerStatus && READY.includes(offerStatus)) return undefined;
  return new ConflictError(
    offerStatus
      ? `this workspace moves a candidate to offer_sent only with an approved offer; their offer is ${offerStatus}`
      : 'this workspace moves a candidate to offer_sent only with an approved offer; they have none',
    { code: 'offer_required', field: 'stage' },
  );
}

/**
 * Refuse a move into `offer_sent` the setting forbids: the STATS item (one GetItem), and only
 * when the setting is on, the candidate's open-offer slot and that offer (consistent reads). They
 * come before the move's transaction: an offer rescinded in between is not seen.
 */
export async function checkOfferGate(tenantId: string, candidateId: string, stage: Stage): Promise<void> {
  if (stage !== 'offer_sent') return;
  const required = (await getStatsItem(tenantId)).item.offer_required === true;
  let status: OfferStatus | undefined;
  if (required) {
    const offerId = await getOpenOfferId(tenantId, candidateId);
    status = offerId ? (await getOffer(tenantId, offerId))?.status : undefined;
  }
  const refusal = decideOfferGate(stage, required, status);
  if (!refusal) return;
  // An unknown candidate stays a 404, and one already in offer_sent a no-op, as without the setting.
  const candidate = await getCandidate(tenantId, candidateId);
  if (!candidate) throw new NotFoundError('candidate');
  if (candidate.stage !== 'offer_sent') throw refusal;
}
