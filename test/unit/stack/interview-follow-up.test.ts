/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the interview
 * follow-up run (infra/constructs/interview-follow-up.ts): its schedule, its nested stack, its
 * alarm, its console link and exactly its grants.
 */
import { describe, expect, it } from 'vitest';
import { INTERVIEW_FOLLOW_UP_MODULE } from '../../../infra/constructs/interview-follow-up';
import {
  dynamoActionsOf,
  FORBIDDEN_ACTIONS,
  functionOf,
  getAtts,
  ofType,
  pascal,
  READ_ACTIONS,
  resources,
  ROUTE_WRITE_ACTIONS,
  statementsOf,
  tableId,
  UNUSED_ACTIONS,
} from './fixture';
import { sharedStack } from '../../helpers/stack-synth';

const rulesOf = (fn: string) =>
  ofType('AWS::Events::Rule').filter(([, r]) => r.Properties.Targets?.some((t: { Arn: unknown }) => getAtts(t.Arn).includes(fn)));

describe('the interview follow-up run', () => {
  it('is invoked every five minutes by one EventBridge rule, and by nothing else', () => {
    const fn = functionOf(INTERVIEW_FOLLOW_UP_MODULE);
    const rules = rulesOf(fn);
    expect(rules).toHaveLength(1);
    const [, rule] = rules[0]!;
    expect(rule.Properties.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rule.Properties.State ?? 'ENABLED').toBe('ENABLED');
    expect(rule.Properties.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 1, MaximumEventAgeInSeconds: 600 });
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => getAtts(p.Properties.FunctionName).includes(fn));
    expect(permissions.map(([, p]) => p.Properties.Principal)).toEqual(['events.amazonaws.com']);
  });

  it('lives in a nested stack of its own with its rule, role and alarm: the root stack holds only that stack', async () => {
    const { stacks } = await sharedStack();
    const fn = functionOf(INTERVIEW_FOLLOW_UP_MODULE);
    const ruleId = rulesOf(fn)[0]![0];
    const alarmId = ofType('AWS::CloudWatch::Alarm').find(([id]) =>
      id.startsWith(`${pascal(INTERVIEW_FOLLOW_UP_MODULE)}ErrorsOrThrottles`),
    )![0];
    const holding = stacks.filter((st) => fn in st.template.Resources);
    expect(holding.map((st) => st.parent)).toEqual([stacks[0]!.name]);
    const own = holding[0]!.template.Resources;
    expect(Object.keys(own)).toEqual(expect.arrayContaining([fn, ruleId, alarmId, resources[fn]!.Properties.Role['Fn::GetAtt'][0]]));
    expect(ofType('AWS::Lambda::Function', own)).toHaveLength(1);
    expect(holding[0]!.name).toMatch(/^InterviewFollowUps/);
    expect(resources[fn]!.Properties.Environment.Variables.CONSOLE_URL).toBeDefined();
  }, 300_000);

  it("has the route functions' write access on the table and its indexes, nothing more (no Scan, no batch writes)", () => {
    const fn = functionOf(INTERVIEW_FOLLOW_UP_MODULE);
    expect(dynamoActionsOf(fn)).toEqual([...READ_ACTIONS, ...ROUTE_WRITE_ACTIONS].sort());
    for (const a of [...FORBIDDEN_ACTIONS, ...UNUSED_ACTIONS]) expect(dynamoActionsOf(fn)).not.toContain(a);
    for (const st of statementsOf(fn).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')))) {
      expect(getAtts(st.Resource).every((id) => id === tableId())).toBe(true);
    }
  });
});
