/**
 * The interview plan's rules, pure: a step named by id keeps that id (so interviews scheduled on it
 * stay on it across edits), a new step gets a new one, the default interviewers are active
 * members, and a copy takes the other plan's steps with ids of its own.
 */
import { ValidationError } from '../errors';
import type { PlanStep, PlanStepBody } from '../api/interview-plans';

/** A plan as stored: its steps and how many times it was written. */
export interface StoredPlan {
  steps: PlanStep[];
  version: number;
  updated_at: string | null;
}

export const EMPTY_PLAN: StoredPlan = { steps: [], version: 0, updated_at: null };

/**
 * The steps a PUT makes of the plan as it is: the ids given must be steps of that plan, each
 * once; the interviewers active members (`active`), each once per step. A 400 names the field.
 */
export function decidePlanSteps(
  current: StoredPlan,
  input: readonly PlanStepBody[],
  active: ReadonlySet<string>,
  newId: () => string,
): PlanStep[] {
  const known = new Set(current.steps.map((s) => s.id));
  const used = new Set<string>();
  return input.map((s, i) => {
    if (s.id !== undefined) {
      if (!known.has(s.id))
        throw new ValidationError(`steps[${i}].id must be the id of a step of this plan; leave it out for a new step`, {
          field: `steps[${i}].id`,
        });
      if (used.has(s.id)) throw new ValidationError(`steps[${i}].id names a step already given`, { field: `steps[${i}].id` });
      used.add(s.id);
    }
    const bad = s.interviewers.findIndex((id) => !active.has(id));
    if (bad >= 0)
      throw new ValidationError(`steps[${i}].interviewers[${bad}] must be the id of an active member of this workspace`, {
        field: `steps[${i}].interviewers[${bad}]`,
      });
    return {
      id: s.id ?? newId(),
      name: s.name,
      stage: s.stage,
      duration_minutes: s.duration_minutes,
      interviewers: [...new Set(s.interviewers)],
      kit: s.kit,
      scorecard: { attributes: s.scorecard.attributes.map((a) => ({ name: a.name })), questions: [...s.scorecard.questions] },
    };
  });
}

/**
 * Another plan's steps for this requisition: new ids (a step id names one plan's step), and the
 * default interviewers who are still active members.
 */
export const copiedSteps = (source: StoredPlan, active: ReadonlySet<string>, newId: () => string): PlanStep[] =>
  source.steps.map((s) => ({ ...s, id: newId(), interviewers: s.interviewers.filter((id) => active.has(id)) }));
