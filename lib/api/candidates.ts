/**
 * Candidates: their routes (create, change) and the request and answer schemas (lib/api/route.ts
 * says what a line is). A handler imports its own line from here; lib/routes.ts lists every line.
 * Reading candidates is lib/api/candidate-reads.ts and erasing them lib/api/erasure.ts: a schema
 * built at load time stays in every bundle that imports its module, so the write functions, the
 * largest, bundle only the schemas their own routes build.
 */
import * as z from 'zod/mini';
import type * as model from '../model';
import { REJECTION_TYPES } from '../model';
import { candidate } from '../entities/candidate';
import { createBody, responseOf, updateBody } from './entity-schemas';
import { IdParam, dataOf, type Same } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

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

/** What create answers: the candidate as listed, without updated_at. */
export const CreatedCandidate = z.omit(Candidate, { updated_at: true });
export type CreatedCandidate = z.infer<typeof CreatedCandidate>;

// The store builds this shape without the schema; a field added to one side only fails tsc here.
true satisfies Same<Candidate, model.Candidate>;

// ---- routes ------------------------------------------------------------------------------

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
