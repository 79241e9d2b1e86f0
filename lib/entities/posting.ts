/**
 * A requisition's posting: the job ad the public board and the careers page show, its screening
 * questions and the knockout rules on their answers (lib/domain/screening-rules.ts), and what a
 * screening result does. One item per requisition, in the requisition's partition
 * (lib/store/postings.ts). It holds no personal data: a salary range is the job's, not a person's.
 *
 * The scalar fields are declared (codec, audit diff); the lists (countries, questions, rules) and
 * the two nested objects have no field kind, so their shapes are written here and read back by
 * `postingFromItem`, which names the attribute (never the value) of a corrupt item.
 */
import { defineEntity, field, fromItem, type RecordOf } from '../entity';
import { CorruptItemError, type Item } from '../item';
import { JOB_TYPES, PAY_PERIODS, type JobType, type PayPeriod } from '../model';

export const REMOTE_KINDS = ['no', 'hybrid', 'remote'] as const;
export type RemoteKind = (typeof REMOTE_KINDS)[number];

export const QUESTION_TYPES = ['yes_no', 'single_choice', 'multi_choice', 'number', 'short_text', 'long_text'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/**
 * A knockout rule's comparison: the applicant fails the rule when their answer compares so with
 * the rule's value. `includes` / `excludes`: a multi_choice answer holds (or lacks) the option.
 */
export const RULE_OPS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'includes', 'excludes'] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/** The ops each question type takes; free text takes none (a knockout on wording is arbitrary). */
export const OPS_BY_TYPE: Record<QuestionType, readonly RuleOp[]> = {
  yes_no: ['eq', 'neq'],
  single_choice: ['eq', 'neq'],
  multi_choice: ['includes', 'excludes'],
  number: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte'],
  short_text: [],
  long_text: [],
};

export const ON_PASS = ['move_to_ai_screened', 'stay'] as const;
export const ON_FAIL = ['reject_after_delay', 'flag'] as const;
export type OnPass = (typeof ON_PASS)[number];
export type OnFail = (typeof ON_FAIL)[number];
export const DEFAULT_REJECT_DELAY_HOURS = 24;

/**
 * The application's CV: `required`, `optional` or `off` (no CV asked for). A posting written
 * before the rule existed reads as `optional`, which asks for nothing an application sent before.
 */
export const CV_RULES = ['required', 'optional', 'off'] as const;
export type CvRule = (typeof CV_RULES)[number];
export const DEFAULT_CV_RULE: CvRule = 'optional';
export const MAX_REJECT_DELAY_HOURS = 720;

export const POSTING_LIMITS = {
  description: 20_000,
  questions: 30,
  options: 50,
  label: 300,
  option: 200,
  rules: 30,
  countries: 60,
  shortText: 300,
  longText: 5_000,
} as const;

export interface Question {
  /** Chosen by the author, stable across edits: answers and rules name the question by it. */
  id: string;
  type: QuestionType;
  label: string;
  required: boolean;
  /** single_choice and multi_choice only: the choices, in the order shown. */
  options?: string[];
}

export interface KnockoutRule {
  question_id: string;
  op: RuleOp;
  /** yes_no: a boolean; number: a number; single_choice and multi_choice: one of the options. */
  value: boolean | number | string;
  /** The rule in the recruiter's plain words; the reason a failed screening shows. */
  label?: string;
}

export interface Salary {
  min: number;
  max: number;
  /** ISO 4217. */
  currency: string;
  period: PayPeriod;
}

export interface ScreeningOutcome {
  on_pass: OnPass;
  on_fail: OnFail;
  /** reject_after_delay: hours between the screening and the rejection, for a person to review. */
  reject_delay_hours: number;
}

export const DEFAULT_OUTCOME: ScreeningOutcome = { on_pass: 'stay', on_fail: 'flag', reject_delay_hours: DEFAULT_REJECT_DELAY_HOURS };

