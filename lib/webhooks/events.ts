/**
 * Turning table changes into webhook events. The table's stream is the only source of events,
 * so an event exists exactly when its write committed. Event ids derive from the stream
 * record's id, so a retried batch yields the same ids and receivers can deduplicate.
 */
import { createHash } from 'node:crypto';
import { candidate } from '../entities/candidate';
import { requisition } from '../entities/requisition';
import type { EventType } from '../model';
import type { StreamChange } from '../records';

export interface WebhookEvent {
  id: string;
  type: EventType | 'webhook.test' | 'webhook.endpoint_disabled';
  tenantId: string;
  data: Record<string, unknown>;
  /** ISO 8601 UTC with milliseconds: when the change happened. */
  timestamp: string;
}

/**
 * Lambda event-filter patterns for the stream (the CDK event source mapping and the local
 * stream poller both use these): candidate inserts and changes, placement and note inserts and changes,
 * requisition changes, a completed import, a processed file. At most 5: an event source mapping's quota.
 */
export const STREAM_FILTER_PATTERNS = [
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['candidate'] } } } },
  // Notes, merge records, interview changes, scorecard versions and placements share one pattern
  // (an event source mapping takes 5): noteEvents drops all but inserted team notes, an item a
  // merge moved (`moved_from`) is no event, an interview change and a scorecard version are
  // inserts of their own (one item per change; an erasure's scrub of a version is no event), and
  // a placement's change is an event only when its dates or status changed.
  {
    eventName: ['INSERT', 'MODIFY'],
    dynamodb: { NewImage: { type: { S: ['placement', 'note', 'person_merge', 'interview_change', 'scorecard_version'] } } },
  },
  { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['requisition'] } } } },
  { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['requisition_status'] } } } },
  // Imports and files share one pattern too: each type's events check their own status again
  // (an import's completed, a file's move out of processing), and neither has the other's statuses.
  {
    eventName: ['MODIFY'],
    dynamodb: { NewImage: { type: { S: ['import_job', 'file'] }, status: { S: ['completed', 'ready', 'refused'] } } },
  },
];

export const eventId = (streamEventId: string, type: string) =>
  `evt_${createHash('sha256').update(`${streamEventId}:${type}`).digest('hex').slice(0, 32)}`;

type Image = Record<string, unknown>;

/** Candidate fields whose change is a candidate.updated, with their names in event data (the declaration's). */
const PROFILE_FIELDS = candidate.eventFields;

/** Requisition fields whose change is a requisition.updated, with their names in event data (the declaration's). */
const REQ_FIELDS = requisition.eventFields;

/** The actor a requisition item or status record names (lib/store/requisitions.ts actorAttrs). */
const actorOfImage = (i: Image) =>
  i.actor_type === 'token' || i.actor_type === 'user'
    ? {
        type: i.actor_type,
        id: i.actor_id,
        ...(typeof i.actor_name === 'string' && { name: i.actor_name }),
        ...(typeof i.actor_email === 'string' && { email: i.actor_email }),
      }
    : { type: 'system' };

