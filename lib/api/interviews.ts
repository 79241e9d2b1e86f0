/**
 * Interviews: scheduling one for a candidate on a step of their requisition's plan, rescheduling,
 * cancelling, and the reads (one interview; the list by interviewer, candidate, requisition and
 * time). The conflict rule and the stage follow are lib/domain's (interview-rules.ts).
 */
import * as z from 'zod/mini';
import { IdParam, dataOf, intParam, nextCursor, text, timestamp, uuid } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

export const MAX_INTERVIEWERS = 10;
/** The longest interview: it also bounds how far back a conflict check looks. */
export const MAX_INTERVIEW_MINUTES = 480;
export const INTERVIEW_STATUSES = ['scheduled', 'cancelled'] as const;

const instant = (name: string) => z.iso.datetime({ offset: true, error: `${name} must be an RFC 3339 date-time with Z or an offset` });
const zoneError = 'time_zone must be an IANA time zone such as Europe/Berlin';
/** An IANA zone the runtime knows (Intl); an unknown name is refused. */
const timeZone = z.string({ error: zoneError }).check(
  z.maxLength(64, { error: zoneError }),
  z.refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return tz.includes('/') || tz === 'UTC';
      } catch {
        return false;
      }
    },
    { error: zoneError },
  ),
);
const interviewers = z
  .array(uuid('interviewers'))
  .check(
    z.minLength(1, { error: 'interviewers must name at least one member' }),
    z.maxLength(MAX_INTERVIEWERS, { error: `interviewers must name at most ${MAX_INTERVIEWERS} members` }),
  );

export const CreateInterviewBody = z.strictObject({
  /** A step of the interview plan of the candidate's requisition. */
  step_id: uuid('step_id'),
  start: instant('start'),
  end: instant('end'),
  /** Where the interview is thought of: invitations and reminders read the time in it. */
  time_zone: timeZone,
  /** Member ids; left out, the step's default interviewers. */
  interviewers: z.optional(interviewers),
  /** A place or a video link. */
  location: z.optional(text('location', 500)),
  /** Your calendar's id for it: a second call with the same id answers the interview it made. */
  external_event_id: z.optional(text('external_event_id', 200)),
  /** Book the interviewers even where they are already booked. */
  allow_conflicts: z.optional(z.boolean({ error: 'allow_conflicts must be true or false' })),
  /** Send the candidate a calendar invitation too (the interviewers always get one). */
  invite_candidate: z.optional(z.boolean({ error: 'invite_candidate must be true or false' })),
});
export type CreateInterviewBody = z.output<typeof CreateInterviewBody>;

/** A reschedule (start and end together), other interviewers, another place; at least one. */
export const UpdateInterviewBody = z
  .strictObject({
    start: z.optional(instant('start')),
    end: z.optional(instant('end')),
    time_zone: z.optional(timeZone),
    interviewers: z.optional(interviewers),
    location: z.optional(z.nullable(text('location', 500))),
    allow_conflicts: z.optional(z.boolean({ error: 'allow_conflicts must be true or false' })),
  })
  .check(
    z.refine((b) => (b.start === undefined) === (b.end === undefined), { error: 'start and end are changed together' }),
    z.refine((b) => [b.start, b.time_zone, b.interviewers, b.location].some((v) => v !== undefined), {
      error: 'body must change at least one of start and end, time_zone, interviewers, location',
    }),
  );
export type UpdateInterviewBody = z.output<typeof UpdateInterviewBody>;

export const ListInterviewsQuery = z.strictObject({
  /** A member id: their scheduled interviews (an interviewer's own list). */
  interviewer: z.optional(uuid('interviewer')),
  candidate: z.optional(uuid('candidate')),
  requisition: z.optional(uuid('requisition')),
  /** Interviews that start at or after this time. */
  from: z.optional(instant('from')),
  /** Interviews that start before this time. */
  to: z.optional(instant('to')),
  limit: z._default(intParam('limit', 1, 200), 50),
  // An index view's page key has four attributes: longer than the table's lists' cursors.
  cursor: z.optional(z.string({ error: 'cursor must be a string' }).check(z.maxLength(1024, { error: 'cursor is not valid' }))),
});
export type ListInterviewsQuery = z.output<typeof ListInterviewsQuery>;

