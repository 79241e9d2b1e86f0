/**
 * A posting's rules, pure: the checks across fields a schema cannot make (`checkPosting`: a rule
 * names one of the posting's questions, never the applicant's identity; its op and value fit the
 * question; choices are distinct; the salary's range), and the write a PUT makes (`decidePosting`)
 * on the requisition and the posting as read. The store writes the plan
 * (lib/store/postings.ts `writePosting`).
 */
import { auditChanges } from '../entity';
import { OPS_BY_TYPE, posting as postingEntity, POSTING_LIST_FIELDS, type Posting, type Question } from '../entities/posting';
import { NotFoundError, ValidationError } from '../errors';
import type { PutPostingBody } from '../api/postings';
import type { ReqStatus } from '../model';
import type { AuditEntry } from '../store/audit';
import type { ReqActor } from '../store/requisitions';
import type { AuditBase } from './principal';
import type { Decision } from './retry';

const bad = (field: string, message: string) => new ValidationError(message, { field });

/**
 * What no knockout rule may read: who the applicant is (name, email, phone, photo) and the
 * attributes that law protects (age, gender). Automated decisions on them are discriminatory, and
 * automated hiring decisions are high-risk under the EU AI Act. A question whose id or label
 * names one of them cannot carry a rule; it may still be asked and read by a person.
 */
const PROTECTED = /\b(names?|e-?mails?|phones?|mobile|photos?|pictures?|portrait|selfie|ages?|old|birth|born|dob|gender|sex)\b/i;
const PROTECTED_IDS = /(^|_)(name|email|phone|mobile|photo|picture|age|birth|dob|gender|sex)($|_)/;
export const PROTECTED_WORDS = 'name, email, phone, age, gender or photo';

export const isProtectedQuestion = (q: Pick<Question, 'id' | 'label'>) => PROTECTED_IDS.test(q.id) || PROTECTED.test(q.label);

/** The checks across fields; throws the first failure as a 400 naming its field. */
export function checkPosting(body: PutPostingBody): void {
  const ids = new Set<string>();
  body.questions.forEach((q, i) => {
    if (ids.has(q.id)) throw bad(`questions[${i}].id`, `questions[${i}].id repeats the id ${q.id}: each question needs its own`);
    ids.add(q.id);
    const choice = q.type === 'single_choice' || q.type === 'multi_choice';
    if (choice && (!q.options || q.options.length < 2))
      throw bad(`questions[${i}].options`, `questions[${i}].options must list at least 2 choices`);
    if (!choice && q.options !== undefined)
      throw bad(`questions[${i}].options`, `questions[${i}].options is only for single_choice and multi_choice`);
    if (q.options && new Set(q.options).size !== q.options.length)
      throw bad(`questions[${i}].options`, `questions[${i}].options must be distinct`);
  });
  const byId = new Map(body.questions.map((q) => [q.id, q]));
  body.rules.forEach((r, i) => {
    const at = `rules[${i}]`;
    const q = byId.get(r.question_id);
    if (!q) {
      throw bad(
        `${at}.question_id`,
        PROTECTED_IDS.test(r.question_id.toLowerCase())
          ? `${at}.question_id: a rule may read only the answers to this posting's questions, never the applicant's ${PROTECTED_WORDS}`
          : `${at}.question_id must be the id of one of this posting's questions`,
      );
    }
    if (isProtectedQuestion(q)) {
      throw bad(
        `${at}.question_id`,
        `${at}.question_id: no rule may use an applicant's ${PROTECTED_WORDS}, and question ${q.id} asks for one`,
      );
    }
    const ops = OPS_BY_TYPE[q.type];
    if (!ops.length) throw bad(`${at}.question_id`, `${at}.question_id names a free-text question, which no rule may judge`);
    if (!ops.includes(r.op)) throw bad(`${at}.op`, `${at}.op must be one of ${ops.join(', ')} for a ${q.type} question`);
    const v = r.value;
    const ok =
      q.type === 'yes_no'
        ? typeof v === 'boolean'
        : q.type === 'number'
          ? typeof v === 'number' && Number.isFinite(v)
          : typeof v === 'string' && (q.options ?? []).includes(v);
    if (!ok) {
      const want = q.type === 'yes_no' ? 'true or false' : q.type === 'number' ? 'a number' : `one of the options of question ${q.id}`;
      throw bad(`${at}.value`, `${at}.value must be ${want}`);
    }
  });
  if (body.salary && body.salary.max < body.salary.min) throw bad('salary.max', 'salary.max must be at least salary.min');
  if (body.remote === 'no' && body.remote_countries.length)
    throw bad('remote_countries', 'remote_countries is only for hybrid or remote jobs');
}

