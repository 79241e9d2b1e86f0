/**
 * A placement (lib/store/candidates.ts placementItem): the record of a hire that an HR system
 * takes as it is, written with the move to `placed`. It copies the candidate's name and, when an
 * accepted offer made the hire, the offer's amount: both are personal data, removed by erasure;
 * the ids, dates, currency, period, team and status stay, so reports and the requisition's fill
 * stay right after an erasure.
 */
import { defineEntity, field } from '../entity';
import { JOB_TYPES, MAX_HIRING_MANAGERS, PAY_PERIODS } from '../model';

export const PLACEMENT_STATUSES = ['active', 'cancelled'] as const;

export const placement = defineEntity('placement', {
  id: field.uuid({ audit: 'none' }),
  candidate_id: field.uuid({ audit: 'none' }),
  candidate_name: field.text(200, { personal: true }),
  person_id: field.uuid({ optional: true, audit: 'none' }),
  req_id: field.uuid({ optional: true }),
  req_title: field.string({ optional: true }),
  /** Absent on placements written before placements had a status: they are active. */
  status: field.oneOf(PLACEMENT_STATUSES, { optional: true }),
  offer_id: field.uuid({ optional: true, audit: 'none' }),
  offer_version: field.int({ optional: true, audit: 'none' }),
  start_date: field.string({ optional: true }),
  end_date: field.string({ optional: true }),
  amount: field.int({ optional: true, personal: true }),
  currency: field.string({ optional: true }),
  period: field.oneOf(PAY_PERIODS, { optional: true }),
  employment_type: field.oneOf(JOB_TYPES, { optional: true }),
  location: field.string({ optional: true }),
  recruiter_id: field.uuid({ optional: true, audit: 'none' }),
  hiring_manager_ids: field.uuids(MAX_HIRING_MANAGERS, { optional: true, audit: 'none' }),
  /**
   * Why it was cancelled (the person never started): the workspace's reason, like a requisition
   * status reason; it is also in the audit log and, when the hire had filled it, the requisition's
   * history, so it is for the reason, not for personal details.
   */
  cancel_reason: field.text(500, { optional: true }),
  cancelled_at: field.time({ optional: true, audit: 'none' }),
  placed_at: field.time({ audit: 'none' }),
  created_at: field.time({ audit: 'none' }),
  updated_at: field.time({ optional: true, audit: 'none' }),
  erased_at: field.time({ optional: true, absent: 'omitted', audit: 'none' }),
});