/** A tenant partition key `T#<id>` names the tenant of items written before they carried tenant_id. */
const tenantOf = (i: Image) => (typeof i.tenant_id === 'string' ? i.tenant_id : String(i.PK ?? '').replace(/^T#/, ''));

function requisitionEvents(change: StreamChange, after: Image, before: Image | undefined): WebhookEvent[] {
  const make = (type: EventType, timestamp: string, data: Record<string, unknown>): WebhookEvent => ({
    id: eventId(change.id, type),
    type,
    tenantId: tenantOf(after),
    data,
    timestamp,
  });
  if (after.type === 'requisition_status') {
    // The first record (from none) is the creation, which requisition.created reports.
    if (change.name !== 'INSERT' || after.from_status === undefined) return [];
    return [
      make('requisition.status_changed', after.at as string, {
        reqId: after.req_id,
        title: after.req_title,
        from: after.from_status,
        to: after.to_status,
        reason: after.reason ?? null,
        actor: actorOfImage(after),
        changedAt: after.at,
      }),
    ];
  }
  const req = {
    reqId: after.id,
    title: after.title,
    department: after.department ?? null,
    location: after.location ?? null,
    jobType: after.job_type ?? null,
    headcount: after.headcount ?? null,
    status: after.status,
    recruiterId: after.recruiter_id ?? null,
    hiringManagerIds: after.hiring_manager_ids ?? [],
  };
  if (change.name === 'INSERT') {
    return [make('requisition.created', after.created_at as string, { ...req, actor: actorOfImage(after), createdAt: after.created_at })];
  }
  if (change.name !== 'MODIFY' || !before) return [];
  // Counter and status writes change the item too; only a field change is an update.
  // Compared as JSON: the hiring managers are a list, a new one on every write.
  const changed = REQ_FIELDS.filter(([field]) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null)).map(
    ([, name]) => name,
  );
  if (!changed.length) return [];
  return [
    make('requisition.updated', after.updated_at as string, { ...req, changed, actor: actorOfImage(after), updatedAt: after.updated_at }),
  ];
}

/** A team note's creation, by ids; a private or admins note is no event. */
function noteEvents(change: StreamChange, after: Image): WebhookEvent[] {
  if (change.name !== 'INSERT' || after.visibility !== 'team' || after.moved_from !== undefined) return [];
  return [
    {
      id: eventId(change.id, 'note.created'),
      type: 'note.created',
      tenantId: tenantOf(after),
      timestamp: after.created_at as string,
      data: {
        noteId: after.id,
        personId: after.person_id,
        candidateId: after.candidate_id ?? null,
        authorId: after.author_id,
        createdAt: after.created_at,
      },
    },
  ];
}

/** An interview's change (lib/store/interviews.ts changeItem): the event it names, ids and times only. */
function interviewEvents(change: StreamChange, after: Image): WebhookEvent[] {
  const type = after.event as EventType;
  if (change.name !== 'INSERT' || !['interview.scheduled', 'interview.updated', 'interview.cancelled'].includes(type)) return [];
  return [
    {
      id: eventId(change.id, type),
      type,
      tenantId: tenantOf(after),
      timestamp: after.at as string,
      data: {
        interviewId: after.interview_id,
        candidateId: after.candidate_id,
        reqId: after.req_id ?? null,
        stepId: after.step_id,
        start: after.start,
        end: after.end,
        timeZone: after.time_zone,
        interviewerIds: after.interviewers,
        sequence: after.sequence,
        status: after.status,
        changedAt: after.at,
      },
    },
  ];
}

/**
 * A scorecard's version (lib/store/scorecards.ts), inserted once per submission: the first is
 * scorecard.submitted, each later one scorecard.updated. Ids and `overall`: never the text.
 */
function scorecardEvents(change: StreamChange, after: Image): WebhookEvent[] {
  if (change.name !== 'INSERT' || typeof after.erased_at === 'string') return [];
  const type: EventType = after.version === 1 ? 'scorecard.submitted' : 'scorecard.updated';
  return [
    {
      id: eventId(change.id, type),
      type,
      tenantId: tenantOf(after),
      timestamp: after.updated_at as string,
      data: {
        scorecardId: after.id,
        interviewId: after.interview_id,
        candidateId: after.candidate_id,
        reqId: after.req_id ?? null,
        stepId: after.step_id,
        interviewerId: after.interviewer_id,
        overall: after.overall,
        version: after.version,
        submittedAt: after.submitted_at,
        updatedAt: after.updated_at,
      },
    },
  ];
}

/** Events a table change stands for; none for changes that are not event sources. */
export function eventsFromChange(change: StreamChange): WebhookEvent[] {
  const after = change.newImage;
  const before = change.oldImage;
  if (!after || !change.id) return [];
  if (after.type === 'requisition' || after.type === 'requisition_status') return requisitionEvents(change, after, before);
  if (after.type === 'note') return noteEvents(change, after);
  if (after.type === 'person_merge') {
    // Its insert, once; a record carried along by a later merge of the person is no new event.
    if (change.name !== 'INSERT' || after.moved_from !== undefined) return [];
    return [
      {
        id: eventId(change.id, 'person.merged'),
        type: 'person.merged',
        tenantId: tenantOf(after),
        timestamp: after.at as string,
        data: { personId: after.person_id, fromPersonId: after.from_person_id, candidateIds: after.candidate_ids, mergedAt: after.at },
      },
    ];
  }
  if (after.type === 'interview_change') return interviewEvents(change, after);
  if (after.type === 'scorecard_version') return scorecardEvents(change, after);
  if (after.type === 'import_job') {
    // The change to completed, once; counts only, never a row.
    if (change.name !== 'MODIFY' || after.status !== 'completed' || before?.status === 'completed') return [];
    return [
      {
        id: eventId(change.id, 'import.completed'),
        type: 'import.completed',
        tenantId: after.tenant_id as string,
        timestamp: after.completed_at as string,
        data: {
          importId: after.id,
          format: after.format,
          total: after.total,
          created: after.n_created ?? 0,
          skipped: after.n_skipped ?? 0,
          failed: after.n_failed ?? 0,
          completedAt: after.completed_at,
        },
      },
    ];
  }
  if (after.type === 'file') {
    // The move out of processing, once; ids and the outcome, never the name or the text.
    if (change.name !== 'MODIFY' || before?.status !== 'processing' || after.status === 'processing') return [];
    return [
      {
        id: eventId(change.id, 'file.processed'),
        type: 'file.processed',
        tenantId: after.tenant_id as string,
        timestamp: after.processed_at as string,
        data: {
          fileId: after.id,
          personId: after.person_id,
          kind: after.kind,
          status: after.status,
          refusalCode: after.refusal_code ?? null,
          processedAt: after.processed_at,
        },
      },
    ];
  }
  const make = (type: EventType, timestamp: string, data: Record<string, unknown>): WebhookEvent => ({
    id: eventId(change.id, type),
    type,
    tenantId: after.tenant_id as string,
    data,
    timestamp,
  });
  const candidate = {
    candidateId: after.id,
    name: after.name,
    reqId: after.req_id ?? null,
  };
  if (after.type === 'placement' && change.name === 'INSERT') {
    return [
      make('placement.created', after.created_at as string, {
        ...placementData(after),
        name: after.candidate_name,
        placedAt: after.placed_at,
      }),
    ];
  }
  if (after.type === 'placement') {
    // Index keys, a backfill or an erasure change no field of the record: no event.
    const changed = PLACEMENT_FIELDS.filter(([f]) => change.name === 'MODIFY' && before && (before[f] ?? null) !== (after[f] ?? null));
    if (!changed.length || typeof after.erased_at === 'string') return [];
    return [
      make('placement.updated', after.updated_at as string, {
        ...placementData(after),
        cancelReason: after.cancel_reason ?? null,
        changed: changed.map(([, name]) => name),
      }),
    ];
  }
  if (after.type !== 'candidate') return [];
  // The offer that made the move, when one did (lib/domain/offers.ts): ids and its start date.
  const ref = after.offer_ref as { offer_id?: unknown; offer_version?: unknown; start_date?: unknown } | undefined;
  const offer = {
    ...candidate,
    reqTitle: after.req_title ?? null,
    ...(ref && { offerId: ref.offer_id, offerVersion: ref.offer_version, startDate: ref.start_date }),
  };
  const offerEvents = (at: string) => [
    ...(after.stage === 'offer_sent' ? [make('offer.sent', at, { ...offer, sentAt: at })] : []),
    ...(after.stage === 'offer_accepted' ? [make('offer.accepted', at, { ...offer, acceptedAt: at })] : []),
  ];
  if (change.name === 'INSERT') {
    // A candidate created straight into an offer stage has sent or accepted an offer too.
    const at = after.created_at as string;
    return [
      make('candidate.created', at, {
        ...candidate,
        email: after.email ?? null,
        stage: after.stage,
        createdAt: at,
        ...(typeof after.source === 'string' && { source: after.source }),
      }),
      ...offerEvents(at),
    ];
  }
  if (change.name !== 'MODIFY' || !before) return [];
  const at = after.updated_at as string;
  // The erasure itself: one event without personal data, never a candidate.updated naming fields.
  if (typeof after.erased_at === 'string' && before.erased_at === undefined) {
    return [make('candidate.erased', after.erased_at, { id: after.id, erased_at: after.erased_at })];
  }
  if (before.stage === after.stage) {
    // A profile change (PATCH); other writes to the item (index keys, say) are no event.
    const changed = PROFILE_FIELDS.filter(([field]) => (before[field] ?? null) !== (after[field] ?? null)).map(([, name]) => name);
    if (!changed.length) return [];
    return [
      make('candidate.updated', at, {
        ...candidate,
        email: after.email ?? null,
        phone: after.phone ?? null,
        resumeUrl: after.resume_url ?? null,
        reqTitle: after.req_title ?? null,
        stage: after.stage,
        changed,
        updatedAt: at,
      }),
    ];
  }
  // The reason of a rejection that gave one, by id, label and type; never its note (personal).
  const r = after.stage === 'rejected' ? (after.rejection as Record<string, unknown> | undefined) : undefined;
  const reason = r && { rejectionReasonId: r.reason_id, rejectionReasonLabel: r.label, rejectionType: r.type };
  return [
    make('candidate.stage_changed', at, { ...candidate, oldStage: before.stage, newStage: after.stage, ...reason }),
    ...offerEvents(at),
  ];
}

/** The exact bytes every delivery of this event sends. */
export const envelope = (e: WebhookEvent, tenantSlug: string) =>
  JSON.stringify({ event: e.type, data: e.data, timestamp: e.timestamp, tenantSlug });

/** Placement fields whose change is a placement.updated, with their names in event data. */
const PLACEMENT_FIELDS = [
  ['start_date', 'startDate'],
  ['end_date', 'endDate'],
  ['status', 'status'],
] as const;

/** A placement item as its events carry it (lib/webhooks/payloads.ts `placementRecord`). */
export function placementData(p: Image) {
  const v = <T>(x: unknown) => (x ?? null) as T | null;
  return {
    placementId: p.id,
    candidateId: p.candidate_id,
    personId: v(p.person_id),
    reqId: v(p.req_id),
    reqTitle: v(p.req_title),
    status: p.status ?? 'active',
    offerId: v(p.offer_id),
    offerVersion: v(p.offer_version),
    startDate: v(p.start_date),
    endDate: v(p.end_date),
    compensation: p.currency ? { amount: v(p.amount), currency: p.currency, period: p.period } : null,
    employmentType: v(p.employment_type),
    location: v(p.location),
    recruiterId: v(p.recruiter_id),
    hiringManagerIds: Array.isArray(p.hiring_manager_ids) ? p.hiring_manager_ids : [],
    source: v(p.source),
    hiredAt: p.placed_at,
    cancelledAt: v(p.cancelled_at),
    updatedAt: p.updated_at ?? p.created_at,
  };
}
