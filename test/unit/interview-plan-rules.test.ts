/** The interview plan's rules: stable step ids, interviewers as active members, a copy with ids of its own. */
import { describe, expect, it } from 'vitest';
import type { PlanStepBody } from '../../lib/api/interview-plans';
import { copiedSteps, decidePlanSteps, EMPTY_PLAN, type StoredPlan } from '../../lib/domain/interview-plan-rules';
import { ValidationError } from '../../lib/errors';

const A = '018f0000-0000-7000-8000-00000000000a';
const B = '018f0000-0000-7000-8000-00000000000b';
const GONE = '018f0000-0000-7000-8000-0000000000ff';
const active = new Set([A, B]);
let n = 0;
const newId = () => `018f0000-0000-7000-8000-${String(++n).padStart(12, '0')}`;

const step = (over: Partial<PlanStepBody> = {}): PlanStepBody => ({
  name: 'Technical interview',
  stage: 'interview_scheduled',
  duration_minutes: 60,
  interviewers: [A],
  kit: '## Prepare\n- read the CV',
  scorecard: { attributes: [{ name: 'System design' }], questions: ['What would you change?'] },
  ...over,
});

function refusal(f: () => unknown) {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return { field: (e as ValidationError).field };
  }
  throw new Error('not refused');
}

describe('decidePlanSteps', () => {
  it('gives new steps new ids and keeps the ids of the steps named, whatever their new place', () => {
    const first = decidePlanSteps(EMPTY_PLAN, [step({ name: 'Screen' }), step({ name: 'Onsite' })], active, newId);
    expect(new Set(first.map((s) => s.id)).size).toBe(2);
    const current: StoredPlan = { steps: first, version: 1, updated_at: '2026-01-01T00:00:00.000Z' };
    const next = decidePlanSteps(current, [step({ id: first[1]!.id, name: 'Onsite' }), step({ name: 'Culture' })], active, newId);
    expect(next[0]!.id).toBe(first[1]!.id);
    expect([first[0]!.id, first[1]!.id]).not.toContain(next[1]!.id);
  });

  it('refuses an id that is not a step of this plan, and one given twice, naming the field', () => {
    expect(refusal(() => decidePlanSteps(EMPTY_PLAN, [step(), step({ id: GONE })], active, newId))).toMatchObject({ field: 'steps[1].id' });
    const plan = decidePlanSteps(EMPTY_PLAN, [step()], active, newId);
    const current = { steps: plan, version: 1, updated_at: null };
    expect(refusal(() => decidePlanSteps(current, [step({ id: plan[0]!.id }), step({ id: plan[0]!.id })], active, newId))).toMatchObject({
      field: 'steps[1].id',
    });
  });

  it('refuses an interviewer who is not an active member and keeps each interviewer once', () => {
    expect(refusal(() => decidePlanSteps(EMPTY_PLAN, [step({ interviewers: [A, GONE] })], active, newId))).toMatchObject({
      field: 'steps[0].interviewers[1]',
    });
    expect(decidePlanSteps(EMPTY_PLAN, [step({ interviewers: [B, A, B] })], active, newId)[0]!.interviewers).toEqual([B, A]);
  });
});

describe('copiedSteps', () => {
  it('copies every step with a new id and drops the interviewers who are no longer active', () => {
    const source: StoredPlan = {
      steps: decidePlanSteps(EMPTY_PLAN, [step({ interviewers: [A, B] })], new Set([A, B]), newId),
      version: 3,
      updated_at: null,
    };
    const copy = copiedSteps(source, new Set([B]), newId);
    expect(copy).toEqual([{ ...source.steps[0], id: expect.any(String), interviewers: [B] }]);
    expect(copy[0]!.id).not.toBe(source.steps[0]!.id);
  });
});
