/**
 * Requisitions: their routes and schemas (the status matrix is lib/domain's).
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import type * as model from '../model';
import { CREATE_STATUSES, JOB_TYPES, MAX_HEADCOUNT, MAX_HIRING_MANAGERS, REASON_MAX, REQ_STATUSES } from '../model';
import { IdParam, dataOf, intParam, text, timestamp, uuid, type Same } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

export const ListRequisitionsQuery = z.strictObject({
  status: z._default(z.enum(REQ_STATUSES, { error: `status must be one of ${REQ_STATUSES.join(', ')}` }), 'open'),
  limit: z._default(intParam('limit', 1, 200), 50),
});
export type ListRequisitionsQuery = z.output<typeof ListRequisitionsQuery>;

// ---- requisitions (writes) -----------------------------------------------------------------

const jobType = z.enum(JOB_TYPES, { error: `job_type must be one of ${JOB_TYPES.join(', ')}` });
const headcountError = `headcount must be a whole number between 1 and ${MAX_HEADCOUNT}`;
const headcount = z
  .number({ error: headcountError })
  .check(z.int({ error: headcountError }), z.gte(1, { error: headcountError }), z.lte(MAX_HEADCOUNT, { error: headcountError }));

/** The team: member ids of the workspace's active members (the domain checks them). */
const recruiterId = uuid('recruiter_id');
const hiringManagerIds = z
  .array(uuid('hiring_manager_ids[]'), { error: 'hiring_manager_ids must be an array of member ids' })
  .check(z.maxLength(MAX_HIRING_MANAGERS, { error: `hiring_manager_ids must hold at most ${MAX_HIRING_MANAGERS} ids` }));

export const CreateRequisitionBody = z.strictObject({
  title: text('title', 200),
  department: z.optional(text('department', 200)),
  location: z.optional(text('location', 200)),
  job_type: z.optional(jobType),
  headcount: z._default(headcount, 1),
  /** A requisition starts open (taking candidates) or as a draft. */
  status: z._default(z.enum(CREATE_STATUSES, { error: `status must be one of ${CREATE_STATUSES.join(', ')}` }), 'open'),
  /** The requisition's owner: an active member of the workspace. */
  recruiter_id: z.optional(recruiterId),
  /** The hiring managers on it: active members, who then see it and its candidates. */
  hiring_manager_ids: z.optional(hiringManagerIds),
});
export type CreateRequisitionBody = z.output<typeof CreateRequisitionBody>;

/** Any of the fields, at least one; `null` clears department, location or job_type. Status changes go through /status. */
export const UpdateRequisitionBody = z
  .strictObject({
    title: z.optional(text('title', 200)),
    department: z.optional(z.nullable(text('department', 200))),
    location: z.optional(z.nullable(text('location', 200))),
    job_type: z.optional(z.nullable(jobType)),
    headcount: z.optional(headcount),
    /** `null` leaves the requisition without an owner. */
    recruiter_id: z.optional(z.nullable(recruiterId)),
    /** The whole list: `[]` takes every hiring manager off. */
    hiring_manager_ids: z.optional(hiringManagerIds),
  })
  .check(
    z.refine((b) => Object.values(b).some((v) => v !== undefined), {
      error: 'body must change at least one of title, department, location, job_type, headcount, recruiter_id, hiring_manager_ids',
    }),
  );
export type UpdateRequisitionBody = z.output<typeof UpdateRequisitionBody>;

const reqStatusEnum = (name: string) => z.enum(REQ_STATUSES, { error: `${name} must be one of ${REQ_STATUSES.join(', ')}` });

export const ChangeRequisitionStatusBody = z.strictObject({
  status: reqStatusEnum('status'),
  /** Required (1 to 500 characters) when the status becomes on_hold or closed; kept in the history. */
  reason: z.optional(text('reason', REASON_MAX)),
  /** The status the caller believes the requisition is in: a stale belief is a 409, not a change. */
  from_status: z.optional(reqStatusEnum('from_status')),
});
export type ChangeRequisitionStatusBody = z.output<typeof ChangeRequisitionStatusBody>;

const digits = z.string().check(z.regex(/^\d+$/));

export const Requisition = z.object({
  id: z.uuid(),
  title: z.string(),
  department: z.nullable(z.string()),
  location: z.nullable(z.string()),
  job_type: z.nullable(z.string()),
  status: z.enum(REQ_STATUSES),
  candidate_count: digits,
  offers_pending: digits,
  created_at: timestamp,
});
export type Requisition = z.infer<typeof Requisition>;

