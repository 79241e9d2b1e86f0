/**
 * The public job board of a workspace, by its careers slug: its listed postings (published, on an
 * open requisition) and one of them. No token or session: these lines sit outside /api/v1, answer
 * CORS for any origin, carry an ETag (If-None-Match answers 304) and may be cached at the edge for
 * a few seconds (lib/domain/boards.ts says how long). An unknown slug answers as a workspace with
 * nothing posted.
 */
import * as z from 'zod/mini';
import { CV_RULES, QUESTION_TYPES, REMOTE_KINDS } from '../entities/posting';
import { JOB_TYPES, PAY_PERIODS } from '../model';
import { dataOf, intParam, nextCursor, timestamp, uuid } from './fields';
import { DOCS, type Route } from './route';

/** A workspace's careers slug, as workspaces are named (lowercase letters, digits and -). */
const slug = z
  .string({ error: 'slug must be a workspace slug' })
  .check(z.regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { error: 'slug must be a workspace slug' }));

export const BoardParams = z.strictObject({ slug });
export const BoardJobParams = z.strictObject({ slug, id: uuid('id') });

const filter = (name: string, max: number) =>
  z.optional(
    z
      .string({ error: `${name} must be a string` })
      .check(z.trim(), z.maxLength(max, { error: `${name} must be at most ${max} characters` })),
  );

export const BoardQuery = z.strictObject({
  /** Words that must all appear in the title, department or location (any case, any accents). */
  q: filter('q', 100),
  /** Part of the location. */
  location: filter('location', 200),
  /** The department, whole (any case). */
  department: filter('department', 200),
  remote: z.optional(z.enum(REMOTE_KINDS, { error: `remote must be one of ${REMOTE_KINDS.join(', ')}` })),
  /** From the previous page's next_cursor. */
  cursor: z.optional(uuid('cursor')),
  limit: z._default(intParam('limit', 1, 100), 20),
});
export type BoardQuery = z.output<typeof BoardQuery>;

const Salary = z.object({ min: z.number(), max: z.number(), currency: z.string(), period: z.enum(PAY_PERIODS) });

/** A job as a board lists it. */
export const BoardJob = z.object({
  id: z.uuid(),
  title: z.string(),
  department: z.nullable(z.string()),
  location: z.nullable(z.string()),
  remote: z.enum(REMOTE_KINDS),
  /** ISO 3166-1 alpha-2 codes remote work is allowed from; [] for anywhere (or not remote). */
  remote_countries: z.array(z.string()),
  employment_type: z.nullable(z.enum(JOB_TYPES)),
  salary: z.nullable(Salary),
  /** When it was first published. */
  published_at: timestamp,
  updated_at: timestamp,
  /** The job's page on the careers site, relative to this API's origin. */
  url: z.string(),
});
export type BoardJob = z.infer<typeof BoardJob>;

/** A question of the application form (the knockout rules on its answers are not public). */
export const BoardQuestion = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  label: z.string(),
  required: z.boolean(),
  options: z.optional(z.array(z.string())),
});

export const BoardJobDetail = z.object({
  ...BoardJob.shape,
  /** Markdown, as written; render it sanitised. */
  description: z.string(),
  questions: z.array(BoardQuestion),
  /** The application's CV: required, optional or off; upload it first (POST …/uploads). */
  cv: z.enum(CV_RULES),
});
export type BoardJobDetail = z.infer<typeof BoardJobDetail>;

/** The job read: the job, and the token its application form carries (lib/domain/form-token.ts). */
export const BoardJobRead = z.object({
  ...BoardJobDetail.shape,
  /**
   * Send it back as the application's `form_token`: good from a few seconds after this read until
   * a day after it, for this job only. The same job read again may carry another.
   */
  form_token: z.string(),
});

export const BoardJobList = z.object({ data: z.array(BoardJob), next_cursor: nextCursor });

// `DOCS ? … : ''` as lib/api/route.ts's shared sentences: bundles fold it to ''.
const NOT_MODIFIED = DOCS ? 'Not Modified: If-None-Match named the current ETag (no body)' : '';

// ---- routes ------------------------------------------------------------------------------

export const listBoardJobs = {
  method: 'GET',
  path: '/api/boards/{slug}/jobs',
  handler: 'list-board-jobs',
  auth: 'none',
  access: 'read',
  etag: true,
  summary: DOCS && "A workspace's published jobs, newest first (public; CORS for any origin)",
  params: BoardParams,
  query: BoardQuery,
  ...(DOCS && { errors: { 304: NOT_MODIFIED } }),
  status: 200,
  response: BoardJobList,
} as const satisfies Route;

export const getBoardJob = {
  method: 'GET',
  path: '/api/boards/{slug}/jobs/{id}',
  handler: 'get-board-job',
  auth: 'none',
  formToken: 'issue',
  access: 'read',
  etag: true,
  summary: DOCS && 'One published job with its description and application questions (public; CORS for any origin)',
  params: BoardJobParams,
  ...(DOCS && { errors: { 304: NOT_MODIFIED, 404: 'No such job on this board: unknown, unpublished, or its requisition is not open' } }),
  status: 200,
  response: dataOf(BoardJobRead),
} as const satisfies Route;
