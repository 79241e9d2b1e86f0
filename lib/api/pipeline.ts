/**
 * The pipeline: the stage summary and the stage move.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { REJECTION_NOTE_MAX, STAGES } from '../model';
import { EmptyQuery, dataOf, hasVisible, reasonId, stageEnum, timestamp, uuid } from './fields';
import { DOCS, IDEM_MISMATCH, type Route } from './route';

export const ChangeStageBody = z.strictObject({
  candidate_id: uuid('candidate_id'),
  stage: stageEnum,
  /** The stage the caller believes the candidate is in: a stale belief is a 409, not a move. */
  from_stage: z.optional(z.enum(STAGES, { error: `from_stage must be one of ${STAGES.join(', ')}` })),
  /** Only with stage `rejected`: one of the workspace's rejection reasons (GET /api/settings/pipeline). */
  rejection_reason_id: z.optional(reasonId('rejection_reason_id')),
  /** Only with a rejection_reason_id: why, in the team's words. Personal data: erased with the candidate, never sent in events. */
  rejection_note: z.optional(
    z.string({ error: 'rejection_note must be a string' }).check(
      z.trim(),
      z.minLength(1, { error: 'rejection_note must not be empty' }),
      z.maxLength(REJECTION_NOTE_MAX, { error: `rejection_note must be at most ${REJECTION_NOTE_MAX} characters` }),
      // Line breaks and tabs are welcome in a note; other control characters are not.
      z.refine((s) => /^[^\p{Cc}\p{Cs}]*$/u.test(s.replace(/[\t\n\r]/g, ' ')), {
        error: 'rejection_note must not contain control characters',
      }),
      z.regex(/^[^\u202A-\u202E\u2066-\u2069]*$/, { error: 'rejection_note must not contain bidirectional control characters' }),
      z.refine(hasVisible, { error: 'rejection_note must contain a visible character' }),
    ),
  ),
});
export type ChangeStageBody = z.output<typeof ChangeStageBody>;

export const StageChange = z.object({
  id: z.uuid(),
  name: z.string(),
  stage: z.enum(STAGES),
  updated_at: timestamp,
});
export type StageChange = z.infer<typeof StageChange>;

export const StuckCandidate = z.object({
  id: z.uuid(),
  name: z.string(),
  stage: z.enum(STAGES),
  days_in_stage: z.int(),
  req_title: z.nullable(z.string()),
});
export type StuckCandidate = z.infer<typeof StuckCandidate>;

export const PipelineSummary = z.object({
  // An object with one property per stage (not a record keyed by an enum): its JSON Schema then
  // defines every property it requires.
  stage_counts: z.object(Object.fromEntries(STAGES.map((st) => [st, z.int()])) as Record<(typeof STAGES)[number], z.ZodMiniInt>),
  total_active: z.int(),
  stuck_candidates: z.array(StuckCandidate),
});
export type PipelineSummary = z.infer<typeof PipelineSummary>;

// ---- routes ------------------------------------------------------------------------------

export const getPipeline = {
  method: 'GET',
  path: '/api/v1/pipeline',
  handler: 'get-pipeline',
  auth: 'token',
  scope: 'pipeline:read',
  access: 'read',
  summary: DOCS && 'Stage counts and stuck candidates',
  query: EmptyQuery,
  status: 200,
  response: dataOf(PipelineSummary),
} as const satisfies Route;

export const changeStage = {
  method: 'POST',
  path: '/api/v1/pipeline',
  console: true,
  handler: 'change-stage',
  idempotent: true,
  auth: 'token',
  scope: 'pipeline:write',
  access: 'write',
  summary: DOCS && 'Move a candidate to another stage',
  body: ChangeStageBody,
  ...(DOCS && {
    errors: {
      409: 'The candidate is not in from_stage (the message names its current stage), or is being moved concurrently; try again; or the workspace requires an approved or sent offer before offer_sent (code offer_required); or a request with this Idempotency-Key is still in progress (code idempotency_conflict, Retry-After 1)',
      422: IDEM_MISMATCH,
    },
  }),
  status: 200,
  response: dataOf(StageChange),
} as const satisfies Route;
