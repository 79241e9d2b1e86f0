/**
 * Screening as pure rules, read by the application path and the screening run: the answers an
 * applicant sent checked against the posting's questions (`validateAnswers`), and the knockout
 * rules judged on valid answers (`screen`), each failure with a reason in plain words so the
 * recruiter reads why. What a result then does (`screeningAction`) is the posting's choice.
 *
 * A rule reads answers to the posting's own questions and nothing else: never the applicant's
 * name, email, phone, age, gender or photo (lib/domain/posting-rules.ts refuses such a rule).
 */
import { POSTING_LIMITS, type KnockoutRule, type Posting, type Question, type RuleOp, type ScreeningOutcome } from '../entities/posting';

/** A valid answer: yes_no a boolean, number a number, single_choice and text a string, multi_choice a list of options. */
export type Answer = boolean | number | string | string[];
export type Answers = Record<string, Answer>;

export interface AnswerFailure {
  /** `answers.<question id>`, or `answers` for the whole. */
  field: string;
  code: 'required' | 'invalid_answer' | 'unknown_question';
  error: string;
}

const field = (id: string) => `answers.${id}`;
// Free text: no control characters but line breaks and tabs in long answers, no bidi overrides.
const CONTROL = /[\p{Cs}\u202A-\u202E\u2066-\u2069]|[^\P{Cc}\n\t]/u;
const SHORT_CONTROL = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

const isEmpty = (a: unknown) =>
  a === undefined || a === null || (typeof a === 'string' && a.trim() === '') || (Array.isArray(a) && !a.length);

/** One answer against its question: the normalized answer, or why it is not one. */
function checkAnswer(q: Question, a: unknown): { value: Answer } | { error: string } {
  const options = q.options ?? [];
  switch (q.type) {
    case 'yes_no':
      return typeof a === 'boolean' ? { value: a } : { error: 'must be true (yes) or false (no)' };
    case 'number':
      return typeof a === 'number' && Number.isFinite(a) ? { value: a } : { error: 'must be a number' };
    case 'single_choice':
      return typeof a === 'string' && options.includes(a) ? { value: a } : { error: 'must be one of the options' };
    case 'multi_choice': {
      if (!Array.isArray(a) || !a.every((o) => typeof o === 'string' && options.includes(o))) {
        return { error: 'must be a list of the options' };
      }
      if (new Set(a).size !== a.length) return { error: 'must not name an option twice' };
      return { value: a as string[] };
    }
    case 'short_text':
    case 'long_text': {
      const max = q.type === 'short_text' ? POSTING_LIMITS.shortText : POSTING_LIMITS.longText;
      if (typeof a !== 'string') return { error: 'must be text' };
      // A browser's form post sends a textarea's line breaks as CRLF.
      const t = a.replace(/\r\n?/g, '\n').trim();
      if (t.length > max) return { error: `must be at most ${max} characters` };
      if ((q.type === 'short_text' ? SHORT_CONTROL : CONTROL).test(t)) return { error: 'must not contain control characters' };
      return { value: t };
    }
  }
}

/**
 * The answers checked against the posting's questions: every required question answered, each
 * answer of its question's type (and among its options), no answer to a question the posting
 * does not ask. It answers the normalized answers (text trimmed, empty optional answers left
 * out) and every failure, each naming its field; none means valid.
 */
