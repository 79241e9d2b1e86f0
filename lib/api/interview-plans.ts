/**
 * A requisition's interview plan: its ordered steps (name, stage, duration, default interviewers,
 * the kit in Markdown and the scorecard template), read and replaced as one document. The rules
 * (stable step ids, the interviewers as active members, the copy) are lib/domain's
 * (interview-plan-rules.ts).
 */
import * as z from 'zod/mini';
import { ACTIVE_STAGES } from '../model';
import { IdParam, dataOf, plainText, text, timestamp, uuid } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

export const MAX_PLAN_STEPS = 20;
export const MAX_STEP_INTERVIEWERS = 10;
export const MAX_SCORECARD_ITEMS = 30;
export const KIT_MAX = 20_000;
export const DURATION_MIN = 5;
export const DURATION_MAX = 480;
/** The stages a step may belong to: those a candidate still moves through. */
export const PLAN_STAGES = ACTIVE_STAGES as [string, ...string[]];

const durationError = `duration_minutes must be an integer between ${DURATION_MIN} and ${DURATION_MAX}`;

/** Markdown: lines, tabs and any visible text; no other control characters. */
const markdown = (name: string, max: number) =>
  z.string({ error: `${name} must be a string` }).check(
    z.maxLength(max, { error: `${name} must be at most ${max} characters` }),
    z.refine((s) => !/[\p{Cc}\p{Cs}]/u.test(s.replace(/[\t\n\r]/g, '')), {
      error: `${name} must not contain control characters other than line breaks and tabs`,
    }),
    ...plainText(name).slice(1),
  );

export const ScorecardTemplate = z.strictObject({
  /** Each rated strong_no, no, yes or strong_yes on a scorecard. */
  attributes: z._default(
    z
      .array(z.strictObject({ name: text('name', 100) }))
      .check(z.maxLength(MAX_SCORECARD_ITEMS, { error: `attributes must be at most ${MAX_SCORECARD_ITEMS}` })),
    [],
  ),
  /** Free questions the interviewer answers in words. */
  questions: z._default(
    z.array(text('question', 500)).check(z.maxLength(MAX_SCORECARD_ITEMS, { error: `questions must be at most ${MAX_SCORECARD_ITEMS}` })),
    [],
  ),
});

export const PlanStepBody = z.strictObject({
  /** A step of the plan as it is, to keep its id; left out for a new step. */
  id: z.optional(uuid('id')),
  name: text('name', 200),
  stage: z.enum(PLAN_STAGES, { error: `stage must be one of ${PLAN_STAGES.join(', ')}` }),
  duration_minutes: z
    .int({ error: durationError })
    .check(z.gte(DURATION_MIN, { error: durationError }), z.lte(DURATION_MAX, { error: durationError })),
  /** Default interviewers, by member id: the schedule form starts from them. */
  interviewers: z._default(
    z
      .array(uuid('interviewers'))
      .check(z.maxLength(MAX_STEP_INTERVIEWERS, { error: `interviewers must name at most ${MAX_STEP_INTERVIEWERS} members` })),
    [],
  ),
  /** Preparation notes and questions for the interviewers, in Markdown. */
  kit: z._default(markdown('kit', KIT_MAX), ''),
  scorecard: z._default(ScorecardTemplate, { attributes: [], questions: [] }),
});
export type PlanStepBody = z.output<typeof PlanStepBody>;

/** The whole plan (`steps`), or `copy_from`: the id of a requisition whose plan this one takes, with new step ids. */
export const PutInterviewPlanBody = z
  .strictObject({
    steps: z.optional(z.array(PlanStepBody).check(z.maxLength(MAX_PLAN_STEPS, { error: `steps must be at most ${MAX_PLAN_STEPS}` }))),
    copy_from: z.optional(uuid('copy_from')),
  })
  .check(
    z.refine((b) => (b.steps === undefined) !== (b.copy_from === undefined), {
      error: 'body must hold exactly one of steps, copy_from',
    }),
  );
export type PutInterviewPlanBody = z.output<typeof PutInterviewPlanBody>;

// ---- answers -----------------------------------------------------------------------------

export const PlanStep = z.object({
  id: z.uuid(),
  name: z.string(),
  stage: z.string(),
  duration_minutes: z.int(),
  interviewers: z.array(z.string()),
  kit: z.string(),
  scorecard: z.object({ attributes: z.array(z.object({ name: z.string() })), questions: z.array(z.string()) }),
});
export type PlanStep = z.infer<typeof PlanStep>;

export const InterviewPlan = z.object({
  requisition_id: z.uuid(),
  steps: z.array(PlanStep),
  /** Counts the plan's changes, from 0 for a requisition that never had one. */
  version: z.int(),
  /** Null until the plan is first written. */
  updated_at: z.nullable(timestamp),
});
export type InterviewPlan = z.infer<typeof InterviewPlan>;

// ---- routes ------------------------------------------------------------------------------

export const getInterviewPlan = {
  method: 'GET',
  path: '/api/v1/requisitions/{id}/interview-plan',
  console: true,
  handler: 'get-interview-plan',
  auth: 'token',
  scope: 'requisitions:read',
  access: 'read',
  summary: DOCS && "A requisition's interview plan (no steps until one is written)",
  params: IdParam,
  status: 200,
  response: dataOf(InterviewPlan),
} as const satisfies Route;

export const putInterviewPlan = {
  method: 'PUT',
  path: '/api/v1/requisitions/{id}/interview-plan',
  console: true,
  handler: 'put-interview-plan',
  idempotent: true,
  auth: 'token',
  scope: 'requisitions:write',
  access: 'write',
  summary: DOCS && "Replace a requisition's interview plan, or copy another requisition's",
  params: IdParam,
  body: PutInterviewPlanBody,
  ...(DOCS && {
    errors: {
      404: 'No such requisition; or copy_from names none (field copy_from)',
      409: IDEM_CONFLICT,
      422: IDEM_MISMATCH,
    },
  }),
  status: 200,
  response: dataOf(InterviewPlan),
} as const satisfies Route;