/** Who changed a requisition: a token (id, name), a user (id, email), or `system` (an automatic filled). */
export const ReqActor = z.object({
  type: z.enum(['token', 'user', 'system']),
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
});

/** One requisition status change, oldest first; the first is the creation (`from` null). */
export const ReqStatusChange = z.object({
  from: z.nullable(z.enum(REQ_STATUSES)),
  to: z.enum(REQ_STATUSES),
  reason: z.nullable(z.string()),
  actor: ReqActor,
  at: timestamp,
});

/** A requisition as the write routes answer it: the list shape plus headcount, hires and updated_at. */
export const RequisitionFull = z.object({
  ...Requisition.shape,
  /** Null for requisitions made before headcounts existed (no limit, never filled by itself). */
  headcount: z.nullable(z.int()),
  /** Candidates of this requisition in `placed`. */
  hires: z.int(),
  updated_at: timestamp,
  /** The owner's member id; null when none is named. */
  recruiter_id: z.nullable(z.string()),
  /** The hiring managers' member ids. */
  hiring_manager_ids: z.array(z.string()),
});
export type RequisitionFull = z.infer<typeof RequisitionFull>;
export const RequisitionDetail = z.object({ ...RequisitionFull.shape, status_history: z.array(ReqStatusChange) });
export type RequisitionDetail = z.infer<typeof RequisitionDetail>;

export const RequisitionList = z.object({ data: z.array(RequisitionFull), count: z.int() });

// The store builds this shape without the schema; a field added to one side only fails tsc here.
true satisfies Same<Requisition, model.Requisition>;

// ---- routes ------------------------------------------------------------------------------

export const listRequisitions = {
  method: 'GET',
  path: '/api/v1/requisitions',
  console: true,
  handler: 'list-requisitions',
  auth: 'token',
  scope: 'requisitions:read',
  access: 'read',
  summary: DOCS && 'List requisitions with candidate counts, newest first',
  query: ListRequisitionsQuery,
  status: 200,
  response: RequisitionList,
} as const satisfies Route;

export const createRequisition = {
  method: 'POST',
  path: '/api/v1/requisitions',
  console: true,
  handler: 'create-requisition',
  idempotent: true,
  auth: 'token',
  scope: 'requisitions:write',
  access: 'write',
  summary: DOCS && 'Create a requisition (open unless status is draft)',
  body: CreateRequisitionBody,
  ...(DOCS && { errors: { 409: IDEM_CONFLICT, 422: IDEM_MISMATCH } }),
  status: 201,
  response: dataOf(RequisitionFull),
} as const satisfies Route;

export const getRequisition = {
  method: 'GET',
  path: '/api/v1/requisitions/{id}',
  console: true,
  handler: 'get-requisition',
  auth: 'token',
  scope: 'requisitions:read',
  access: 'read',
  etag: true,
  summary: DOCS && 'One requisition with its status history, oldest first',
  params: IdParam,
  status: 200,
  response: dataOf(RequisitionDetail),
} as const satisfies Route;

export const updateRequisition = {
  method: 'PATCH',
  path: '/api/v1/requisitions/{id}',
  console: true,
  handler: 'update-requisition',
  idempotent: true,
  ifMatch: true,
  etag: true,
  auth: 'token',
  scope: 'requisitions:write',
  access: 'write',
  summary: DOCS && "Change a requisition's fields (not its status)",
  params: IdParam,
  body: UpdateRequisitionBody,
  ...(DOCS && {
    errors: {
      409: `headcount below hires (code headcount_below_hires); or ${IDEM_CONFLICT}`,
      412: 'Stale If-Match (code stale_requisition)',
      422: IDEM_MISMATCH,
    },
  }),
  status: 200,
  response: dataOf(RequisitionFull),
} as const satisfies Route;

export const changeRequisitionStatus = {
  method: 'POST',
  path: '/api/v1/requisitions/{id}/status',
  console: true,
  handler: 'change-requisition-status',
  idempotent: true,
  etag: true,
  auth: 'token',
  scope: 'requisitions:write',
  access: 'write',
  summary: DOCS && "Change a requisition's status",
  params: IdParam,
  body: ChangeRequisitionStatusBody,
  ...(DOCS && {
    errors: {
      409: `Refused by the matrix (code invalid_transition, with allowed); or not in from_status (code stale_status); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
  }),
  status: 200,
  response: dataOf(RequisitionFull),
} as const satisfies Route;
