/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the interview
 * follow-up runs (infra/constructs/interview-follow-up.ts): the move to interviewed and the
 * scorecard reminders, their schedules, their nested stack, their alarms, the reminders' mail and
 * console link, exactly their grants, and their bundles against the 400 KB budget (the reminders
 * deploy only with a mail domain, which the shared synth has not, so the bundle test of every
 * function does not see them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERVIEW_MOVES_MODULE, SCORECARD_REMINDERS_MODULE } from '../../../infra/constructs/interview-follow-up';
import { bundle } from '../../../scripts/bench/bundles';
import {
  appFunctions,
  type CfnResource,
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
  synthTemplate,
  tableId,
  UNUSED_ACTIONS,
} from './fixture';
import { sharedStack } from '../../helpers/stack-synth';

const rulesOf = (fn: string, res = resources) =>
  ofType('AWS::Events::Rule', res).filter(([, r]) => r.Properties.Targets?.some((t: { Arn: unknown }) => getAtts(t.Arn).includes(fn)));
const actionsNaming = (res: Record<string, CfnResource>, fnId: string) => {
  const role = getAtts(res[fnId]!.Properties.Role)[0]!;
  return ofType('AWS::IAM::Policy', res)
    .filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Condition?: unknown }[]);
};

describe('the move to interviewed', () => {
  it('is invoked every five minutes by one EventBridge rule, and by nothing else', () => {
    const fn = functionOf(INTERVIEW_MOVES_MODULE);
    const rules = rulesOf(fn);
    expect(rules).toHaveLength(1);
    const [, rule] = rules[0]!;
    expect(rule.Properties.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rule.Properties.State ?? 'ENABLED').toBe('ENABLED');
    expect(rule.Properties.Targets[0].RetryPolicy).toEqual({ MaximumRetryAttempts: 1, MaximumEventAgeInSeconds: 600 });
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => getAtts(p.Properties.FunctionName).includes(fn));
    expect(permissions.map(([, p]) => p.Properties.Principal)).toEqual(['events.amazonaws.com']);
  });

  it('lives in the nested stack InterviewFollowUps with its rule, role and alarm: the root stack holds only that stack', async () => {
    const { stacks } = await sharedStack();
    const fn = functionOf(INTERVIEW_MOVES_MODULE);
    const ruleId = rulesOf(fn)[0]![0];
    const alarmId = ofType('AWS::CloudWatch::Alarm').find(([id]) =>
      id.startsWith(`${pascal(INTERVIEW_MOVES_MODULE)}ErrorsOrThrottles`),
    )![0];
    const holding = stacks.filter((st) => fn in st.template.Resources);
    expect(holding.map((st) => st.parent)).toEqual([stacks[0]!.name]);
    const own = holding[0]!.template.Resources;
    expect(Object.keys(own)).toEqual(expect.arrayContaining([fn, ruleId, alarmId, resources[fn]!.Properties.Role['Fn::GetAtt'][0]]));
    // Without a mail domain the reminders are not deployed: the move is the stack's one function.
    expect(ofType('AWS::Lambda::Function', own)).toHaveLength(1);
    expect(appFunctions().filter(([id]) => id.startsWith(`${pascal(SCORECARD_REMINDERS_MODULE)}Fn`))).toEqual([]);
    expect(holding[0]!.name).toMatch(/^InterviewFollowUps/);
  }, 300_000);

  it("has the route functions' write access on the table and its indexes, nothing more (no Scan, no batch writes, no mail)", () => {
    const fn = functionOf(INTERVIEW_MOVES_MODULE);
    expect(dynamoActionsOf(fn)).toEqual([...READ_ACTIONS, ...ROUTE_WRITE_ACTIONS].sort());
    for (const a of [...FORBIDDEN_ACTIONS, ...UNUSED_ACTIONS]) expect(dynamoActionsOf(fn)).not.toContain(a);
    for (const st of statementsOf(fn).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('dynamodb:')))) {
      expect(getAtts(st.Resource).every((id) => id === tableId())).toBe(true);
    }
    expect(
      statementsOf(fn)
        .flatMap((s) => [s.Action].flat())
        .filter((a: string) => a.startsWith('ses:')),
    ).toEqual([]);
  });
});

describe('the scorecard reminders, with a mail domain', () => {
  let withMail: Record<string, CfnResource>;
  beforeAll(() => {
    withMail = synthTemplate({ mailDomain: 'talent.example' });
  }, 300_000);

  it('send from the stack address only, with the console link, invoked every five minutes by their own rule, beside the move', () => {
    const fn = functionOf(SCORECARD_REMINDERS_MODULE, withMail);
    const moves = functionOf(INTERVIEW_MOVES_MODULE, withMail);
    const vars = withMail[fn]!.Properties.Environment.Variables;
    expect(vars.MAIL_FROM).toBe('no-reply@talent.example');
    expect(vars.CONSOLE_URL).toBeDefined();
    const ses = actionsNaming(withMail, fn).filter((s) => [s.Action].flat().includes('ses:SendEmail'));
    expect(ses).toHaveLength(1);
    expect(ses[0]!.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'no-reply@talent.example' } });
    const rules = rulesOf(fn, withMail);
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rulesOf(moves, withMail).map(([id]) => id)).not.toContain(rules[0]![0]);
    // The move sends nothing, with a mail domain too.
    expect(
      actionsNaming(withMail, moves)
        .flatMap((s) => [s.Action].flat())
        .filter((a) => a.startsWith('ses:')),
    ).toEqual([]);
    expect(withMail[moves]!.Properties.Environment.Variables.MAIL_FROM).toBeUndefined();
    expect(
      ofType('AWS::CloudWatch::Alarm', withMail).some(([id]) => id.startsWith(`${pascal(SCORECARD_REMINDERS_MODULE)}ErrorsOrThrottles`)),
    ).toBe(true);
  });
});

describe('the bundles of the two runs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'follow-up-bundles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([INTERVIEW_MOVES_MODULE, SCORECARD_REMINDERS_MODULE])(
    '%s is within the 400 KB budget, and carries only its own half',
    async (module) => {
      const built = await bundle(module, path.join(dir, `${module}.mjs`));
      expect(built.bytes).toBeLessThanOrEqual(400 * 1024);
      const packages = built.byPackage.map(([p]) => p);
      if (module === INTERVIEW_MOVES_MODULE) expect(packages).not.toContain('@aws-sdk/client-sesv2');
      else expect(packages).toContain('@aws-sdk/client-sesv2');
    },
    120_000,
  );
});
