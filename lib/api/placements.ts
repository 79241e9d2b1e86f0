/**
 * Placements: the record of a hire (lib/entities/placement.ts), its routes and schemas. A
 * placement is written with the move into `placed`; these routes read it. It holds compensation,
 * so it is read with the offers' scope.
 */
import * as z from 'zod/mini';
import { JOB_TYPES, PAY_PERIODS } from '../model';
import { PLACEMENT_STATUSES } from '../entities/placement';
import { REASON_MAX } from '../model';
import { Compensation } from './offers';
import { IdParam, dataOf, intParam, nextCursor, pageCursor, text, timestamp, uuid } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

export const ListPlacementsQuery = z.strictObject({
  limit: z._default(intParam('limit', 1, 200), 50),
  /** Opaque: the `next_cursor` of the previous page, with the same filters. */
  cursor: pageCursor,
  /**
   * ISO 8601 date-time with Z or an offset: only placements created or changed at or after it
   * (inclusive, so resuming from the last `updated_at` seen misses nothing).
   */
  updated_after: z.optional(
    z.iso.datetime({
      offset: true,
      error: 'updated_after must be an ISO 8601 date-time with Z or an offset, such as 2026-01-31T09:00:00Z',
    }),
  ),
  req_id: z.optional(uuid('req_id')),
  status: z.optional(z.enum(PLACEMENT_STATUSES, { error: `status must be one of ${PLACEMENT_STATUSES.join(', ')}` })),
});
export type ListPlacementsQuery = z.output<typeof ListPlacementsQuery>;

/**
 * A placement. `compensation` is the accepted offer's (null when no offer in the service made the
 * hire; its amount null once the candidate was erased). `offer_id` and `offer_version` name the
 * offer version accepted. The team is the requisition's at the hire.
 */