export const posting = defineEntity('posting', {
  req_id: field.uuid({ audit: 'none' }),
  published: field.bool(),
  description: field.string(),
  /** Where the job is; the requisition's location when absent. */
  location: field.string({ optional: true }),
  remote: field.oneOf(REMOTE_KINDS),
  employment_type: field.oneOf(JOB_TYPES, { optional: true }),
  salary_min: field.int({ optional: true }),
  salary_max: field.int({ optional: true }),
  salary_currency: field.string({ optional: true }),
  salary_period: field.oneOf(PAY_PERIODS, { optional: true }),
  on_pass: field.oneOf(ON_PASS),
  on_fail: field.oneOf(ON_FAIL),
  reject_delay_hours: field.int(),
  cv: field.oneOf(CV_RULES, { optional: true }),
  version: field.int({ audit: 'none' }),
  /** When it was first published; kept through unpublishing (JobPosting datePosted). */
  published_at: field.time({ optional: true, audit: 'none' }),
  created_at: field.time({ audit: 'none' }),
  updated_at: field.time({ audit: 'none' }),
});

/** The attributes that hold lists, audited by name (their values can be long). */
export const POSTING_LIST_FIELDS = ['remote_countries', 'questions', 'rules'] as const;

/** A posting as the domain and the answers use it. */
export interface Posting {
  req_id: string;
  published: boolean;
  description: string;
  location: string | null;
  remote: RemoteKind;
  /** ISO 3166-1 alpha-2 codes of the countries remote work is allowed from; [] for anywhere or not remote. */
  remote_countries: string[];
  salary: Salary | null;
  employment_type: JobType | null;
  questions: Question[];
  rules: KnockoutRule[];
  outcome: ScreeningOutcome;
  cv: CvRule;
  version: number;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

type PostingScalars = RecordOf<typeof posting.fields>;

const list = <T>(item: Item, name: string, check: (v: unknown) => boolean): T[] => {
  const v = item[name];
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every(check)) throw new CorruptItemError('posting', name);
  return v as T[];
};
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isQuestion = (v: unknown) =>
  isObj(v) &&
  typeof v.id === 'string' &&
  (QUESTION_TYPES as readonly unknown[]).includes(v.type) &&
  typeof v.label === 'string' &&
  typeof v.required === 'boolean' &&
  (v.options === undefined || (Array.isArray(v.options) && v.options.every((o) => typeof o === 'string')));
const isRule = (v: unknown) =>
  isObj(v) &&
  typeof v.question_id === 'string' &&
  (RULE_OPS as readonly unknown[]).includes(v.op) &&
  ['boolean', 'number', 'string'].includes(typeof v.value) &&
  (v.label === undefined || typeof v.label === 'string');

/** The stored posting item as the domain object. */
export function postingFromItem(item: Item): Posting {
  const s: PostingScalars = fromItem(posting, item);
  const salary =
    s.salary_min !== null && s.salary_max !== null && s.salary_currency !== null && s.salary_period !== null
      ? { min: s.salary_min, max: s.salary_max, currency: s.salary_currency, period: s.salary_period }
      : null;
  return {
    req_id: s.req_id,
    published: s.published,
    description: s.description,
    location: s.location,
    remote: s.remote,
    remote_countries: list<string>(item, 'remote_countries', (c) => typeof c === 'string'),
    salary,
    employment_type: s.employment_type,
    questions: list<Question>(item, 'questions', isQuestion),
    rules: list<KnockoutRule>(item, 'rules', isRule),
    outcome: { on_pass: s.on_pass, on_fail: s.on_fail, reject_delay_hours: s.reject_delay_hours },
    cv: s.cv ?? DEFAULT_CV_RULE,
    version: s.version,
    published_at: s.published_at,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** A posting's stored attributes (the store adds keys, type and the requisition's copies). */
export function postingAttributes(p: Posting): Item {
  return {
    req_id: p.req_id,
    published: p.published,
    description: p.description,
    ...(p.location !== null && { location: p.location }),
    remote: p.remote,
    remote_countries: p.remote_countries,
    ...(p.employment_type !== null && { employment_type: p.employment_type }),
    ...(p.salary && {
      salary_min: p.salary.min,
      salary_max: p.salary.max,
      salary_currency: p.salary.currency,
      salary_period: p.salary.period,
    }),
    questions: p.questions,
    rules: p.rules,
    on_pass: p.outcome.on_pass,
    on_fail: p.outcome.on_fail,
    reject_delay_hours: p.outcome.reject_delay_hours,
    cv: p.cv,
    version: p.version,
    ...(p.published_at !== null && { published_at: p.published_at }),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}