export function validateAnswers(posting: Pick<Posting, 'questions'>, answers: unknown): { answers: Answers; failures: AnswerFailure[] } {
  const out: Answers = {};
  if (answers === undefined || answers === null) answers = {};
  if (typeof answers !== 'object' || Array.isArray(answers)) {
    return {
      answers: out,
      failures: [{ field: 'answers', code: 'invalid_answer', error: 'answers must be an object of answers by question id' }],
    };
  }
  const given = answers as Record<string, unknown>;
  const failures: AnswerFailure[] = [];
  const asked = new Map(posting.questions.map((q) => [q.id, q]));
  for (const id of Object.keys(given)) {
    if (!asked.has(id)) {
      const name = id.slice(0, 64);
      failures.push({ field: field(name), code: 'unknown_question', error: `answers.${name} is not a question of this job` });
    }
  }
  for (const q of posting.questions) {
    const a = given[q.id];
    if (isEmpty(a)) {
      if (q.required) failures.push({ field: field(q.id), code: 'required', error: `answers.${q.id} is required: ${q.label}` });
      continue;
    }
    const checked = checkAnswer(q, a);
    if ('error' in checked) failures.push({ field: field(q.id), code: 'invalid_answer', error: `answers.${q.id} ${checked.error}` });
    else out[q.id] = checked.value;
  }
  return { answers: out, failures };
}

export interface FailedRule {
  rule: KnockoutRule;
  /** Why, in plain words: the rule's label, or the question, the answer and the comparison. */
  reason: string;
}

export interface ScreeningResult {
  passed: boolean;
  failed_rules: FailedRule[];
}

const shown = (a: Answer | boolean | number | string): string =>
  typeof a === 'boolean'
    ? a
      ? 'Yes'
      : 'No'
    : Array.isArray(a)
      ? a.map((o) => `"${o}"`).join(', ') || 'nothing'
      : typeof a === 'number'
        ? String(a)
        : `"${a}"`;

const OP_WORDS: Record<RuleOp, string> = {
  eq: 'is',
  neq: 'is not',
  lt: 'is below',
  lte: 'is at most',
  gt: 'is above',
  gte: 'is at least',
  includes: 'includes',
  excludes: 'does not include',
};

/** Whether an answer knocks the applicant out by this rule. */
function knocksOut(op: RuleOp, a: Answer, v: KnockoutRule['value']): boolean {
  switch (op) {
    case 'eq':
      return a === v;
    case 'neq':
      return a !== v;
    case 'lt':
      return typeof a === 'number' && typeof v === 'number' && a < v;
    case 'lte':
      return typeof a === 'number' && typeof v === 'number' && a <= v;
    case 'gt':
      return typeof a === 'number' && typeof v === 'number' && a > v;
    case 'gte':
      return typeof a === 'number' && typeof v === 'number' && a >= v;
    case 'includes':
      return Array.isArray(a) && a.includes(String(v));
    case 'excludes':
      return Array.isArray(a) && !a.includes(String(v));
  }
}

/** A failed rule's reason: the recruiter's label, else the question, the answer and the rule. */
export function reasonOf(rule: KnockoutRule, q: Question, a: Answer): string {
  if (rule.label) return rule.label;
  return `Answered ${shown(a)} to "${q.label}" (knockout when the answer ${OP_WORDS[rule.op]} ${shown(rule.value)})`;
}

/**
 * The knockout rules judged on (validated) answers: a rule fails when the answer compares with
 * its value as its op says. A question left unanswered (an optional one) knocks nobody out: the
 * rule needs an answer to decide. A rule whose question is gone decides nothing either (the
 * posting's check refuses such a rule when it is saved).
 */
export function screen(posting: Pick<Posting, 'questions' | 'rules'>, answers: Answers): ScreeningResult {
  const asked = new Map(posting.questions.map((q) => [q.id, q]));
  const failed: FailedRule[] = [];
  for (const rule of posting.rules) {
    const q = asked.get(rule.question_id);
    const a = answers[rule.question_id];
    if (!q || a === undefined) continue;
    if (knocksOut(rule.op, a, rule.value)) failed.push({ rule, reason: reasonOf(rule, q, a) });
  }
  return { passed: failed.length === 0, failed_rules: failed };
}

export type ScreeningAction =
  | { action: 'move_to_ai_screened' }
  | { action: 'stay' }
  | { action: 'flag' }
  /** Reject with the reason `screening` at `reject_at`, unless a person acted first. */
  | { action: 'reject_after_delay'; reject_at: string };

