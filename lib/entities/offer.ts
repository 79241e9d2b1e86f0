/**
 * An offer and its versions (lib/store/offers.ts). The offer item holds the current terms and the
 * status; each version item holds the terms as they were when that version was made, and never
 * changes once approval has been asked for it. Compensation (amount, bonus, equity) and the notes
 * are personal data: erasure removes them and keeps the ids, dates, statuses and currency, so
 * counts and reports stay right.
 *
 * The API nests the amount, currency and period under `compensation` (lib/api/offers.ts); the
 * items hold them flat, so erasure removes the amount alone. `expires_at` is stored as
 * `offer_expires_at`: `expires_at` is the table's TTL attribute.
 */
import { defineEntity, field, fromItem, type RecordOf } from '../entity';
import type { Item } from '../item';
import { JOB_TYPES, OFFER_STATUSES, PAY_PERIODS } from '../model';

/** The terms of an offer: what a version freezes. */
const terms = {
  // Optional only so that erasure can remove it: every offer is written with one.
  amount: field.int({ optional: true, personal: true }),
  currency: field.string(),
  period: field.oneOf(PAY_PERIODS),
  bonus: field.text(500, { optional: true, personal: true }),
  equity: field.text(500, { optional: true, personal: true }),
  start_date: field.string(),
  offer_expires_at: field.time({ optional: true }),
  employment_type: field.oneOf(JOB_TYPES, { optional: true }),
  location: field.text(200, { optional: true }),
  note: field.text(2000, { optional: true, personal: true }),
};

/** The attributes that make an offer's terms (the fields a version copies). */
export const TERM_FIELDS = Object.keys(terms) as (keyof typeof terms)[];
/** The terms whose change, once approved, asks for approval again (every one of them does). */
export const APPROVAL_TERMS = TERM_FIELDS;

export const offer = defineEntity('offer', {
  id: field.uuid({ audit: 'none' }),
  candidate_id: field.uuid({ audit: 'none' }),
  req_id: field.uuid({ optional: true, audit: 'none' }),
  status: field.oneOf(OFFER_STATUSES),
  /** The current version's number, from 1. */
  version: field.int({ audit: 'none' }),
  ...terms,
  /** Why it was declined or rescinded: the candidate's words may be in it. */
  reason: field.text(500, { optional: true, personal: true }),
  /** When approval was first asked for: from then on every change makes a new version. */
  requested_at: field.time({ optional: true, audit: 'none' }),
  /**
   * When approval was last asked for: the chain decides on the decisions made since, so asking
   * again after a rejection, on the same terms, is a new round rather than the rejection again.
   */
  approval_round_at: field.time({ optional: true, audit: 'none' }),
  sent_at: field.time({ optional: true, audit: 'none' }),
  created_at: field.time({ audit: 'none' }),
  updated_at: field.time({ audit: 'none' }),
  erased_at: field.time({ optional: true, absent: 'omitted', audit: 'none' }),
});

export const offerVersion = defineEntity('offer_version', {
  offer_id: field.uuid(),
  version: field.int(),
  ...terms,
  created_at: field.time(),
  erased_at: field.time({ optional: true, absent: 'omitted' }),
});

/**
 * The item also holds `awaiting`, who the chain's current step waits for (lib/domain/offer-awaiting.ts;
 * never answered): the store reads it beside the record (lib/store/offers.ts), outside these
 * fields, so that the erasure code every function bundles does not grow with it.
 */
export type OfferRecord = RecordOf<typeof offer.fields> & { awaiting?: string };
export type OfferVersionRecord = RecordOf<typeof offerVersion.fields>;

export const offerFromItem = (item: Item): OfferRecord => fromItem(offer, item);
/** The offer with its `awaiting` set, for the writes that change the chain's state and the approvers' lists. */
export const awaitedOfferFromItem = (item: Item): OfferRecord => ({
  ...fromItem(offer, item),
  ...(typeof item.awaiting === 'string' && { awaiting: item.awaiting }),
});
export const offerVersionFromItem = (item: Item): OfferVersionRecord => fromItem(offerVersion, item);