// ---- answers -----------------------------------------------------------------------------

export const Interview = z.object({
  id: z.uuid(),
  candidate_id: z.uuid(),
  req_id: z.nullable(z.uuid()),
  step_id: z.uuid(),
  /** The step's name when the interview was scheduled. */
  step_name: z.string(),
  start: timestamp,
  end: timestamp,
  time_zone: z.string(),
  interviewers: z.array(z.string()),
  location: z.nullable(z.string()),
  external_event_id: z.nullable(z.string()),
  status: z.enum(INTERVIEW_STATUSES),
  /** Grows with each change: a calendar invitation's SEQUENCE. */
  sequence: z.int(),
  /** Whether the candidate is sent the calendar invitations too. */
  invite_candidate: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Interview = z.infer<typeof Interview>;

export const InterviewList = z.object({ data: z.array(Interview), next_cursor: nextCursor });

// ---- routes ------------------------------------------------------------------------------

const conflict = DOCS
  ? 'An interviewer is already booked then (code conflict, field interviewers[i], existing_id naming the interview; allow_conflicts books anyway)'
  : '';

export const createInterview = {
  method: 'POST',
  path: '/api/v1/candidates/{id}/interviews',
  console: true,
  handler: 'create-interview',
  idempotent: true,
  auth: 'token',
  scope: 'interviews:write',
  access: 'write',
  summary: DOCS && "Schedule an interview for a candidate, on a step of their requisition's interview plan",
  params: IdParam,
  body: CreateInterviewBody,
  ...(DOCS && {
    errors: {
      409: `${conflict}; or the candidate was erased (code candidate_erased); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
  }),
  status: 201,
  ...(DOCS && { alsoStatus: { 200: 'external_event_id names an interview already scheduled: that interview' } }),
  response: dataOf(Interview),
} as const satisfies Route;

export const listInterviews = {
  method: 'GET',
  path: '/api/v1/interviews',
  console: true,
  handler: 'list-interviews',
  auth: 'token',
  scope: 'interviews:read',
  access: 'read',
  summary: DOCS && 'Interviews by start time: an interviewer’s, a candidate’s, a requisition’s, or all, within a time range',
  query: ListInterviewsQuery,
  status: 200,
  response: InterviewList,
} as const satisfies Route;

export const updateInterview = {
  method: 'PATCH',
  path: '/api/v1/interviews/{id}',
  console: true,
  handler: 'update-interview',
  idempotent: true,
  auth: 'token',
  scope: 'interviews:write',
  access: 'write',
  summary: DOCS && 'Reschedule an interview, or change its interviewers or location',
  params: IdParam,
  body: UpdateInterviewBody,
  ...(DOCS && {
    errors: { 409: `${conflict}; or the interview was cancelled (code conflict); or ${IDEM_CONFLICT}`, 422: IDEM_MISMATCH },
  }),
  status: 200,
  response: dataOf(Interview),
} as const satisfies Route;

export const cancelInterview = {
  method: 'DELETE',
  path: '/api/v1/interviews/{id}',
  console: true,
  handler: 'cancel-interview',
  idempotent: true,
  auth: 'token',
  scope: 'interviews:write',
  access: 'write',
  summary: DOCS && 'Cancel an interview (it stays, with status cancelled; a second cancel changes nothing)',
  params: IdParam,
  ...(DOCS && { errors: { 409: IDEM_CONFLICT, 422: IDEM_MISMATCH } }),
  status: 200,
  response: dataOf(Interview),
} as const satisfies Route;
