/**
 * A placement (lib/store/candidates.ts placementItem): what a move to `placed` records, and what
 * erasure leaves of it. It copies the candidate's name, so that copy is personal data; the rest
 * (ids, the requisition's title, times) is what reporting keeps after an erasure.
 */
import { defineEntity, field } from '../entity';

export const placement = defineEntity('placement', {
  id: field.uuid({ audit: 'none' }),
  candidate_id: field.uuid({ audit: 'none' }),
  candidate_name: field.text(200, { personal: true }),
  req_id: field.uuid({ optional: true }),
  req_title: field.string({ optional: true }),
  placed_at: field.time({ audit: 'none' }),
  created_at: field.time({ audit: 'none' }),
  erased_at: field.time({ optional: true, absent: 'omitted', audit: 'none' }),
});
