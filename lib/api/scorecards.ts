/**
 * Scorecards: what one interviewer thought of one interview, written by them (a session, or a
 * token acting for them) and edited until the requisition's decision, every version kept. Who
 * reads which scorecard is the blind rule (lib/domain/scorecard-rules.ts).
 */
import * as z from 'zod/mini';
import { IdParam, dataOf, text, timestamp, uuid } from './fields';
import { DOCS, type Route } from './route';
import { MAX_SCORECARD_ITEMS } from './interview-plans';

export const OVERALLS = ['strong_no', 'no', 'yes', 'strong_yes', 'no_decision'] as const;
export const RATINGS = ['strong_no', 'no', 'yes', 'strong_yes'] as const;
export const ANSWER_MAX = 10_000;
export const NOTE_MAX = 20_000;

export const ScorecardBody = z.strictObject({
  /** The recommendation: one to one with the five values other hiring systems use. */
  overall: z.enum(OVERALLS, { error: `overall must be one of ${OVERALLS.join(', ')}` }),
  /** One rating per attribute of the step's scorecard template, each at most once. */
  ratings: z._default(
    z
      .array(
        z.strictObject({
          attribute: text('attribute', 200),
          rating: z.enum(RATINGS, { error: `rating must be one of ${RATINGS.join(', ')}` }),
        }),
      )
      .check(z.maxLength(MAX_SCORECARD_ITEMS, { error: `ratings must be at most ${MAX_SCORECARD_ITEMS}` })),
    [],
  ),
  /** Answers to the template's questions, each at most once. */
  answers: z._default(
    z
      .array(z.strictObject({ question: text('question', 500), answer: text('answer', ANSWER_MAX) }))
      .check(z.maxLength(MAX_SCORECARD_ITEMS, { error: `answers must be at most ${MAX_SCORECARD_ITEMS}` })),
    [],
  ),
  note: z.optional(z.nullable(text('note', NOTE_MAX))),
  /**
   * The interviewer a workspace token writes for. A session, or a member's own token, writes as
   * that member: leave it out or give their own id.
   */
  interviewer_id: z.optional(uuid('interviewer_id')),
});
export type ScorecardBody = z.output<typeof ScorecardBody>;

export const Scorecard = z.object({
  id: z.string(),
  interview_id: z.uuid(),
  candidate_id: z.uuid(),
  req_id: z.nullable(z.uuid()),
  step_id: z.uuid(),
  interviewer_id: z.uuid(),
  overall: z.enum(OVERALLS),
  ratings: z.array(z.object({ attribute: z.string(), rating: z.enum(RATINGS) })),
  answers: z.array(z.object({ question: z.string(), answer: z.string() })),
  note: z.nullable(z.string()),
  /** 1 for the first submission, one more for each edit; every version is kept. */
  version: z.int(),
  submitted_at: timestamp,
  updated_at: timestamp,
});
export type Scorecard = z.infer<typeof Scorecard>;

export const ScorecardList = z.object({ data: z.array(Scorecard) });

const locked = DOCS
  ? "the requisition's decision is made: the candidate was placed or rejected, or the requisition closed (code scorecard_locked)"
  : '';

/**
 * Not idempotent by key: a stored answer would be a copy of the scorecard's text that erasure does
 * not reach. A retry is a new version with the same content, and every version is kept anyway.
 */
export const submitScorecard = {
  method: 'POST',
  path: '/api/v1/interviews/{id}/scorecards',
  console: true,
  handler: 'submit-scorecard',
  auth: 'token',
  scope: 'scorecards:write',
  access: 'write',
  summary: DOCS && 'Submit your scorecard for an interview you are on, or a new version of it',
  params: IdParam,
  body: ScorecardBody,
  ...(DOCS && {
    errors: {
      403: "The token lacks the scope `scorecards:write` (code missing_scope); the caller (or interviewer_id) is not an interviewer of this interview (code forbidden, field interviewer_id); or, on the console's route, a cross-site request",
      409: `${locked}; or the interview was cancelled (code conflict)`,
    },
  }),
  status: 201,
  ...(DOCS && { alsoStatus: { 200: 'a new version of a scorecard already submitted' } }),
  response: dataOf(Scorecard),
} as const satisfies Route;

export const listInterviewScorecards = {
  method: 'GET',
  path: '/api/v1/interviews/{id}/scorecards',
  console: true,
  handler: 'list-interview-scorecards',
  auth: 'token',
  scope: 'scorecards:read',
  access: 'read',
  summary: DOCS && "An interview's scorecards, latest versions, as far as the blind rule lets the caller see",
  params: IdParam,
  status: 200,
  response: ScorecardList,
} as const satisfies Route;

export const listCandidateScorecards = {
  method: 'GET',
  path: '/api/v1/candidates/{id}/scorecards',
  console: true,
  handler: 'list-candidate-scorecards',
  auth: 'token',
  scope: 'scorecards:read',
  access: 'read',
  summary: DOCS && "A candidate's scorecards, latest versions, as far as the blind rule lets the caller see",
  params: IdParam,
  status: 200,
  response: ScorecardList,
} as const satisfies Route;
