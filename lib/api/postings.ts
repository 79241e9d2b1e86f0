/**
 * A requisition's posting (the job ad, its screening questions and knockout rules): its routes and
 * schemas. The rules across fields (a rule names one of the questions, its op fits the question's
 * type, the salary's range) are lib/domain/posting-rules.ts'; the stored shape is
 * lib/entities/posting.ts'.
 */
import * as z from 'zod/mini';
import {
  CV_RULES,
  DEFAULT_CV_RULE,
  DEFAULT_REJECT_DELAY_HOURS,
  MAX_REJECT_DELAY_HOURS,
  ON_FAIL,
  ON_PASS,
  POSTING_LIMITS,
  QUESTION_TYPES,
  REMOTE_KINDS,
  RULE_OPS,
} from '../entities/posting';
import { JOB_TYPES, PAY_PERIODS } from '../model';
import { IdParam, dataOf, hasVisible, text, timestamp } from './fields';
import { DOCS, type Route } from './route';

const SALARY_MAX = 1_000_000_000;
// ISO 4217 codes the runtime knows (Node's Intl); a code it does not know is refused.
let currencies: Set<string> | undefined;
const isCurrency = (c: string) => (currencies ??= new Set(Intl.supportedValuesOf('currency'))).has(c);

/** Markdown: line breaks and tabs allowed, other control characters and bidi overrides not. */
const markdown = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .check(
      z.trim(),
      z.minLength(1, { error: `${name} must not be empty` }),
      z.maxLength(max, { error: `${name} must be at most ${max} characters` }),
      z.regex(/^(?:[^\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]|[\n\r\t])*$/u, { error: `${name} must not contain control characters` }),
      z.refine(hasVisible, { error: `${name} must contain a visible character` }),
    );

const amount = (name: string) => {
  const error = `${name} must be a number from 0 to ${SALARY_MAX}, with at most 2 decimals`;
  return z.number({ error }).check(
    z.gte(0, { error }),
    z.lte(SALARY_MAX, { error }),
    z.refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error }),
  );
};

export const Salary = z.strictObject({
  min: amount('salary.min'),
  max: amount('salary.max'),
  currency: z
    .string({ error: 'salary.currency must be an ISO 4217 code such as EUR' })
    .check(z.refine((c) => /^[A-Z]{3}$/.test(c) && isCurrency(c), { error: 'salary.currency must be an ISO 4217 code such as EUR' })),
  period: z.enum(PAY_PERIODS, { error: `salary.period must be one of ${PAY_PERIODS.join(', ')}` }),
});

const questionId = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .check(z.regex(/^[a-z][a-z0-9_]{0,39}$/, { error: `${name} must be 1 to 40 lowercase letters, digits or _, starting with a letter` }));

export const Question = z.strictObject({
  /** Chosen by the author and kept across edits: answers and rules name the question by it. */
  id: questionId('questions.id'),
  type: z.enum(QUESTION_TYPES, { error: `questions.type must be one of ${QUESTION_TYPES.join(', ')}` }),
  label: text('questions.label', POSTING_LIMITS.label),
  required: z._default(z.boolean({ error: 'questions.required must be true or false' }), false),
  /** single_choice and multi_choice: 2 to 50 distinct choices. */
  options: z.optional(
    z
      .array(text('questions.options', POSTING_LIMITS.option), { error: 'questions.options must be an array of strings' })
      .check(z.maxLength(POSTING_LIMITS.options, { error: `questions.options must hold at most ${POSTING_LIMITS.options} choices` })),
  ),
});

export const KnockoutRule = z.strictObject({
  /** The id of one of this posting's questions: a rule reads nothing else. */
  question_id: z
    .string({ error: 'rules.question_id must be a string' })
    .check(z.maxLength(64, { error: 'rules.question_id is not valid' })),
  /** The applicant fails the rule when their answer compares so with `value`. */
  op: z.enum(RULE_OPS, { error: `rules.op must be one of ${RULE_OPS.join(', ')}` }),
  value: z.union([z.boolean(), z.number(), z.string().check(z.maxLength(POSTING_LIMITS.option))], {
    error: 'rules.value must be a boolean, a number or one of the options',
  }),
  /** The rule in plain words, shown as the reason when it fails. */
  label: z.optional(text('rules.label', POSTING_LIMITS.label)),
});

export const ScreeningOutcome = z.strictObject({
  on_pass: z._default(z.enum(ON_PASS, { error: `outcome.on_pass must be one of ${ON_PASS.join(', ')}` }), 'stay'),
  on_fail: z._default(z.enum(ON_FAIL, { error: `outcome.on_fail must be one of ${ON_FAIL.join(', ')}` }), 'flag'),
  reject_delay_hours: z._default(
    z
      .int({ error: `outcome.reject_delay_hours must be a whole number from 0 to ${MAX_REJECT_DELAY_HOURS}` })
      .check(
        z.gte(0, { error: `outcome.reject_delay_hours must be a whole number from 0 to ${MAX_REJECT_DELAY_HOURS}` }),
        z.lte(MAX_REJECT_DELAY_HOURS, { error: `outcome.reject_delay_hours must be a whole number from 0 to ${MAX_REJECT_DELAY_HOURS}` }),
      ),
    DEFAULT_REJECT_DELAY_HOURS,
  ),
});

