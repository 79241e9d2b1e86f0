/**
 * Screening as pure rules: answers against the questions (validateAnswers), knockout rules against
 * answers (screen) with their plain-words reasons, what a result does (screeningAction) on a fixed
 * clock, and the posting checks that keep a rule on the posting's own questions (checkPosting).
 */
import { describe, expect, it } from 'vitest';
import type { PutPostingBody } from '../../lib/api/postings';
import { DEFAULT_OUTCOME, type Posting, type Question } from '../../lib/entities/posting';
import { ValidationError } from '../../lib/errors';
import { checkPosting } from '../../lib/domain/posting-rules';
import { screen, screeningAction, validateAnswers, type Answers } from '../../lib/domain/screening-rules';

const questions: Question[] = [
  { id: 'eu_work', type: 'yes_no', label: 'Are you authorised to work in the EU?', required: true },
  { id: 'years', type: 'number', label: 'Years of experience with TypeScript', required: true },
  { id: 'level', type: 'single_choice', label: 'Seniority', required: false, options: ['junior', 'mid', 'senior'] },
  { id: 'langs', type: 'multi_choice', label: 'Languages you speak', required: false, options: ['en', 'de', 'fr'] },
  { id: 'why', type: 'short_text', label: 'Why us?', required: false },
  { id: 'story', type: 'long_text', label: 'A project you are proud of', required: false },
];

const posting: Pick<Posting, 'questions' | 'rules' | 'outcome'> = {
  questions,
  rules: [
    { question_id: 'eu_work', op: 'eq', value: false, label: 'Not authorised to work in the EU' },
    { question_id: 'years', op: 'lt', value: 3 },
    { question_id: 'level', op: 'eq', value: 'junior' },
    { question_id: 'langs', op: 'excludes', value: 'en' },
  ],
  outcome: DEFAULT_OUTCOME,
};

describe('validateAnswers', () => {
  const ok = { eu_work: true, years: 5 };
  it.each<[string, unknown, { field: string; code: string }[]]>([
    ['required answers only', ok, []],
    ['every question answered', { ...ok, level: 'mid', langs: ['en', 'de'], why: ' Mission ', story: 'Line 1\r\nLine 2' }, []],
    [
      'no answers object at all',
      undefined,
      [
        { field: 'answers.eu_work', code: 'required' },
        { field: 'answers.years', code: 'required' },
      ],
    ],
    ['a required yes/no missing', { years: 5 }, [{ field: 'answers.eu_work', code: 'required' }]],
    ['a required answer empty', { eu_work: true, years: '' }, [{ field: 'answers.years', code: 'required' }]],
    ['yes/no as a string', { ...ok, eu_work: 'yes' }, [{ field: 'answers.eu_work', code: 'invalid_answer' }]],
    ['a number as a string', { ...ok, years: '5' }, [{ field: 'answers.years', code: 'invalid_answer' }]],
    ['a number that is not finite', { ...ok, years: Number.NaN }, [{ field: 'answers.years', code: 'invalid_answer' }]],
    ['a choice not among the options', { ...ok, level: 'principal' }, [{ field: 'answers.level', code: 'invalid_answer' }]],
    ['multi choice as one string', { ...ok, langs: 'en' }, [{ field: 'answers.langs', code: 'invalid_answer' }]],
    ['multi choice with an unknown option', { ...ok, langs: ['en', 'xx'] }, [{ field: 'answers.langs', code: 'invalid_answer' }]],
    ['multi choice naming an option twice', { ...ok, langs: ['en', 'en'] }, [{ field: 'answers.langs', code: 'invalid_answer' }]],
    ['short text too long', { ...ok, why: 'x'.repeat(301) }, [{ field: 'answers.why', code: 'invalid_answer' }]],
    ['short text with a line break', { ...ok, why: 'a\nb' }, [{ field: 'answers.why', code: 'invalid_answer' }]],
    ['long text with a NUL', { ...ok, story: 'a\u0000b' }, [{ field: 'answers.story', code: 'invalid_answer' }]],
    ['long text with a bidi override', { ...ok, story: 'a\u202Eb' }, [{ field: 'answers.story', code: 'invalid_answer' }]],
    ['an answer to a question not asked', { ...ok, age: 40 }, [{ field: 'answers.age', code: 'unknown_question' }]],
    ['answers as an array', [true, 5], [{ field: 'answers', code: 'invalid_answer' }]],
  ])('%s', (_name, answers, failures) => {
    const result = validateAnswers(posting, answers);
    expect(result.failures.map(({ field, code }) => ({ field, code }))).toEqual(failures);
    for (const f of result.failures) expect(f.error.startsWith(f.field)).toBe(true);
  });

  it('answers the normalized answers: text trimmed, CRLF as LF, empty optional answers left out', () => {
    const { answers, failures } = validateAnswers(posting, { eu_work: true, years: 5, why: '  Mission  ', story: 'a\r\nb', level: '' });
    expect(failures).toEqual([]);
    expect(answers).toEqual({ eu_work: true, years: 5, why: 'Mission', story: 'a\nb' });
  });

  it("names the required question's label in its failure", () => {
    expect(validateAnswers(posting, { years: 5 }).failures[0]!.error).toBe(
      'answers.eu_work is required: Are you authorised to work in the EU?',
    );
  });
});

