/**
 * Reading candidates: the list and the one-candidate routes, their query and answer schemas.
 * Apart from lib/api/candidates.ts so that the write functions do not bundle them (a schema
 * built at load time stays in every bundle that imports its module).
 */
import * as z from 'zod/mini';
import { LIST_STAGES, MAX_OFFSET, REJECTION_TYPES, STAGES } from '../model';
import { Candidate } from './candidates';
import { ApplicationAnswer, Screening } from './screening';
import { IdParam, dataOf, intParam, timestamp, uuid } from './fields';
import { DOCS, type Route } from './route';

export const ListCandidatesQuery = z.strictObject({
  stage: z.optional(z.enum(LIST_STAGES, { error: `stage must be one of ${LIST_STAGES.join(', ')}` })),
  req_id: z.optional(uuid('req_id')),
  /**
   * `true`: only the rejected candidates (beyond the spec, whose stage filter leaves `rejected`
   * out), newest rejection first; with req_id and q as a stage filter is, not with stage.
   */
  rejected: z.optional(z.enum(['true'], { error: 'rejected must be true' })),
  /**
   * Only the candidates from this source: `careers`, a careers link's own `src`, `api`, `console`
   * or `import`. With stage, req_id or rejected, not with q or updated_after; pages with cursor,
   * and `count` is then the page's length. A page reads at most 1,000 candidates, so it may hold
   * fewer than `limit` (even none) and still carry a next_cursor.
   */
  source: z.optional(
    z
      .string({ error: 'source must be a string' })
      .check(z.regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, { error: 'source must be 1 to 40 lowercase letters, digits, _ or -' })),
  ),
  limit: z._default(intParam('limit', 1, 200), 50),
  offset: z._default(intParam('offset', 0, MAX_OFFSET), 0),
  /** Opaque: the `next_cursor` of the previous page, with the same filters. */
  cursor: z.optional(
    z
      .string({ error: 'cursor must be a string' })
      .check(z.minLength(1, { error: 'cursor must not be empty' }), z.maxLength(2048, { error: 'cursor must be at most 2048 characters' })),
  ),
  /**
   * Search: candidates with a word of the name, or the email, starting with each word of `q`
   * (case and accents ignored), in matched word then id order. Pages with cursor, not offset;
   * not with updated_after. `count` is then the page's length.
   */
  q: z.optional(
    z.string({ error: 'q must be a string' }).check(
      z.trim(),
      z.minLength(1, { error: 'q must not be empty' }),
      z.maxLength(100, { error: 'q must be at most 100 characters' }),
      z.refine((s) => /[\p{L}\p{N}]/u.test(s), { error: 'q must contain a letter or a digit' }),
    ),
  ),
  /**
   * ISO 8601 date-time with Z or an offset: only candidates created or changed at or after it,
   * oldest change first (a sync feed). Not with stage, req_id or offset; page with cursor.
   */
  updated_after: z.optional(
    z.iso.datetime({
      offset: true,
      error: 'updated_after must be an ISO 8601 date-time with Z or an offset, such as 2026-01-31T09:00:00Z',
    }),
  ),
});
export type ListCandidatesQuery = z.output<typeof ListCandidatesQuery>;

/**
 * Who made a change: the API token (its id, and its name), the workspace user (their id, and
 * their email), or `system`: the service deciding by the workspace's rule (`id` names the rule's
 * kind, e.g. `screening`). Records made before names were kept have the id alone.
 */
export const Actor = z.object({
  type: z.enum(['token', 'user', 'system']),
  id: z.string(),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
});
export type Actor = z.infer<typeof Actor>;

/**
 * One stay in a stage, oldest first (like Greenhouse v3 `application_stages`). The first stay
 * starts when the candidate was created; `actor` and `from_stage` are null for it.
 */
export const StageStay = z.object({
  stage: z.enum(STAGES),
  from_stage: z.nullable(z.enum(STAGES)),
  entered_at: timestamp,
  /** Null for the current stage. */
  exited_at: z.nullable(timestamp),
  actor: z.nullable(Actor),
  /**
   * Only on a stay in `rejected` whose move gave a reason: the reason as it read then. Never the
   * note (personal data, kept on the candidate alone).
   */
  rejection_reason: z.optional(z.object({ id: z.string(), label: z.string(), type: z.enum(REJECTION_TYPES) })),
});
export type StageStay = z.infer<typeof StageStay>;

/** A move to another job (a PATCH of `req_id`): from which requisition to which, when and by whom. Oldest first. */
export const RequisitionMove = z.object({
  kind: z.enum(['transferred']),
  from_req_id: z.nullable(z.uuid()),
  from_req_title: z.nullable(z.string()),
  to_req_id: z.nullable(z.uuid()),
  to_req_title: z.nullable(z.string()),
  at: timestamp,
  actor: z.nullable(Actor),
});
export type RequisitionMove = z.infer<typeof RequisitionMove>;

/**
 * A candidate's interviews and scorecards as counts (the requisition board's "2 of 3
 * scorecards"): `interviews` not cancelled, `scorecards_expected` (one per interviewer on each of
 * them) and `scorecards` submitted by those interviewers; an edit does not count again. Counts
 * only, never a recommendation: the blind rule is about what a scorecard says. Zero for a
 * candidate without interviews, and for interviews scheduled before the counts were kept.
 */
export const InterviewProgress = z.object({
  interviews: z.int(),
  scorecards_expected: z.int(),
  scorecards: z.int(),
});
export type InterviewProgress = z.infer<typeof InterviewProgress>;

/** A candidate as the list and the one-candidate read answer it: with its interview progress. */
export const ListedCandidate = z.object({ ...Candidate.shape, interview_progress: InterviewProgress });
export type ListedCandidate = z.infer<typeof ListedCandidate>;

/** One candidate: the list shape plus its stage history, its moves between jobs and its screening. */
export const CandidateDetail = z.object({
  ...ListedCandidate.shape,
  stage_history: z.array(StageStay),
  requisition_history: z.array(RequisitionMove),
  /** An application's screening (lib/api/screening.ts); null for any other candidate, and for an interviewer. */
  screening: z.nullable(Screening),
  /** An application's answers and consent (lib/api/screening.ts); null for any other candidate, once erased, and for an interviewer. */
  application: z.nullable(ApplicationAnswer),
});
export type CandidateDetail = z.infer<typeof CandidateDetail>;

export const CandidateList = z.object({
  data: z.array(ListedCandidate),
  count: z.int(),
  offset: z.int(),
  limit: z.int(),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.nullable(z.string()),
});

// ---- routes ------------------------------------------------------------------------------

export const listCandidates = {
  method: 'GET',
  path: '/api/v1/candidates',
  console: true,
  handler: 'list-candidates',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  leases: true,
  summary: DOCS && 'List candidates, newest first; with updated_after, those changed since then, oldest change first',
  query: ListCandidatesQuery,
  status: 200,
  response: CandidateList,
} as const satisfies Route;

export const getCandidate = {
  method: 'GET',
  path: '/api/v1/candidates/{id}',
  console: true,
  handler: 'get-candidate',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && 'One candidate with its stage history (oldest stay first)',
  params: IdParam,
  status: 200,
  response: dataOf(CandidateDetail),
} as const satisfies Route;
