/**
 * The outgoing webhooks as the OpenAPI document describes them (its `webhooks` section): the
 * envelope every delivery sends, each event type's `data`, and the delivery headers. Only the
 * OpenAPI function and the tests import this; the fan-out builds the same shapes in events.ts,
 * and test/unit/webhook-payloads.test.ts holds the two together.
 */
import * as z from 'zod/mini';
import {
  ENDPOINT_DISABLED_EVENT,
  EVENT_TYPES,
  JOB_TYPES,
  PAY_PERIODS,
  REJECTION_TYPES,
  REQ_STATUSES,
  STAGES,
  TEST_EVENT,
  type EventType,
} from '../model';
import { PLACEMENT_STATUSES } from '../entities/placement';
import { candidate } from '../entities/candidate';
import { FILE_KINDS } from '../entities/file';
import { requisition as requisitionEntity } from '../entities/requisition';
import { PREVIOUS_SIGNATURE_HEADER } from './sign';
import { OVERALLS } from '../api/scorecards';

const at = z.iso.datetime();
const stage = z.enum(STAGES);
const reqId = z.nullable(z.uuid());
const reqTitle = z.nullable(z.string());

const reqStatus = z.enum(REQ_STATUSES);
/** Who made a requisition change: a token (id, name), a user (id, email), or the service (`system`). */
const actor = z.strictObject({
  type: z.enum(['token', 'user', 'system']),
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
});
/** The requisition as every requisition event carries it. */
const requisition = {
  reqId: z.uuid(),
  title: z.string(),
  department: z.nullable(z.string()),
  location: z.nullable(z.string()),
  jobType: z.nullable(z.string()),
  headcount: z.nullable(z.int()),
  status: reqStatus,
  /** The requisition's owner (a member id), null when none is named. */
  recruiterId: z.nullable(z.uuid()),
  /** The hiring managers on it (member ids). */
  hiringManagerIds: z.array(z.uuid()),
};
/** Requisition fields whose change is a requisition.updated, by their names in event data. */
export const REQ_EVENT_FIELDS = requisitionEntity.eventFields.map(([, name]) => name) as [string, ...string[]];

/** `data` of each event type, as lib/webhooks/events.ts and the delivery function build it. */
/**
 * On offer.sent and offer.accepted when an offer in the service made the move (POST
 * /api/v1/offers/{id}/status): the offer, the version sent or accepted, and its start date.
 * Absent when the move was a stage move alone.
 */
const offerRef = {
  offerId: z.optional(z.uuid()),
  offerVersion: z.optional(z.int()),
  startDate: z.optional(z.string()),
};

/**
 * The placement record as its events carry it: the placement minus the candidate's personal fields
 * (only `name`, which placement.created always carried, stays). `compensation` is null when no
 * accepted offer made the hire, and its `amount` null once the candidate was erased.
 */
const placementRecord = {
  placementId: z.uuid(),
  candidateId: z.uuid(),
  personId: z.nullable(z.uuid()),
  reqId,
  reqTitle,
  status: z.enum(PLACEMENT_STATUSES),
  offerId: z.nullable(z.uuid()),
  offerVersion: z.nullable(z.int()),
  startDate: z.nullable(z.iso.date()),
  endDate: z.nullable(z.iso.date()),
  compensation: z.nullable(z.strictObject({ amount: z.nullable(z.number()), currency: z.string(), period: z.enum(PAY_PERIODS) })),
  employmentType: z.nullable(z.enum(JOB_TYPES)),
  location: z.nullable(z.string()),
  recruiterId: z.nullable(z.uuid()),
  hiringManagerIds: z.array(z.uuid()),
  source: z.nullable(z.string()),
  hiredAt: at,
  cancelledAt: z.nullable(at),
  updatedAt: at,
};
/** An interview's change: ids, times and interviewer ids, never the candidate's personal data nor the location. */
const interviewEvent = z.strictObject({
  interviewId: z.uuid(),
  candidateId: z.uuid(),
  reqId: z.nullable(z.uuid()),
  stepId: z.uuid(),
  start: at,
  end: at,
  timeZone: z.string(),
  interviewerIds: z.array(z.string()),
  /** Grows with each change of the interview (the invitation's SEQUENCE). */
  sequence: z.int(),
  status: z.enum(['scheduled', 'cancelled']),
  changedAt: at,
});
/**
 * A scorecard's version: ids, the recommendation and the version, never its ratings, answers or
 * note (the blind rule holds on events: they carry no text).
 */
const scorecardEvent = z.strictObject({
  scorecardId: z.uuid(),
  interviewId: z.uuid(),
  candidateId: z.uuid(),
  reqId: z.nullable(z.uuid()),
  stepId: z.uuid(),
  interviewerId: z.uuid(),
  overall: z.enum(OVERALLS),
  /** 1 on scorecard.submitted, one more on each scorecard.updated. */
  version: z.int(),
  submittedAt: at,
  updatedAt: at,
});