const country = z
  .string({ error: 'remote_countries must be ISO 3166-1 alpha-2 codes such as DE' })
  .check(z.regex(/^[A-Z]{2}$/, { error: 'remote_countries must be ISO 3166-1 alpha-2 codes such as DE' }));

/** The whole posting: a PUT replaces it. */
export const PutPostingBody = z.strictObject({
  /** Public on the board and the careers page while the requisition is open. */
  published: z.boolean({ error: 'published must be true or false' }),
  /** Markdown; sanitised when rendered. */
  description: markdown('description', POSTING_LIMITS.description),
  /** Where the job is; the requisition's location when absent. */
  location: z.optional(z.nullable(text('location', 200))),
  remote: z._default(z.enum(REMOTE_KINDS, { error: `remote must be one of ${REMOTE_KINDS.join(', ')}` }), 'no'),
  /** hybrid or remote: where remote work is allowed from; [] for anywhere. */
  remote_countries: z._default(
    z
      .array(country, { error: 'remote_countries must be an array of ISO 3166-1 alpha-2 codes' })
      .check(z.maxLength(POSTING_LIMITS.countries, { error: `remote_countries must hold at most ${POSTING_LIMITS.countries} codes` })),
    [],
  ),
  /** The pay range; pay-transparency laws require it in many places. */
  salary: z.optional(z.nullable(Salary)),
  /** The requisition's job_type when absent. */
  employment_type: z.optional(z.nullable(z.enum(JOB_TYPES, { error: `employment_type must be one of ${JOB_TYPES.join(', ')}` }))),
  questions: z._default(
    z
      .array(Question, { error: 'questions must be an array' })
      .check(z.maxLength(POSTING_LIMITS.questions, { error: `questions must hold at most ${POSTING_LIMITS.questions} questions` })),
    [],
  ),
  /** Knockout rules on the answers to the questions. */
  rules: z._default(
    z
      .array(KnockoutRule, { error: 'rules must be an array' })
      .check(z.maxLength(POSTING_LIMITS.rules, { error: `rules must hold at most ${POSTING_LIMITS.rules} rules` })),
    [],
  ),
  /** What a screening result does. */
  outcome: z._default(ScreeningOutcome, { on_pass: 'stay', on_fail: 'flag', reject_delay_hours: DEFAULT_REJECT_DELAY_HOURS }),
  /** The application's CV: required, optional (default) or off. */
  cv: z._default(z.enum(CV_RULES, { error: `cv must be one of ${CV_RULES.join(', ')}` }), DEFAULT_CV_RULE),
});
export type PutPostingBody = z.output<typeof PutPostingBody>;

const QuestionAnswer = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  label: z.string(),
  required: z.boolean(),
  options: z.optional(z.array(z.string())),
});
const RuleAnswer = z.object({
  question_id: z.string(),
  op: z.enum(RULE_OPS),
  value: z.union([z.boolean(), z.number(), z.string()]),
  label: z.optional(z.string()),
});

export const PostingAnswer = z.object({
  req_id: z.uuid(),
  published: z.boolean(),
  /** Shown on the public board now: published and the requisition open. */
  listed: z.boolean(),
  description: z.string(),
  location: z.nullable(z.string()),
  remote: z.enum(REMOTE_KINDS),
  remote_countries: z.array(z.string()),
  salary: z.nullable(z.object({ min: z.number(), max: z.number(), currency: z.string(), period: z.enum(PAY_PERIODS) })),
  employment_type: z.nullable(z.enum(JOB_TYPES)),
  questions: z.array(QuestionAnswer),
  rules: z.array(RuleAnswer),
  outcome: z.object({ on_pass: z.enum(ON_PASS), on_fail: z.enum(ON_FAIL), reject_delay_hours: z.int() }),
  cv: z.enum(CV_RULES),
  version: z.int(),
  /** When it was first published (kept through unpublishing). */
  published_at: z.nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
});
export type PostingAnswer = z.infer<typeof PostingAnswer>;

// ---- routes ------------------------------------------------------------------------------

export const getPosting = {
  method: 'GET',
  path: '/api/v1/requisitions/{id}/posting',
  console: true,
  handler: 'get-posting',
  auth: 'token',
  scope: 'requisitions:read',
  access: 'read',
  etag: true,
  summary: DOCS && "A requisition's posting: the job ad, its screening questions and knockout rules",
  params: IdParam,
  ...(DOCS && { errors: { 404: 'No such requisition, or it has no posting yet' } }),
  status: 200,
  response: dataOf(PostingAnswer),
} as const satisfies Route;

export const putPosting = {
  method: 'PUT',
  path: '/api/v1/requisitions/{id}/posting',
  console: true,
  handler: 'put-posting',
  auth: 'token',
  scope: 'requisitions:write',
  access: 'write',
  etag: true,
  summary: DOCS && "Write a requisition's posting (the whole of it); public while published and the requisition is open",
  params: IdParam,
  body: PutPostingBody,
  ...(DOCS && { errors: { 409: 'Too many concurrent writes to the requisition; try again' } }),
  status: 200,
  response: dataOf(PostingAnswer),
} as const satisfies Route;
