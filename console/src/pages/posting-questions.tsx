/**
 * The posting's screening questions and the knockout rules on their answers. A rule is written as
 * it reads ("Fails when <question> is <value>"); only the questions a rule may judge are offered
 * (no free text), and the API refuses a rule on a question that asks for a name, an email, a phone,
 * an age, a gender or a photo, naming the rule.
 */
import { newKey, OPS, QUESTION_TYPE_LABELS, type Draft, type QuestionDraft, type QuestionType, type RuleDraft } from '../posting-draft';
import { AreaIn, Check, SelectIn, TextIn, type FieldErrors } from './posting-fields';

const TYPES = Object.entries(QUESTION_TYPE_LABELS) as [QuestionType, string][];
const choice = (t: QuestionType) => t === 'single_choice' || t === 'multi_choice';
const optionsOf = (q: QuestionDraft) =>
  q.options
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);

interface Props {
  d: Draft;
  set: (patch: Partial<Draft>) => void;
  errors: FieldErrors;
  /** Focus a control by id once it is drawn. */
  focus: (id: string) => void;
}

export function Questions({ d, set, errors, focus }: Props) {
  const change = (key: number, patch: Partial<QuestionDraft>) =>
    set({ questions: d.questions.map((q) => (q.key === key ? { ...q, ...patch } : q)) });
  const remove = (q: QuestionDraft, i: number) => {
    set({ questions: d.questions.filter((x) => x.key !== q.key), rules: d.rules.filter((r) => r.question !== q.key) });
    focus(d.questions.length > 1 ? `pe-questions-${Math.max(0, i - 1)}-label` : 'pe-add-question');
  };
  return (
    <fieldset class="posting-list">
      <legend>Screening questions</legend>
      {!d.questions.length && <p class="hint">No questions: applicants send their name, email, phone and CV.</p>}
      {d.questions.map((q, i) => (
        <fieldset key={q.key} class="plan-step">
          <legend>
            Question {i + 1}
            {q.label.trim() && `: ${q.label.trim()}`}
          </legend>
          <TextIn
            path={`questions[${i}].label`}
            label="Question"
            errors={errors}
            value={q.label}
            onInput={(v) => change(q.key, { label: v })}
          />
          <SelectIn
            path={`questions[${i}].type`}
            label="Answer"
            errors={errors}
            value={q.type}
            options={TYPES}
            onChange={(type) => change(q.key, { type })}
          />
          {choice(q.type) && (
            <AreaIn
              path={`questions[${i}].options`}
              label="Choices, one a line"
              errors={errors}
              rows={3}
              value={q.options}
              onInput={(v) => change(q.key, { options: v })}
            />
          )}
          <Check
            id={`pe-questions-${i}-required`}
            label="Required"
            checked={q.required}
            onChange={(required) => change(q.key, { required })}
          />
          <div class="actions">
            <button type="button" onClick={() => remove(q, i)}>
              Remove question {i + 1}
            </button>
          </div>
        </fieldset>
      ))}
      <button
        type="button"
        id="pe-add-question"
        onClick={() => {
          set({ questions: [...d.questions, { key: newKey(), type: 'yes_no', label: '', required: true, options: '' }] });
          focus(`pe-questions-${d.questions.length}-label`);
        }}
      >
        Add a question
      </button>
    </fieldset>
  );
}

