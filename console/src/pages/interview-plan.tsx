/**
 * The requisition's interview plan: its ordered steps (name, stage, duration, default
 * interviewers, the kit, the scorecard's attributes and questions). The recruiting roles edit it
 * and save the whole plan at once; a hiring manager reads it. The API keeps each step's id when
 * the step is sent back with it, so scheduled interviews keep pointing at their step.
 */
import { useRef, useState } from 'preact/hooks';
import { api, errorText, unwrap } from '../api/client';
import { Kit } from '../interview-parts';
import { fetchMembers, fetchPlan, type Member, type Plan } from '../interviews';
import { stageLabel } from '../labels';
import { Live } from '../recruiting';
import { useMay } from '../session';
import { Empty, Loaded, useLoad } from '../ui';
import { ACTIVE_STAGES, type Stage } from '../../../lib/model';

/** The stages a step may belong to (the API's PLAN_STAGES): those a candidate still moves through. */
type PlanStage = Exclude<Stage, 'placed' | 'rejected'>;

interface Draft {
  key: number;
  id?: string;
  name: string;
  stage: string;
  minutes: string;
  interviewers: string[];
  kit: string;
  attributes: string;
  questions: string;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

let nextKey = 0;
const draftOf = (s: Plan['steps'][number]): Draft => ({
  key: nextKey++,
  id: s.id,
  name: s.name,
  stage: s.stage,
  minutes: String(s.duration_minutes),
  interviewers: s.interviewers,
  kit: s.kit,
  attributes: s.scorecard.attributes.map((a) => a.name).join('\n'),
  questions: s.scorecard.questions.join('\n'),
});

export function InterviewPlan({ reqId }: { reqId: string }) {
  const edits = useMay()('PUT /api/requisitions/{id}/interview-plan');
  const [load, reload] = useLoad(async () => {
    const [plan, members] = await Promise.all([fetchPlan(reqId), fetchMembers()]);
    return { plan, members };
  }, [reqId]);
  // Here, not in the form: a save loads the plan again, and the form starts afresh from it.
  const [said, setSaid] = useState<string>();
  return (
    <section class="card" aria-labelledby="plan-h">
      <h2 id="plan-h">Interview plan</h2>
      <Live message={said} kind="success" />
      <Loaded load={load} what="the interview plan" retry={reload}>
        {({ plan, members }) =>
          edits ? (
            <PlanForm
              key={plan.version}
              plan={plan}
              members={members}
              onSaving={() => setSaid(undefined)}
              onSaved={async (version) => {
                await reload();
                setSaid(`Interview plan saved (version ${version}).`);
              }}
            />
          ) : (
            <PlanView plan={plan} members={members} />
          )
        }
      </Loaded>
    </section>
  );
}

const emailsOf = (ids: string[], members: Member[]) =>
  ids.map((id) => members.find((m) => m.id === id)?.email ?? 'a former member').join(', ');

function PlanView({ plan, members }: { plan: Plan; members: Member[] }) {
  if (!plan.steps.length) return <Empty>No interview plan yet: a recruiter adds its steps.</Empty>;
  return (
    <ol class="iv-list">
      {plan.steps.map((s) => (
        <li key={s.id} class="plan-step">
          <h3>{s.name}</h3>
          <dl class="facts">
            <dt>Stage</dt>
            <dd>{stageLabel(s.stage)}</dd>
            <dt>Duration</dt>
            <dd>{s.duration_minutes} minutes</dd>
            <dt>Interviewers</dt>
            <dd>{s.interviewers.length ? emailsOf(s.interviewers, members) : 'None by default'}</dd>
            <dt>Rated on</dt>
            <dd>{s.scorecard.attributes.map((a) => a.name).join(', ') || 'No attributes'}</dd>
            <dt>Questions</dt>
            <dd>{s.scorecard.questions.join(' · ') || 'None'}</dd>
          </dl>
          <Kit kit={s.kit} step={s.name} />
        </li>
      ))}
    </ol>
  );
}

function PlanForm({
  plan,
  members,
  onSaving,
  onSaved,
}: {
  plan: Plan;
  members: Member[];
  onSaving: () => void;
  onSaved: (version: number) => Promise<void>;
}) {
  const [steps, setSteps] = useState<Draft[]>(() => plan.steps.map(draftOf));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const active = members.filter((m) => m.deactivated_at === null);
  const change = (key: number, patch: Partial<Draft>) => setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...patch } : s)));
  const focusName = (i: number) => setTimeout(() => form.current?.querySelector<HTMLInputElement>(`#plan-${i}-name`)?.focus());
  const move = (i: number, by: -1 | 1) => {
    const next = [...steps];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setSteps(next);
    focusName(i + by);
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    onSaving();
    setBusy(true);
    try {
      // The API takes no expected version: read it first, so someone else's save is not overwritten unseen.
      const now = await fetchPlan(plan.requisition_id);
      if (now.version !== plan.version) {
        setError(
          `Someone else saved the plan (version ${now.version}) since you opened it. Reload it to see their steps, then make your change again.`,
        );
        return;
      }
      const body = {
        steps: steps.map((s) => ({
          ...(s.id && { id: s.id }),
          name: s.name.trim(),
          stage: s.stage as PlanStage,
          duration_minutes: Number(s.minutes),
          interviewers: s.interviewers,
          kit: s.kit,
          scorecard: { attributes: lines(s.attributes).map((name) => ({ name })), questions: lines(s.questions) },
        })),
      };
      const saved = await unwrap(api.PUT('/api/requisitions/{id}/interview-plan', { params: { path: { id: plan.requisition_id } }, body }));
      await onSaved(saved.data.version);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} onSubmit={save} noValidate aria-labelledby="plan-h">
      <p class="hint">
        {plan.version ? `Version ${plan.version}.` : 'No plan yet.'} Each step's interviewers and duration are what scheduling starts from;
        its kit (Markdown, shown as written) and scorecard are what its interviewers see.
      </p>
      {steps.map((s, i) => (
        <fieldset key={s.key} class="plan-step">
          <legend>
            Step {i + 1}
            {s.name.trim() && `: ${s.name.trim()}`}
          </legend>
          <div class="field">
            <label for={`plan-${i}-name`}>Name</label>
            <input id={`plan-${i}-name`} required value={s.name} onInput={(e) => change(s.key, { name: e.currentTarget.value })} />
          </div>
          <div class="field">
            <label for={`plan-${i}-stage`}>Stage</label>
            <select id={`plan-${i}-stage`} value={s.stage} onChange={(e) => change(s.key, { stage: e.currentTarget.value })}>
              {ACTIVE_STAGES.map((st) => (
                <option key={st} value={st}>
                  {stageLabel(st)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={`plan-${i}-minutes`}>Duration in minutes</label>
            <input
              id={`plan-${i}-minutes`}
              type="number"
              min={5}
              max={480}
              required
              value={s.minutes}
              onInput={(e) => change(s.key, { minutes: e.currentTarget.value })}
            />
          </div>
          <fieldset>
            <legend>Interviewers</legend>
            {active.map((m) => (
              <label class="check" key={m.id}>
                <input
                  type="checkbox"
                  checked={s.interviewers.includes(m.id)}
                  onChange={(e) => {
                    const on = e.currentTarget.checked;
                    change(s.key, { interviewers: on ? [...s.interviewers, m.id] : s.interviewers.filter((x) => x !== m.id) });
                  }}
                />{' '}
                {m.email}
              </label>
            ))}
          </fieldset>
          <div class="field">
            <label for={`plan-${i}-kit`}>
              Kit (Markdown)<span class="optional"> (optional)</span>
            </label>
            <textarea id={`plan-${i}-kit`} rows={5} value={s.kit} onInput={(e) => change(s.key, { kit: e.currentTarget.value })} />
          </div>
          <div class="field">
            <label for={`plan-${i}-attributes`}>
              Rated on, one attribute a line<span class="optional"> (optional)</span>
            </label>
            <textarea
              id={`plan-${i}-attributes`}
              rows={3}
              value={s.attributes}
              onInput={(e) => change(s.key, { attributes: e.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for={`plan-${i}-questions`}>
              Questions, one a line<span class="optional"> (optional)</span>
            </label>
            <textarea
              id={`plan-${i}-questions`}
              rows={3}
              value={s.questions}
              onInput={(e) => change(s.key, { questions: e.currentTarget.value })}
            />
          </div>
          <div class="actions">
            {i > 0 && (
              <button type="button" onClick={() => move(i, -1)} aria-label={`Move up step ${i + 1}`}>
                Move up
              </button>
            )}
            {i < steps.length - 1 && (
              <button type="button" onClick={() => move(i, 1)} aria-label={`Move down step ${i + 1}`}>
                Move down
              </button>
            )}
            <button
              type="button"
              onClick={() => {
                setSteps(steps.filter((x) => x.key !== s.key));
                if (steps.length > 1) focusName(Math.max(0, i - 1));
              }}
              aria-label={`Remove step ${i + 1}`}
            >
              Remove
            </button>
          </div>
        </fieldset>
      ))}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            setSteps([
              ...steps,
              {
                key: nextKey++,
                name: '',
                stage: 'interview_scheduled',
                minutes: '45',
                interviewers: [],
                kit: '',
                attributes: '',
                questions: '',
              },
            ]);
            focusName(steps.length);
          }}
        >
          Add a step
        </button>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save the plan'}
        </button>
      </div>
    </form>
  );
}