/** What a screening result does, by the posting's choice; `now` is the screening's time (ms). */
export function screeningAction(outcome: ScreeningOutcome, result: ScreeningResult, now: number): ScreeningAction {
  if (result.passed) return { action: outcome.on_pass };
  if (outcome.on_fail === 'flag') return { action: 'flag' };
  return { action: 'reject_after_delay', reject_at: new Date(now + outcome.reject_delay_hours * 3_600_000).toISOString() };
}

/**
 * A rule in plain words without the applicant's answer: what the audit log and the activity feed
 * keep (the audit log is not erased, so it holds the posting's words, never an answer).
 */
export function ruleWords(rule: KnockoutRule, q: Question | undefined): string {
  if (rule.label) return rule.label;
  return `Knockout when the answer to "${q?.label ?? rule.question_id}" ${OP_WORDS[rule.op]} ${shown(rule.value)}`;
}

/**
 * A candidate's screening as its item keeps it (`screening`, JSON, personal: the reasons quote
 * the answers, so erasure reaches it). `rules` are the failed rules' words (ruleWords), `reasons`
 * the same failures with the answers (reasonOf) for the recruiter.
 */
export interface ScreeningState {
  result: 'passed' | 'failed';
  action: ScreeningAction['action'];
  reasons: string[];
  rules: string[];
  flagged: boolean;
  /** reject_after_delay: when the rejection is due, until it ran or was overturned. */
  reject_at?: string;
  /** When the rejection ran. */
  rejected_at?: string;
  /** When a person overturned the decision. */
  overturned_at?: string;
  screened_at: string;
}

/** The screening of an application: what the worker keeps on the candidate and what it then does. */
export function screeningState(posting: Pick<Posting, 'questions' | 'rules' | 'outcome'>, answers: Answers, now: number): ScreeningState {
  const result = screen(posting, answers);
  const action = screeningAction(posting.outcome, result, now);
  const asked = new Map(posting.questions.map((q) => [q.id, q]));
  return {
    result: result.passed ? 'passed' : 'failed',
    action: action.action,
    reasons: result.failed_rules.map((f) => f.reason),
    rules: result.failed_rules.map((f) => ruleWords(f.rule, asked.get(f.rule.question_id))),
    flagged: action.action === 'flag',
    ...(action.action === 'reject_after_delay' && { reject_at: action.reject_at }),
    screened_at: new Date(now).toISOString(),
  };
}

/** What overturning a screening does, by its state and the candidate's stage now. */
export type Overturn = { kind: 'cancel_rejection' } | { kind: 'unreject' } | { kind: 'clear_flag' } | { kind: 'nothing'; why: string };

export function decideOverturn(s: ScreeningState | undefined, stage: string, rejectionReasonId: string | undefined): Overturn {
  if (!s) return { kind: 'nothing', why: 'this candidate was not screened' };
  if (s.overturned_at) return { kind: 'nothing', why: 'this screening was already overturned' };
  if (s.result === 'passed') return { kind: 'nothing', why: 'this candidate passed screening: there is nothing to overturn' };
  if (s.rejected_at) {
    if (stage === 'rejected' && rejectionReasonId === SCREENING_REJECTION.reason_id) return { kind: 'unreject' };
    return { kind: 'nothing', why: 'this candidate has moved since screening rejected them' };
  }
  if (s.reject_at) return { kind: 'cancel_rejection' };
  if (s.flagged) return { kind: 'clear_flag' };
  return { kind: 'nothing', why: 'this screening decided nothing to overturn' };
}

/** The rejection a screening makes once its delay has passed. */
export const SCREENING_REJECTION = { reason_id: 'screening', label: 'Did not pass screening', type: 'we_rejected' } as const;

/** The actor of screening's decisions, in the stage history and the audit log. */
export const SCREENING_ACTOR = { type: 'system', id: 'screening', name: 'Screening' } as const;