export const Placement = z.object({
  id: z.uuid(),
  candidate_id: z.uuid(),
  /** Empty once the candidate was erased. */
  candidate_name: z.string(),
  person_id: z.nullable(z.uuid()),
  req_id: z.nullable(z.uuid()),
  req_title: z.nullable(z.string()),
  status: z.enum(PLACEMENT_STATUSES),
  offer_id: z.nullable(z.uuid()),
  offer_version: z.nullable(z.int()),
  start_date: z.nullable(z.string()),
  /** For contracts: when the placement ends. */
  end_date: z.nullable(z.string()),
  compensation: z.nullable(z.object({ amount: z.nullable(z.number()), currency: z.string(), period: z.enum(PAY_PERIODS) })),
  employment_type: z.nullable(z.enum(JOB_TYPES)),
  location: z.nullable(z.string()),
  recruiter_id: z.nullable(z.uuid()),
  hiring_manager_ids: z.array(z.uuid()),
  /** Where the candidate came from, when the service knows it. */
  source: z.nullable(z.string()),
  /** When the candidate entered `placed`. */
  hired_at: timestamp,
  cancelled_at: z.nullable(timestamp),
  cancel_reason: z.nullable(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  /** Only on an erased candidate's placements: the name and the amount are gone. */
  erased_at: z.optional(timestamp),
});
export type Placement = z.infer<typeof Placement>;

/** A page of placements, oldest change first; follow `next_cursor` until null. */
export const PlacementPage = z.object({ data: z.array(Placement), next_cursor: nextCursor });
export type PlacementPage = z.infer<typeof PlacementPage>;

export const listPlacements = {
  method: 'GET',
  path: '/api/v1/placements',
  console: true,
  handler: 'list-placements',
  auth: 'token',
  scope: 'offers:read',
  access: 'read',
  summary:
    DOCS &&
    'Placements, oldest change first (a sync feed with updated_after), filtered by req_id or status; one read per page, with an opaque cursor',
  query: ListPlacementsQuery,
  status: 200,
  response: PlacementPage,
} as const satisfies Route;

export const getPlacement = {
  method: 'GET',
  path: '/api/v1/placements/{id}',
  console: true,
  handler: 'get-placement',
  auth: 'token',
  scope: 'offers:read',
  access: 'read',
  summary: DOCS && 'One placement: the record of a hire',
  params: IdParam,
  ...(DOCS && { errors: { 404: 'A placement not in this workspace (code not_found)' } }),
  status: 200,
  response: dataOf(Placement),
} as const satisfies Route;

const date = (name: string) => z.iso.date({ error: `${name} must be a date such as 2027-03-01` });

/** Either date, at least one; `end_date: null` clears it. An end_date before the start_date is a 400 on end_date. */
export const UpdatePlacementBody = z
  .strictObject({ start_date: z.optional(date('start_date')), end_date: z.optional(z.nullable(date('end_date'))) })
  .check(z.refine((b) => b.start_date !== undefined || b.end_date !== undefined, { error: 'body must change start_date or end_date' }));
export type UpdatePlacementBody = z.output<typeof UpdatePlacementBody>;

/** Why the placement is cancelled (the person never started): kept on it, in the audit log and in the requisition's history. */
export const CancelPlacementBody = z.strictObject({ reason: text('reason', REASON_MAX) });
export type CancelPlacementBody = z.output<typeof CancelPlacementBody>;

export const updatePlacement = {
  method: 'PATCH',
  path: '/api/v1/placements/{id}',
  console: true,
  handler: 'update-placement',
  idempotent: true,
  auth: 'token',
  scope: 'offers:write',
  access: 'write',
  summary: DOCS && "Change a placement's start_date or end_date",
  params: IdParam,
  body: UpdatePlacementBody,
  ...(DOCS && {
    errors: {
      404: 'A placement not in this workspace (code not_found)',
      409: `The placement was cancelled (code placement_cancelled); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
  }),
  status: 200,
  response: dataOf(Placement),
} as const satisfies Route;

export const cancelPlacement = {
  method: 'POST',
  path: '/api/v1/placements/{id}/cancel',
  console: true,
  handler: 'cancel-placement',
  idempotent: true,
  auth: 'token',
  scope: 'offers:write',
  access: 'write',
  summary:
    DOCS &&
    'Cancel a placement (the person never started): its candidate leaves placed for offer_accepted, the hire no longer counts, and a requisition it filled reopens',
  params: IdParam,
  body: CancelPlacementBody,
  ...(DOCS && { errors: { 404: 'A placement not in this workspace (code not_found)', 409: IDEM_CONFLICT, 422: IDEM_MISMATCH } }),
  status: 200,
  response: dataOf(Placement),
} as const satisfies Route;

/**
 * A hire made without an offer in the service: its terms as the HR system should take them. An
 * end_date (contracts) before the start_date is a 400 on end_date.
 */
export const CreatePlacementBody = z.strictObject({
  start_date: date('start_date'),
  compensation: Compensation,
  employment_type: z.enum(JOB_TYPES, { error: `employment_type must be one of ${JOB_TYPES.join(', ')}` }),
  location: text('location', 200),
  end_date: z.optional(date('end_date')),
});
export type CreatePlacementBody = z.output<typeof CreatePlacementBody>;

export const createPlacement = {
  method: 'POST',
  path: '/api/v1/candidates/{id}/placement',
  console: true,
  handler: 'create-placement',
  idempotent: true,
  auth: 'token',
  scope: 'offers:write',
  access: 'write',
  summary:
    DOCS &&
    "Record a hire made without an offer in the service: the candidate moves to placed and the placement is written in the same transaction (the requisition's hires, headcount and automatic filled as for any hire)",
  params: IdParam,
  body: CreatePlacementBody,
  ...(DOCS && {
    errors: {
      404: 'A candidate not in this workspace (code not_found)',
      409: `The candidate has an active placement (code placement_exists, existing_id names it when known), or an accepted offer: move them to placed instead and the offer makes the placement (code offer_accepted); the requisition has all its hires (code headcount_reached); the candidate was erased (code candidate_erased); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
  }),
  status: 201,
  response: dataOf(Placement),
} as const satisfies Route;