export const EVENT_DATA = {
  'candidate.created': z.strictObject({
    candidateId: z.uuid(),
    name: z.string(),
    email: z.nullable(z.string()),
    stage,
    reqId,
    createdAt: at,
    /** Where the candidate came from (careers, a src, api, console, import); absent on candidates from before it was kept. */
    source: z.optional(z.string()),
  }),
  'candidate.stage_changed': z.strictObject({
    candidateId: z.uuid(),
    name: z.string(),
    reqId,
    oldStage: stage,
    newStage: stage,
    /** Only on a move into `rejected` that gave a reason (the note is never sent). */
    rejectionReasonId: z.optional(z.string()),
    rejectionReasonLabel: z.optional(z.string()),
    rejectionType: z.optional(z.enum(REJECTION_TYPES)),
  }),
  'candidate.updated': z.strictObject({
    candidateId: z.uuid(),
    name: z.string(),
    email: z.nullable(z.string()),
    phone: z.nullable(z.string()),
    resumeUrl: z.nullable(z.string()),
    reqId,
    reqTitle,
    stage,
    /** The profile fields this change touched, by these names. */
    changed: z.array(z.enum(candidate.eventFields.map(([, name]) => name) as [string, ...string[]])),
    updatedAt: at,
  }),
  /** Only the id and the time: receivers erase their own copies; no personal data is sent. */
  'candidate.erased': z.strictObject({ id: z.uuid(), erased_at: at }),
  'offer.sent': z.strictObject({ candidateId: z.uuid(), name: z.string(), reqId, reqTitle, sentAt: at, ...offerRef }),
  'offer.accepted': z.strictObject({ candidateId: z.uuid(), name: z.string(), reqId, reqTitle, acceptedAt: at, ...offerRef }),
  'placement.created': z.strictObject({ ...placementRecord, name: z.string(), placedAt: at }),
  /** `changed` names the fields this change touched: startDate, endDate, status (a cancellation, with its reason). */
  'placement.updated': z.strictObject({
    ...placementRecord,
    cancelReason: z.nullable(z.string()),
    changed: z.array(z.enum(['startDate', 'endDate', 'status'])),
  }),
  'requisition.created': z.strictObject({ ...requisition, actor, createdAt: at }),
  'requisition.updated': z.strictObject({
    ...requisition,
    /** The fields this change touched, by these names. */
    changed: z.array(z.enum(REQ_EVENT_FIELDS)),
    actor,
    updatedAt: at,
  }),
  'requisition.status_changed': z.strictObject({
    reqId: z.uuid(),
    title: z.string(),
    from: reqStatus,
    to: reqStatus,
    reason: z.nullable(z.string()),
    actor,
    changedAt: at,
  }),
  'import.completed': z.strictObject({
    importId: z.uuid(),
    format: z.enum(['csv', 'ndjson']),
    total: z.int(),
    created: z.int(),
    skipped: z.int(),
    failed: z.int(),
    completedAt: at,
  }),
  /** Ids only, never the body; for `team` notes only (a private or admins note sends nothing). */
  'note.created': z.strictObject({
    noteId: z.uuid(),
    personId: z.uuid(),
    candidateId: z.nullable(z.uuid()),
    authorId: z.string(),
    createdAt: at,
  }),
  /** Ids and the outcome only: the filename and the text stay behind GET /api/v1/people/{id}/files/{file_id}. */
  'file.processed': z.strictObject({
    fileId: z.uuid(),
    personId: z.uuid(),
    kind: z.enum(FILE_KINDS),
    status: z.enum(['ready', 'refused']),
    refusalCode: z.nullable(z.string()),
    processedAt: at,
  }),
  /** Ids only: the person kept, the one merged into them (deleted), and the candidates that moved (their ids unchanged). */
  'person.merged': z.strictObject({
    personId: z.uuid(),
    fromPersonId: z.uuid(),
    candidateIds: z.array(z.uuid()),
    mergedAt: at,
  }),
  'interview.scheduled': interviewEvent,
  'interview.updated': interviewEvent,
  'interview.cancelled': interviewEvent,
  'scorecard.submitted': scorecardEvent,
  'scorecard.updated': scorecardEvent,
  [TEST_EVENT]: z.strictObject({ webhookId: z.uuid(), message: z.string() }),
  [ENDPOINT_DISABLED_EVENT]: z.strictObject({ webhookId: z.uuid(), reason: z.string(), disabledAt: at }),
} satisfies Record<EventType | typeof TEST_EVENT | typeof ENDPOINT_DISABLED_EVENT, z.ZodMiniType>;
export type DeliveredEventType = keyof typeof EVENT_DATA;

