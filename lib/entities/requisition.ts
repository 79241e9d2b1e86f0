/**
 * The requisition, declared for its lists: the fields a write records in the audit log and those
 * whose change is a `requisition.updated` (with their names in event data). It holds no personal
 * data. Its schemas stay in lib/api/requisitions.ts (headcount's bounds and default are rules no
 * field kind has yet) and its codec in lib/store/requisitions.ts (counts come from its counters).
 */
import { defineEntity, field } from '../entity';
import { JOB_TYPES, MAX_HIRING_MANAGERS, REQ_STATUSES } from '../model';

const editable = ['create', 'update', 'response'] as const;

export const requisition = defineEntity('requisition', {
  id: field.uuid({ audit: 'none' }),
  title: field.text(200, { shapes: editable, event: true }),
  department: field.text(200, { optional: true, shapes: editable, event: true }),
  location: field.text(200, { optional: true, shapes: editable, event: true }),
  job_type: field.oneOf(JOB_TYPES, { optional: true, shapes: editable, event: 'jobType' }),
  headcount: field.int({ optional: true, shapes: editable, event: true }),
  // The team, as member ids (no personal data): the owner and the hiring managers, who see this
  // requisition and its candidates (lib/domain/visibility.ts).
  recruiter_id: field.uuid({ optional: true, event: 'recruiterId' }),
  hiring_manager_ids: field.uuids(MAX_HIRING_MANAGERS, { optional: true, event: 'hiringManagerIds' }),
  // A write of the requisition's posting (PUT /requisitions/{id}/posting) sets it: a
  // requisition.updated naming `posting`. The mirror `posting_published` rides along unlisted.
  posting_at: field.time({ optional: true, audit: 'none', event: 'posting' }),
  // Status changes go through POST /requisitions/{id}/status, with their own event.
  status: field.oneOf(REQ_STATUSES),
  created_at: field.time({ audit: 'none' }),
  updated_at: field.time({ audit: 'none' }),
});