/** What the posting write reads of its requisition. */
export interface PostingReqRead {
  id: string;
  title: string;
  status: ReqStatus;
  version: number;
  department: string | null;
  location: string | null;
  job_type: string | null;
}

export interface PostingPlan {
  req: PostingReqRead;
  posting: Posting;
  /** Public now: published, and the requisition open (the board index holds it). */
  listed: boolean;
  /** The requisition's version after the write (every posting write is a change of the requisition). */
  version: number;
  actor: ReqActor;
  at: string;
  audit?: AuditEntry;
}

/** Listed on the public board: published, and the requisition open. */
export const isListed = (published: boolean, status: ReqStatus) => published && status === 'open';

/**
 * A PUT of the whole posting on the requisition and posting as read: no requisition (or one the
 * caller does not see, which the caller reads as none) is a 404; a body the same as the posting writes nothing; else the new posting (version + 1, the
 * first publication's time kept) with the audit entry of what changed.
 */
export function decidePosting(
  state: { req: PostingReqRead | undefined; posting: Posting | undefined },
  body: PutPostingBody,
  opts: { actor: ReqActor; at: string; audit?: AuditBase },
): Decision<PostingPlan, { posting: Posting; req: PostingReqRead }> {
  const { req, posting: before } = state;
  if (!req) return { refuse: new NotFoundError('requisition') };
  const next: Posting = {
    req_id: req.id,
    published: body.published,
    description: body.description,
    location: body.location ?? null,
    remote: body.remote,
    remote_countries: body.remote_countries,
    salary: body.salary ?? null,
    employment_type: body.employment_type ?? null,
    questions: body.questions.map((q) => ({
      id: q.id,
      type: q.type,
      label: q.label,
      required: q.required,
      ...(q.options && { options: q.options }),
    })),
    rules: body.rules.map((r) => ({
      question_id: r.question_id,
      op: r.op,
      value: r.value,
      ...(r.label !== undefined && { label: r.label }),
    })),
    outcome: body.outcome,
    cv: body.cv,
    version: (before?.version ?? 0) + 1,
    published_at: before?.published_at ?? (body.published ? opts.at : null),
    created_at: before?.created_at ?? opts.at,
    updated_at: opts.at,
  };
  if (before && sameContent(before, next)) return { done: { posting: before, req } };
  const audit = opts.audit && { ...opts.audit, changes: postingChanges(before, next) };
  return {
    write: {
      req,
      posting: next,
      listed: isListed(next.published, req.status),
      version: req.version + 1,
      actor: opts.actor,
      at: opts.at,
      audit,
    },
  };
}

const content = (p: Posting) => {
  const { version: _v, created_at: _c, updated_at: _u, published_at: _p, ...rest } = p;
  return JSON.stringify(rest);
};
const sameContent = (a: Posting, b: Posting) => content(a) === content(b);

/** The audit changes: scalar fields with their values, the lists by name. */
function postingChanges(before: Posting | undefined, after: Posting) {
  const flat = (p: Posting | undefined) =>
    p && {
      ...p,
      salary_min: p.salary?.min ?? null,
      salary_max: p.salary?.max ?? null,
      salary_currency: p.salary?.currency ?? null,
      salary_period: p.salary?.period ?? null,
      ...p.outcome,
    };
  const changes = auditChanges(postingEntity, flat(before), flat(after)!).filter((c) => c.field !== 'description');
  if ((before?.description ?? null) !== after.description) changes.push({ field: 'description' });
  for (const f of POSTING_LIST_FIELDS) {
    if (JSON.stringify(before?.[f] ?? []) !== JSON.stringify(after[f])) changes.push({ field: f });
  }
  return changes;
}
