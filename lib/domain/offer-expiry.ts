/**
 * The offer expiry run: every sent offer whose `expires_at` has passed becomes `expired`, by the
 * actor `system`, through the same rule and write as any status change (lib/domain/offer-rules.ts
 * decideOfferStatus, lib/store/offers.ts writeOfferStatus): `offers_pending` drops, the audit
 * record is written and the due item goes, in one transaction. An offer already out of `sent`
 * (its outcome was recorded at the same moment) only has its due item deleted.
 */
import type { OfferRecord } from '../entities/offer';
import { nowIso } from '../ids';
import { logger } from '../logger';
import { dueOfferExpiries, offerExpiryDone } from '../store/offer-expiry';
import { getOffer, writeOfferStatus } from '../store/offers';
import { decideOfferStatus } from './offer-rules';
import { decideAndWrite } from './retry';

/** A run's page of due offers; the next run (five minutes later) takes the rest. */
export const OFFER_EXPIRY_RUN_LIMIT = 200;

/** The actor of an expiry, in the audit log. */
export const OFFER_EXPIRY_ACTOR = { type: 'system', id: 'offer-expiry', name: 'Offer expiry' } as const;

const BUSY = 'offer is being changed concurrently; the next run expires it';

/**
 * One due offer: expired when it is still sent and its expiry (as read now) has passed; either
 * way its due item is gone afterwards. True when this run expired it.
 */
async function expireOne(tenantId: string, offerId: string, sk: string, now: () => string): Promise<boolean> {
  let expired = false;
  const o = await getOffer(tenantId, offerId);
  if (o?.status === 'sent' && o.offer_expires_at !== null) {
    // Not due yet (its item was not the offer's current expiry): the item waits for its time.
    if (o.offer_expires_at > now()) return false;
    await decideAndWrite({
      state: o,
      decide: (current: OfferRecord) => (current.status === 'sent' ? plan(current, now()) : { done: current }),
      write: async (p) => {
        const { outcome, after } = await writeOfferStatus(tenantId, p);
        expired = 'written' in outcome;
        return { outcome, result: after };
      },
      again: async (current) => (await getOffer(tenantId, offerId)) ?? current,
      busy: BUSY,
    });
  }
  // The expiring write deleted the item with the change; an offer out of `sent` leaves a stale one.
  if (!expired) await offerExpiryDone(sk);
  return expired;
}

const plan = (current: OfferRecord, at: string) =>
  decideOfferStatus(current, {
    status: 'expired',
    by: 'system',
    at,
    audit: { action: 'offer.status_changed', actor: OFFER_EXPIRY_ACTOR, target: { type: 'offer', id: current.id } },
  });

/**
 * The scheduled run: every offer whose expiry is due now. Counts only in its answer and logs. An
 * offer that fails does not hold back the ones after it; the run then throws, so its alarm fires.
 */
export async function expireDueOffers(now: () => string = nowIso): Promise<{ due: number; expired: number }> {
  const due = await dueOfferExpiries(now(), OFFER_EXPIRY_RUN_LIMIT);
  let expired = 0;
  let failed = 0;
  for (const d of due) {
    try {
      if (await expireOne(d.tenantId, d.offerId, d.sk, now)) expired++;
    } catch (err) {
      failed++;
      logger.error('an offer did not expire', { offer_id: d.offerId, error: (err as Error).name });
    }
  }
  if (due.length) logger.info('offer expiry run', { due: due.length, expired, failed });
  if (failed) throw new Error(`${failed} of ${due.length} due offers did not expire`);
  return { due: due.length, expired };
}