export const EVENT_SUMMARIES: Record<DeliveredEventType, string> = {
  'interview.scheduled': 'An interview was scheduled (POST /api/v1/candidates/{id}/interviews); ids, times and interviewer ids only',
  'interview.updated':
    'An interview was rescheduled or its interviewers or location changed (PATCH /api/v1/interviews/{id}); `sequence` grows with each change',
  'interview.cancelled': 'An interview was cancelled (DELETE /api/v1/interviews/{id}); ids and times only',
  'scorecard.submitted':
    "An interviewer's scorecard was submitted for the first time (POST /api/v1/interviews/{id}/scorecards); ids and `overall` only, never its ratings, answers or note",
  'scorecard.updated':
    'An interviewer submitted a new version of their scorecard (`version` 2 and up); ids and `overall` only, never its ratings, answers or note',
  'candidate.created': 'A candidate was created',
  'candidate.stage_changed': "A candidate's stage changed (a real move, never a no-op)",
  'candidate.updated': "A candidate's profile changed (PATCH /api/v1/candidates/{id}; never a stage move)",
  'candidate.erased':
    "A candidate's personal data was erased (POST /api/v1/candidates/{id}/erase, or a retention rule); only `id` and `erased_at`: erase your copies",
  'offer.sent': 'A candidate moved to offer_sent, or was created in it',
  'offer.accepted': 'A candidate moved to offer_accepted, or was created in it',
  'placement.created':
    "A candidate moved to placed, or was created in it; a placement record was written (GET /api/v1/placements/{id}): the accepted offer's terms when one made the hire, and the requisition's team",
  'placement.updated':
    "A placement's start_date or end_date changed (PATCH /api/v1/placements/{id}), or it was cancelled (POST /api/v1/placements/{id}/cancel); `changed` names them",
  'requisition.created': 'A requisition was created (POST /api/v1/requisitions or the admin CLI)',
  'requisition.updated':
    "A requisition's title, department, location, job_type, headcount or team changed (PATCH /api/v1/requisitions/{id}), or its posting was written (PUT /api/v1/requisitions/{id}/posting: `changed` names `posting`); `changed` names them",
  'requisition.status_changed':
    'A requisition changed status (POST /api/v1/requisitions/{id}/status, or `filled` by itself when a placement reached its headcount, actor `system`); never a no-op',
  'import.completed':
    'A bulk import (POST /api/v1/candidates/imports) ended: its counts, never its rows; each created candidate also sent candidate.created',
  'note.created':
    'A team note was written on a person (POST /api/v1/people/{id}/notes); ids only, never the body; private and admins notes send nothing',
  'file.processed':
    'A file attached to a person (POST /api/v1/people/{id}/files) was checked: `ready` (its text read) or `refused` (`refusalCode` says why; its bytes are deleted); ids only',
  'person.merged':
    "Two people were merged (POST /api/v1/people/{id}/merge): `fromPersonId`'s candidates are now `personId`'s, with the same ids, and `fromPersonId` is gone; ids only",
  [TEST_EVENT]: 'The test operation (POST /api/webhooks/{id}/test); not subscribable',
  [ENDPOINT_DISABLED_EVENT]:
    'The service disabled another endpoint of the workspace; sent to every other active endpoint, not subscribable',
};

/** The exact body of every delivery (lib/webhooks/events.ts `envelope`). */
export const envelopeOf = <T extends DeliveredEventType>(type: T) =>
  z.strictObject({
    event: z.literal(type),
    data: EVENT_DATA[type],
    /** When the change happened: ISO 8601 UTC with milliseconds. */
    timestamp: at,
    tenantSlug: z.string(),
  });

/** Delivery headers (lib/webhooks/sign.ts `deliveryHeaders`), as OpenAPI header parameters. */
export const DELIVERY_HEADERS = [
  {
    name: 'X-Service-Event',
    required: true,
    schema: { type: 'string', enum: Object.keys(EVENT_DATA) },
    description: 'The event type, as in the body.',
  },
  {
    name: 'X-Service-Signature',
    required: true,
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    description: 'Lowercase hex HMAC-SHA256 of the raw body, keyed by the secret string exactly as shown (`whsec_…`).',
  },
  {
    name: PREVIOUS_SIGNATURE_HEADER,
    required: false,
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    description: "Only during a secret rotation's grace window: the X-Service-Signature made with the previous secret.",
  },
  {
    name: 'webhook-id',
    required: true,
    schema: { type: 'string', pattern: '^evt_[0-9a-f]{32}$' },
    description: 'The event id, the same on every retry, resend and replay: deduplicate by it.',
  },
  {
    name: 'webhook-timestamp',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
    description: 'Unix seconds of this attempt; refuse old ones (5 minutes) against replays.',
  },
  {
    name: 'webhook-signature',
    required: true,
    schema: { type: 'string' },
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the base64-decoded part after `whsec_`; during a rotation two space-separated signatures, the new one first.',
  },
  { name: 'User-Agent', required: true, schema: { type: 'string' }, description: '`TalentPipeline-Webhooks/1.0`' },
] as const;

export const DELIVERED_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT, ENDPOINT_DISABLED_EVENT] as const satisfies readonly DeliveredEventType[];