export function Rules({ d, set, errors, focus }: Props) {
  const judged = d.questions.filter((q) => OPS[q.type].length);
  const change = (key: number, patch: Partial<RuleDraft>) => set({ rules: d.rules.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
  const firstValue = (q: QuestionDraft | undefined) =>
    !q ? '' : q.type === 'yes_no' ? 'no' : choice(q.type) ? (optionsOf(q)[0] ?? '') : '';
  return (
    <fieldset class="posting-list">
      <legend>Knockout rules</legend>
      <p class="hint">
        An applicant fails a rule when their answer compares so. A rule reads only the answers to these questions, never the applicant's
        name, email, phone, age, gender or photo: automated hiring decisions are regulated as high-risk in the EU.
      </p>
      {d.rules.map((r, i) => {
        const q = d.questions.find((x) => x.key === r.question);
        const qOptions: [string, string][] = judged.map((x) => [String(x.key), x.label.trim() || `Question ${d.questions.indexOf(x) + 1}`]);
        if (!q) qOptions.unshift(['-1', 'Choose a question']);
        return (
          <fieldset key={r.key} class="plan-step">
            <legend>Rule {i + 1}</legend>
            <SelectIn
              path={`rules[${i}].question_id`}
              label="Fails when the answer to"
              errors={errors}
              value={String(r.question)}
              options={qOptions}
              onChange={(v) => {
                const next = d.questions.find((x) => x.key === Number(v));
                change(r.key, { question: Number(v), op: next ? OPS[next.type][0]![0] : r.op, value: firstValue(next) });
              }}
            />
            {q && (
              <SelectIn
                path={`rules[${i}].op`}
                label="Comparison"
                errors={errors}
                value={r.op}
                options={OPS[q.type]}
                onChange={(op) => change(r.key, { op })}
              />
            )}
            {q?.type === 'yes_no' || (q && choice(q.type)) ? (
              <SelectIn
                path={`rules[${i}].value`}
                label="Value"
                errors={errors}
                value={r.value}
                options={
                  q.type === 'yes_no'
                    ? ([
                        ['yes', 'Yes'],
                        ['no', 'No'],
                      ] as const)
                    : optionsOf(q).map((o) => [o, o] as const)
                }
                onChange={(value) => change(r.key, { value })}
              />
            ) : (
              q && (
                <TextIn
                  path={`rules[${i}].value`}
                  label="Value"
                  type="number"
                  inputMode="decimal"
                  errors={errors}
                  value={r.value}
                  onInput={(value) => change(r.key, { value })}
                />
              )
            )}
            <TextIn
              path={`rules[${i}].label`}
              label="The reason in plain words"
              optional
              hint="Shown to the recruiter when the rule fails, such as “Not authorised to work in the EU”."
              errors={errors}
              value={r.label}
              onInput={(label) => change(r.key, { label })}
            />
            <div class="actions">
              <button
                type="button"
                onClick={() => {
                  set({ rules: d.rules.filter((x) => x.key !== r.key) });
                  focus('pe-add-rule');
                }}
              >
                Remove rule {i + 1}
              </button>
            </div>
          </fieldset>
        );
      })}
      {judged.length ? (
        <button
          type="button"
          id="pe-add-rule"
          onClick={() => {
            const q = judged[0]!;
            set({ rules: [...d.rules, { key: newKey(), question: q.key, op: OPS[q.type][0]![0], value: firstValue(q), label: '' }] });
            focus(`pe-rules-${d.rules.length}-question_id`);
          }}
        >
          Add a rule
        </button>
      ) : (
        <p class="hint" id="pe-add-rule" tabIndex={-1}>
          Add a yes-or-no, choice or number question to write a rule on its answer.
        </p>
      )}
    </fieldset>
  );
}

export function Outcome({ d, set, errors }: Omit<Props, 'focus'>) {
  return (
    <fieldset>
      <legend>What screening does</legend>
      <SelectIn
        path="outcome.on_pass"
        label="When an applicant passes every rule"
        errors={errors}
        value={d.on_pass}
        options={[
          ['stay', 'Leave them in Applied'],
          ['move_to_ai_screened', 'Move them to AI screened'],
        ]}
        onChange={(on_pass) => set({ on_pass })}
      />
      <SelectIn
        path="outcome.on_fail"
        label="When an applicant fails a rule"
        errors={errors}
        value={d.on_fail}
        options={[
          ['flag', 'Flag them for review'],
          ['reject_after_delay', 'Reject them, reason “screening”, after a delay'],
        ]}
        onChange={(on_fail) => set({ on_fail })}
      />
      {d.on_fail === 'reject_after_delay' && (
        <TextIn
          path="outcome.reject_delay_hours"
          label="Delay in hours"
          type="number"
          hint="0 to 720; a person can overturn the rejection until then."
          errors={errors}
          value={d.delay}
          onInput={(delay) => set({ delay })}
        />
      )}
    </fieldset>
  );
}