describe('screen', () => {
  const base: Answers = { eu_work: true, years: 5, level: 'senior', langs: ['en'] };
  it.each<[string, Answers, string[]]>([
    ['passes every rule', base, []],
    ['not authorised: the label is the reason', { ...base, eu_work: false }, ['Not authorised to work in the EU']],
    [
      'below the years: a generated reason',
      { ...base, years: 2 },
      ['Answered 2 to "Years of experience with TypeScript" (knockout when the answer is below 3)'],
    ],
    ['exactly the years passes', { ...base, years: 3 }, []],
    ['a choice that knocks out', { ...base, level: 'junior' }, ['Answered "junior" to "Seniority" (knockout when the answer is "junior")']],
    [
      'a multi choice without the needed option',
      { ...base, langs: ['de', 'fr'] },
      ['Answered "de", "fr" to "Languages you speak" (knockout when the answer does not include "en")'],
    ],
    ['an optional question left unanswered knocks nobody out', { eu_work: true, years: 5 }, []],
    [
      'several failures, in the rules order',
      { ...base, eu_work: false, years: 0 },
      ['Not authorised to work in the EU', 'Answered 0 to "Years of experience with TypeScript" (knockout when the answer is below 3)'],
    ],
  ])('%s', (_name, answers, reasons) => {
    const result = screen(posting, answers);
    expect(result.passed).toBe(reasons.length === 0);
    expect(result.failed_rules.map((f) => f.reason)).toEqual(reasons);
  });

  it.each([
    ['eq', 3, 3, true],
    ['neq', 3, 4, true],
    ['lt', 3, 2, true],
    ['lte', 3, 3, true],
    ['gt', 3, 4, true],
    ['gte', 3, 3, true],
    ['lt', 3, 3, false],
    ['gt', 3, 3, false],
  ] as const)('number %s %d knocks out %d: %s', (op, value, answer, fails) => {
    const p = { questions, rules: [{ question_id: 'years', op, value }] };
    expect(screen(p, { years: answer }).passed).toBe(!fails);
  });

  it('yes/no neq and multi choice includes', () => {
    const p = {
      questions,
      rules: [
        { question_id: 'eu_work', op: 'neq' as const, value: true },
        { question_id: 'langs', op: 'includes' as const, value: 'fr' },
      ],
    };
    expect(screen(p, { eu_work: true, langs: ['en'] }).passed).toBe(true);
    expect(screen(p, { eu_work: false, langs: ['en', 'fr'] }).failed_rules.map((f) => f.rule.question_id)).toEqual(['eu_work', 'langs']);
  });
});

describe('screeningAction', () => {
  const now = Date.parse('2026-03-01T10:00:00.000Z');
  const pass = { passed: true, failed_rules: [] };
  const fail = screen(posting, { eu_work: false, years: 5 });
  it.each([
    ['pass, stay', { ...DEFAULT_OUTCOME, on_pass: 'stay' as const }, pass, { action: 'stay' }],
    ['pass, move on', { ...DEFAULT_OUTCOME, on_pass: 'move_to_ai_screened' as const }, pass, { action: 'move_to_ai_screened' }],
    ['fail, flag for review', { ...DEFAULT_OUTCOME, on_fail: 'flag' as const }, fail, { action: 'flag' }],
    [
      'fail, reject after the default 24 hours',
      { ...DEFAULT_OUTCOME, on_fail: 'reject_after_delay' as const },
      fail,
      { action: 'reject_after_delay', reject_at: '2026-03-02T10:00:00.000Z' },
    ],
    [
      'fail, reject after 2 hours',
      { on_pass: 'stay' as const, on_fail: 'reject_after_delay' as const, reject_delay_hours: 2 },
      fail,
      { action: 'reject_after_delay', reject_at: '2026-03-01T12:00:00.000Z' },
    ],
  ])('%s', (_name, outcome, result, action) => {
    expect(screeningAction(outcome, result, now)).toEqual(action);
  });
});

