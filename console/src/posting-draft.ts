/**
 * The posting editor's draft: what the form holds (strings, as typed), how it is read from the
 * API's posting and how it becomes the PUT body. Questions and rules are keyed in the form, not by
 * their ids: a new question's id is made from its label when it is first saved and kept after
 * that, because answers and rules name a question by its id.
 */
import type { paths } from './api/client';

type PostingPath = paths['/api/requisitions/{id}/posting'];
export type Posting = PostingPath['get']['responses'][200]['content']['application/json']['data'];
export type PostingBody = NonNullable<PostingPath['put']['requestBody']>['content']['application/json'];
export type QuestionType = Posting['questions'][number]['type'];
export type RuleOp = Posting['rules'][number]['op'];

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  yes_no: 'Yes or no',
  single_choice: 'One of a list',
  multi_choice: 'Any of a list',
  number: 'A number',
  short_text: 'A short text',
  long_text: 'A long text',
};

/** The ops each type takes (lib/entities/posting.ts OPS_BY_TYPE), worded as the rule reads. */
export const OPS: Record<QuestionType, [RuleOp, string][]> = {
  yes_no: [
    ['eq', 'is'],
    ['neq', 'is not'],
  ],
  single_choice: [
    ['eq', 'is'],
    ['neq', 'is not'],
  ],
  multi_choice: [
    ['includes', 'includes'],
    ['excludes', 'does not include'],
  ],
  number: [
    ['lt', 'is less than'],
    ['lte', 'is at most'],
    ['gt', 'is more than'],
    ['gte', 'is at least'],
    ['eq', 'is'],
    ['neq', 'is not'],
  ],
  short_text: [],
  long_text: [],
};

export interface QuestionDraft {
  key: number;
  /** Kept once saved; made from the label on the first save. */
  id?: string;
  type: QuestionType;
  label: string;
  required: boolean;
  /** The choices, one a line. */
  options: string;
}

export interface RuleDraft {
  key: number;
  /** The question's form key. */
  question: number;
  op: RuleOp;
  value: string;
  label: string;
}

export interface Draft {
  published: boolean;
  description: string;
  location: string;
  remote: Posting['remote'];
  countries: string;
  employment_type: string;
  noSalary: boolean;
  salary: { min: string; max: string; currency: string; period: NonNullable<Posting['salary']>['period'] };
  questions: QuestionDraft[];
  rules: RuleDraft[];
  on_pass: Posting['outcome']['on_pass'];
  on_fail: Posting['outcome']['on_fail'];
  delay: string;
}

let nextKey = 0;
export const newKey = () => ++nextKey;

export const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

const valueText = (v: boolean | number | string) => (typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v));

/** The form for a posting as read, or for a requisition that has none yet. */
export function draftOf(p: Posting | null): Draft {
  const questions: QuestionDraft[] = (p?.questions ?? []).map((q) => ({
    key: newKey(),
    id: q.id,
    type: q.type,
    label: q.label,
    required: q.required,
    options: (q.options ?? []).join('\n'),
  }));
  const keyOf = new Map(questions.map((q) => [q.id, q.key]));
  return {
    published: p?.published ?? false,
    description: p?.description ?? '',
    location: p?.location ?? '',
    remote: p?.remote ?? 'no',
    countries: (p?.remote_countries ?? []).join(', '),
    employment_type: p?.employment_type ?? '',
    noSalary: p ? p.salary === null : false,
    salary: {
      min: p?.salary ? String(p.salary.min) : '',
      max: p?.salary ? String(p.salary.max) : '',
      currency: p?.salary?.currency ?? 'EUR',
      period: p?.salary?.period ?? 'year',
    },
    questions,
    rules: (p?.rules ?? []).map((r) => ({
      key: newKey(),
      question: keyOf.get(r.question_id) ?? -1,
      op: r.op,
      value: valueText(r.value),
      label: r.label ?? '',
    })),
    on_pass: p?.outcome.on_pass ?? 'stay',
    on_fail: p?.outcome.on_fail ?? 'flag',
    delay: String(p?.outcome.reject_delay_hours ?? 24),
  };
}

/** A question id from its label: lowercase letters, digits and _, starting with a letter, unique. */
export function idFromLabel(label: string, taken: Set<string>): string {
  const slug = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const base = (/^[a-z]/.test(slug) ? slug : `q_${slug}`).slice(0, 36).replace(/_+$/, '') || 'question';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

/** The ids the questions will be saved under (kept ones first, so a new one never takes a kept id). */
export function questionIds(questions: QuestionDraft[]): Map<number, string> {
  const taken = new Set(questions.flatMap((q) => (q.id ? [q.id] : [])));
  return new Map(questions.map((q) => [q.key, q.id ?? idFromLabel(q.label, taken)]));
}

/** A form problem found before sending, at the API's own field path. */
export class DraftError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const num = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));

/** The PUT body for the draft; the rules across fields are the API's to check (its errors name the field). */
export function bodyOf(d: Draft, published = d.published): PostingBody {
  const ids = questionIds(d.questions);
  const byKey = new Map(d.questions.map((q) => [q.key, q]));
  if (!d.noSalary && (d.salary.min.trim() === '' || d.salary.max.trim() === ''))
    throw new DraftError(
      d.salary.min.trim() === '' ? 'salary.min' : 'salary.max',
      'Enter the salary range: pay-transparency laws require it in many places. Or tick “State no salary range”.',
    );
  return {
    published,
    description: d.description,
    location: d.location.trim() || null,
    remote: d.remote,
    remote_countries:
      d.remote === 'no'
        ? []
        : d.countries
            .split(/[\s,;]+/)
            .map((c) => c.trim().toUpperCase())
            .filter(Boolean),
    salary: d.noSalary
      ? null
      : { min: num(d.salary.min), max: num(d.salary.max), currency: d.salary.currency.trim().toUpperCase(), period: d.salary.period },
    employment_type: (d.employment_type || null) as PostingBody['employment_type'],
    questions: d.questions.map((q) => ({
      id: ids.get(q.key)!,
      type: q.type,
      label: q.label,
      required: q.required,
      ...((q.type === 'single_choice' || q.type === 'multi_choice') && { options: lines(q.options) }),
    })),
    rules: d.rules.map((r) => {
      const q = byKey.get(r.question);
      const value = q?.type === 'yes_no' ? r.value === 'yes' : q?.type === 'number' ? num(r.value) : r.value;
      return { question_id: ids.get(r.question) ?? '', op: r.op, value, ...(r.label.trim() && { label: r.label.trim() }) };
    }),
    outcome: { on_pass: d.on_pass, on_fail: d.on_fail, reject_delay_hours: num(d.delay) },
  };
}

/** The element id of the control for an API field path: `questions[2].label` → `pe-questions-2-label`. */
export const fieldId = (path: string) => `pe-${path.replace(/\[(\d+)\]/g, '-$1').replace(/[.[\]"]+/g, '-')}`;
