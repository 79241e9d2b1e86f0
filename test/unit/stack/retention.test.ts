/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the daily retention
 * run (infra/constructs/retention.ts): its schedule, its alarm and exactly its grants.
 */
import { describe, expect, it } from 'vitest';
import { RETENTION_MODULE } from '../../../infra/constructs/retention';
import {
  dynamoActionsOf,
  FORBIDDEN_ACTIONS,
  functionOf,
  getAtts,
  ofType,
  pascal,
  READ_ACTIONS,
  ROUTE_WRITE_ACTIONS,
  statementsOf,
  tableId,
  UNUSED_ACTIONS,
} from './fixture';

describe('the retention run', () => {
  it('is invoked once a day by an EventBridge rule, retried twice', () => {
    const fn = functionOf(RETENTION_MODULE);
    const rules = ofType('AWS::Events::Rule').filter(([, r]) =>
      r.Properties.Targets?.some((t: { Arn: unknown }) => getAtts(t.Arn).includes(fn)),
    );
    expect(rules).toHaveLength(1);
    const [, rule] = rules[0]!;
    expect(rule.Properties.ScheduleExpression).toBe('cron(17 3 * * ? *)');
    expect(rule.Properties.State ?? 'ENABLED').toBe('ENABLED');
    expect(rule.Properties.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21600 });
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => getAtts(p.Properties.FunctionName).includes(fn));
    expect(permissions.map(([, p]) => p.Properties.Principal)).toEqual(['events.amazonaws.com']);
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