describe('checkPosting', () => {
  const body = (over: Partial<PutPostingBody>): PutPostingBody => ({
    published: true,
    description: 'We build things.',
    remote: 'no',
    remote_countries: [],
    questions,
    rules: [],
    outcome: DEFAULT_OUTCOME,
    cv: 'optional',
    ...over,
  });
  const refusal = (b: PutPostingBody) => {
    try {
      checkPosting(b);
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      return { field: (e as ValidationError).field, message: (e as ValidationError).message };
    }
    return undefined;
  };

  it('takes the rules above', () => {
    expect(refusal(body({ rules: posting.rules }))).toBeUndefined();
  });

  it.each<[string, Partial<PutPostingBody>, string, RegExp]>([
    [
      'a rule on the applicant name',
      { rules: [{ question_id: 'name', op: 'eq', value: 'x' }] },
      'rules[0].question_id',
      /never the applicant's name, email, phone, age, gender or photo/,
    ],
    ['a rule on the email', { rules: [{ question_id: 'email', op: 'eq', value: 'x' }] }, 'rules[0].question_id', /never the applicant's/],
    [
      'a rule on a question not asked',
      { rules: [{ question_id: 'degree', op: 'eq', value: true }] },
      'rules[0].question_id',
      /one of this posting's questions/,
    ],
    [
      'a rule on a question that asks the age',
      {
        questions: [{ id: 'q1', type: 'number', label: 'How old are you?', required: true }],
        rules: [{ question_id: 'q1', op: 'lt', value: 25 }],
      },
      'rules[0].question_id',
      /no rule may use an applicant's name, email, phone, age, gender or photo/,
    ],
    [
      'a rule on a question whose id names the gender',
      {
        questions: [{ id: 'gender', type: 'single_choice', label: 'Pronouns', required: false, options: ['a', 'b'] }],
        rules: [{ question_id: 'gender', op: 'eq', value: 'a' }],
      },
      'rules[0].question_id',
      /no rule may use/,
    ],
    ['a rule on free text', { rules: [{ question_id: 'why', op: 'eq', value: 'x' }] }, 'rules[0].question_id', /free-text/],
    ['an op the type does not take', { rules: [{ question_id: 'eu_work', op: 'lt', value: true }] }, 'rules[0].op', /eq, neq for a yes_no/],
    ['a yes/no rule with a number', { rules: [{ question_id: 'eu_work', op: 'eq', value: 1 }] }, 'rules[0].value', /true or false/],
    [
      'a choice rule with no such option',
      { rules: [{ question_id: 'level', op: 'eq', value: 'lead' }] },
      'rules[0].value',
      /one of the options/,
    ],
    ['a question id twice', { questions: [questions[0]!, questions[0]!] }, 'questions[1].id', /repeats/],
    [
      'a choice without options',
      { questions: [{ id: 'c', type: 'single_choice', label: 'C', required: false }] },
      'questions[0].options',
      /at least 2/,
    ],
    [
      'options on a number',
      { questions: [{ id: 'n', type: 'number', label: 'N', required: false, options: ['1', '2'] }] },
      'questions[0].options',
      /only for/,
    ],
    [
      'options twice',
      { questions: [{ id: 'c', type: 'multi_choice', label: 'C', required: false, options: ['a', 'a'] }] },
      'questions[0].options',
      /distinct/,
    ],
    [
      'a salary range upside down',
      { salary: { min: 90_000, max: 60_000, currency: 'EUR', period: 'year' } },
      'salary.max',
      /at least salary.min/,
    ],
    ['countries for an office job', { remote: 'no', remote_countries: ['DE'] }, 'remote_countries', /hybrid or remote/],
  ])('refuses %s', (_name, over, field, message) => {
    const r = refusal(body(over));
    expect(r?.field).toBe(field);
    expect(r?.message).toMatch(message);
  });
});
