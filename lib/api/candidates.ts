/**
 * Candidates: their routes (list, create, read, change, erase) and the request and answer schemas.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import type * as model from '../model';
import { LIST_STAGES, MAX_OFFSET, REJECTION_TYPES, SCRUBBED_KINDS, STAGES } from '../model';
import { candidate } from '../entities/candidate';
import { createBody, responseOf, updateBody } from './entity-schemas';
import { IdParam, dataOf, intParam, timestamp, uuid, type Same } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

export const ListCandidatesQuery = z.strictObject({
  stage: z.optional(z.enum(LIST_STAGES, { error: `stage must be one of ${LIST_STAGES.join(', ')}` })),
  req_id: z.optional(uuid('req_id')),
  /**
   * `true`: only the rejected candidates (beyond the spec, whose stage filter leaves `rejected`
   * out), newest rejection first; with req_id and q as a stage filter is, not with stage.
   */
  rejected: z.optional(z.enum(['true'], { error: 'rejected must be true' })),
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
 * The create and PATCH bodies and the answer are derived from the candidate's declaration
 * (lib/entities/candidate.ts): a field's messages, its place in each shape and its description are
 * written there once. PATCH takes any of the fields, at least one; `null` clears an optional field
 * (and `req_id: null` takes the candidate off its requisition). Stage changes go through POST /pipeline.
 */
export const CreateCandidateBody = createBody(candidate);
export type CreateCandidateBody = z.output<typeof CreateCandidateBody>;
export const UpdateCandidateBody = updateBody(candidate);
export type UpdateCandidateBody = z.output<typeof UpdateCandidateBody>;

/**
 * A candidate as answered. `stage_entered_at`: when it entered its current stage (its creation,
 * until it first moves). `erased_at`, only on an erased candidate: when its personal data was
 * erased; name is then empty and email, phone and resume_url null.
 */
/**
 * `rejection`: why a rejected candidate was rejected, when the move gave a reason (the reason as
 * it read then, and the note, personal data: null once erased); null otherwise, and once the
 * candidate moves out of `rejected`.
 */
export const Rejection = z.object({
  reason_id: z.string(),
  label: z.string(),
  type: z.enum(REJECTION_TYPES),
  note: z.nullable(z.string()),
});
// The note is answered inside `rejection` only (it is in no answer shape: this only drops its type).
const { rejection_note: _note, ...candidateShape } = responseOf(candidate).shape;
export const Candidate = z.object({ ...candidateShape, rejection: z.nullable(Rejection) });
export type Candidate = z.infer<typeof Candidate>;

/**
 * Who made a change: the API token (its id, and its name) or the workspace user (their id, and
 * their email). Records made before names were kept have the id alone.
 */
export const Actor = z.object({
  type: z.enum(['token', 'user']),
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

/** One candidate: the list shape plus its stage history and its moves between jobs. */
export const CandidateDetail = z.object({
  ...Candidate.shape,
  stage_history: z.array(StageStay),
  requisition_history: z.array(RequisitionMove),
});
export type CandidateDetail = z.infer<typeof CandidateDetail>;

/** What create answers: the candidate as listed, without updated_at. */
export const CreatedCandidate = z.omit(Candidate, { updated_at: true });
export type CreatedCandidate = z.infer<typeof CreatedCandidate>;

/** How many stored items of each kind an erasure scrubbed (lib/store/erasure.ts SCRUBBED_KINDS). */
export const ScrubCounts = z.object(
  Object.fromEntries(SCRUBBED_KINDS.map((k) => [k, z.int()])) as Record<(typeof SCRUBBED_KINDS)[number], z.ZodMiniInt>,
);

/** The answer to an erasure; a later call answers it with what its sweep found added to the counts. */
export const ErasureReceipt = z.object({
  id: z.uuid(),
  erased_at: timestamp,
  scrubbed: ScrubCounts,
  /**
   * The candidate's person, erased with it: their id, how many of their candidates the erasure
   * erased (this one included; each has its own receipt) and how many of the person's own items
   * (the person, their email claims, their partition's items) it deleted. Null for a candidate
   * without a person.
   */
  person: z.nullable(
    z.object({
      id: z.uuid(),
      candidates: z.int(),
      items: z.int(),
      /** The person's files whose bytes (every version) and extracted text the erasure deleted. */
      files: z.optional(z.int()),
    }),
  ),
});
export type ErasureReceipt = z.infer<typeof ErasureReceipt>;

export const CandidateList = z.object({
  data: z.array(Candidate),
  count: z.int(),
  offset: z.int(),
  limit: z.int(),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.nullable(z.string()),
});

// The store builds this shape without the schema; a field added to one side only fails tsc here.
true satisfies Same<Candidate, model.Candidate>;

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

export const createCandidate = {
  method: 'POST',
  path: '/api/v1/candidates',
  console: true,
  handler: 'create-candidate',
  idempotent: true,
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  summary: DOCS && 'Create a candidate',
  body: CreateCandidateBody,
  ...(DOCS && { errors: { 409: IDEM_CONFLICT, 422: IDEM_MISMATCH } }),
  status: 201,
  response: dataOf(CreatedCandidate),
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

export const updateCandidate = {
  method: 'PATCH',
  path: '/api/v1/candidates/{id}',
  console: true,
  handler: 'update-candidate',
  idempotent: true,
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  summary: DOCS && "Change a candidate's name, email, phone, resume_url or req_id (stage moves stay on POST /pipeline)",
  params: IdParam,
  body: UpdateCandidateBody,
  ...(DOCS && { errors: { 409: IDEM_CONFLICT, 422: IDEM_MISMATCH } }),
  status: 200,
  response: dataOf(Candidate),
} as const satisfies Route;

export const eraseCandidate = {
  method: 'POST',
  path: '/api/v1/candidates/{id}/erase',
  // In the console, only admins erase.
  console: { role: 'admin' },
  handler: 'erase-candidate',
  auth: 'token',
  scope: 'candidates:erase',
  access: 'write',
  // Erasing the person deletes their files' objects.
  files: ['delete'],
  summary: "Erase a candidate's personal data everywhere; answers a receipt",
  params: IdParam,
  status: 200,
  response: dataOf(ErasureReceipt),
  timeoutSeconds: 28,
} as const satisfies Route;
