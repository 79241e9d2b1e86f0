/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the daily retention
 * run (infra/constructs/retention.ts): its schedule, its alarm and exactly its grants.
 */
import { describe, expect, it } from 'vitest';
import { RETENTION_MODULE } from '../../../infra/constructs/retention';
import { ERASURE_FOLLOW_UP_KIND } from '../../../lib/model';
import {
  dynamoActionsOf,
  FORBIDDEN_ACTIONS,
  functionOf,
  getAtts,
  type Json,
  ofType,
  pascal,
  READ_ACTIONS,
  ROUTE_WRITE_ACTIONS,
  statementsOf,
  tableId,
  UNUSED_ACTIONS,
} from './fixture';

const rulesOf = (fn: string) =>
  ofType('AWS::Events::Rule').filter(([, r]) => r.Properties.Targets?.some((t: { Arn: unknown }) => getAtts(t.Arn).includes(fn)));

describe('the retention run', () => {
  it('is invoked once a day by an EventBridge rule, retried twice', () => {
    const fn = functionOf(RETENTION_MODULE);
    const rules = rulesOf(fn).filter(([, r]) => r.Properties.ScheduleExpression.startsWith('cron('));
    expect(rules).toHaveLength(1);
    const [, rule] = rules[0]!;
    expect(rule.Properties.ScheduleExpression).toBe('cron(17 3 * * ? *)');
    expect(rule.Properties.State ?? 'ENABLED').toBe('ENABLED');
    expect(rule.Properties.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600 });
    // EventBridge's own event: the rules run.
    expect(rule.Properties.Targets[0].Input).toBeUndefined();
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => getAtts(p.Properties.FunctionName).includes(fn));
    expect(permissions.map(([, p]) => p.Properties.Principal)).toEqual(['events.amazonaws.com', 'events.amazonaws.com']);
  });

  it("runs the erasures' follow-up sweeps every minute: a second rule, on the same function, with the follow-up event", () => {
    const fn = functionOf(RETENTION_MODULE);
    const rules = rulesOf(fn);
    // The daily rules and the follow-ups: nothing else invokes it.
    expect(rules).toHaveLength(2);
    const [[, rule]] = rules.filter(([, r]) => r.Properties.ScheduleExpression.startsWith('rate(')) as [[string, Json]];
    expect(rule.Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(rule.Properties.State ?? 'ENABLED').toBe('ENABLED');
    expect(rule.Properties.Targets).toHaveLength(1);
    expect(JSON.parse(rule.Properties.Targets[0].Input)).toEqual({ kind: ERASURE_FOLLOW_UP_KIND });
    expect(rule.Properties.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 600 });
  });

  it('alarms on its errors', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith(`${pascal(RETENTION_MODULE)}ErrorsOrThrottles`));
    expect(alarms).toHaveLength(1);
  });

  it("has the route functions' write access on the table and its indexes, nothing more (no Scan, no batch writes)", () => {
    const fn = functionOf(RETENTION_MODULE);
    expect(dynamoActionsOf(fn)).toEqual([...READ_ACTIONS, ...ROUTE_WRITE_ACTIONS].sort());
    for (const a of [...FORBIDDEN_ACTIONS, ...UNUSED_ACTIONS]) expect(dynamoActionsOf(fn)).not.toContain(a);
    for (const st of statementsOf(fn).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')))) {
      // The table, and its indexes (the copy index, the rejected stage, the change feed).
      expect(getAtts(st.Resource).every((id) => id === tableId())).toBe(true);
    }
  });
});
