/**
 * A blank AWS account must take the stack as it is (`cdk bootstrap`, then `cdk deploy`): every
 * synthesized template of the stack and its nested stacks (the run's shared synth,
 * test/helpers/stack-synth.ts) is held to the services' published hard limits and known
 * refusals (test/helpers/deploy-limits.ts, each with the AWS documentation page that states it).
 * Each check is also shown to catch a broken copy, so none passes for want of looking. Prints each
 * stack's resource count beside the goal of 400 (docs/deploying.md, "Stacks").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { API_METHOD_STACK_ID } from '../../infra/constructs/api-method-stacks';
import { MAX_FUNCTIONS_PER_ROUTE_STACK } from '../../infra/constructs/route-stacks';
import { type Deployed, LIMITS, ofType, RESOURCE_GOAL, resourcesOf, stackLabel } from '../helpers/deploy-limits';
import { sharedStack } from '../helpers/stack-synth';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

let deployed: Deployed;

beforeAll(async () => {
  const shared = await sharedStack();
  deployed = { stacks: shared.stacks, flat: shared.template.Resources };
}, 300_000);

const limit = (name: string) => {
  const found = LIMITS.filter((l) => l.name.startsWith(name));
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

describe('the synthesized stacks deploy into a blank account', () => {
  it('prints each stack’s resources beside the goal', () => {
    const rows = deployed.stacks.map((s) => [stackLabel(s), Object.keys(resourcesOf(s)).length] as const);
    const width = Math.max(...rows.map(([name]) => name.length));
    // A new route adds nothing to the stack itself: its method goes to the nested stack of API
    // methods (infra/constructs/api-method-stacks.ts), its function to a nested stack of functions.
    console.info(
      [
        `Resources per stack (goal: at most ${RESOURCE_GOAL}; CloudFormation refuses more than 500):`,
        ...rows.map(([name, n]) => `  ${name.padEnd(width)}  ${String(n).padStart(3)} / ${RESOURCE_GOAL}`),
      ].join('\n'),
    );
    expect(rows.length).toBeGreaterThan(1);
  });

  it.each(LIMITS.map((l) => [l.name, l.source, l] as const))('%s (AWS docs: "%s")', (_name, _source, l) => {
    expect(l.check(deployed)).toEqual([]);
  });

  it('the nested stack of API methods prints the room it has left', () => {
    // infra/constructs/api-method-stacks.ts: every route the stack itself did not hold has its
    // method there, one resource each, and one more per path segment only it needs.
    const methods = deployed.stacks.find((s) => s.name.startsWith(`${API_METHOD_STACK_ID}NestedStack`));
    expect(methods, 'the nested stack of API methods').toBeDefined();
    const held = Object.keys(resourcesOf(methods!)).length;
    const routesThere = ofType(resourcesOf(methods!), 'AWS::ApiGateway::Method').length;
    expect(routesThere).toBeGreaterThan(0);
    console.info(
      `${stackLabel(methods!)} holds ${routesThere} methods in ${held} resources: room for about ${Math.floor(((RESOURCE_GOAL - held) * routesThere) / held)} more routes.`,
    );
    expect(held).toBeLessThanOrEqual(RESOURCE_GOAL);
  });

  it('a nested stack of route functions stays under the goal even when full', () => {
    // infra/constructs/route-stacks.ts puts at most MAX_FUNCTIONS_PER_ROUTE_STACK functions in one:
    // what a function costs its stack today, times that, must fit.
    const routeStacks = deployed.stacks.filter((s) => /^Functions[A-Z]/.test(s.name));
    expect(routeStacks.length).toBeGreaterThan(0);
    for (const s of routeStacks) {
      const resources = Object.keys(resourcesOf(s)).length;
      const fns = ofType(resourcesOf(s), 'AWS::Lambda::Function').length;
      expect(fns, stackLabel(s)).toBeGreaterThan(0);
      expect(fns, stackLabel(s)).toBeLessThanOrEqual(MAX_FUNCTIONS_PER_ROUTE_STACK);
      expect(Math.ceil((resources / fns) * MAX_FUNCTIONS_PER_ROUTE_STACK), stackLabel(s)).toBeLessThanOrEqual(RESOURCE_GOAL);
    }
  });
});

describe('each check catches what it is for', () => {
  /** A broken copy of the synthesized stacks: `flat` and the templates are separate copies. */
  const broken = (breakIt: (d: Deployed) => void): Deployed => {
    const copy: Deployed = structuredClone(deployed);
    breakIt(copy);
    return copy;
  };
  const first = (d: Deployed, type: string): [string, Json] => ofType(d.flat, type)[0]!;
  const nested = (d: Deployed) => d.stacks.find((s) => s.parent)!;

  const BREAKS: Array<[limit: string, breakIt: (d: Deployed) => void]> = [
    [
      'resources per stack',
      (d) =>
        Object.assign(
          nested(d).template.Resources,
          Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`Extra${i}`, { Type: 'AWS::SNS::Topic' }])),
        ),
    ],
    [
      'outputs, parameters',
      (d) => (d.stacks[0]!.template.Outputs = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`O${i}`, { Value: 'x' }]))),
    ],
    ['template size', (d) => (nested(d).bytes = 1_048_576)],
    ['logical ids', (d) => (d.stacks[0]!.template.Resources['Bad-Id'] = { Type: 'AWS::SNS::Topic' })],
    [
      'every reference',
      (d) => (nested(d).template.Resources.Dangling = { Type: 'AWS::SNS::Topic', Properties: { TopicName: { Ref: 'Nowhere' } } }),
    ],
    ['no exports', (d) => (d.stacks[0]!.template.Outputs.TableName.Export = { Name: 'TableName' })],
    ['nested stacks one level', (d) => (d.stacks[2]!.parent = d.stacks[1]!.name)],
    [
      "a role's inline policies",
      (d) => {
        const [, policy] = first(d, 'AWS::IAM::Policy');
        const statement = { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': ['Queue', 'Arn'] } };
        policy.Properties.PolicyDocument.Statement.push(...Array.from({ length: 30 }, () => statement));
      },
    ],
    [
      'a managed policy',
      (d) =>
        (first(d, 'AWS::IAM::Role')[1].Properties.ManagedPolicyArns = Array.from(
          { length: 11 },
          (_, i) => `arn:aws:iam::aws:policy/P${i}`,
        )),
    ],
    [
      'no wildcard actions',
      (d) =>
        first(d, 'AWS::IAM::Policy')[1].Properties.PolicyDocument.Statement.push({
          Effect: 'Allow',
          Action: 's3:GetObject',
          Resource: '*',
        }),
    ],
    ['environment variables', (d) => (first(d, 'AWS::Lambda::Function')[1].Properties.Environment.Variables.BIG = 'x'.repeat(4_000))],
    ['no reserved', (d) => (first(d, 'AWS::Lambda::Function')[1].Properties.ReservedConcurrentExecutions = 1)],
    [
      "a function's resource-based policy",
      (d) => {
        const [, permission] = first(d, 'AWS::Lambda::Permission');
        for (let i = 0; i < 60; i++) d.flat[`MorePermission${i}`] = structuredClone(permission);
      },
    ],
    [
      'filters per event source mapping',
      (d) =>
        (first(d, 'AWS::Lambda::EventSourceMapping')[1].Properties.FilterCriteria = {
          Filters: Array.from({ length: 6 }, () => ({ Pattern: '{}' })),
        }),
    ],
    [
      "an SQS source queue's visibility timeout",
      (d) => {
        for (const [, q] of ofType(d.flat, 'AWS::SQS::Queue')) q.Properties.VisibilityTimeout = 1;
      },
    ],
    [
      'readers of the table stream',
      (d) => {
        const [, reader] = ofType(d.flat, 'AWS::Lambda::EventSourceMapping').find(([, m]) =>
          JSON.stringify(m.Properties.EventSourceArn).includes('StreamArn'),
        )!;
        d.flat.ThirdReader = structuredClone(reader);
      },
    ],
    [
      'resources (the root included)',
      (d) => {
        const [, authorizer] = first(d, 'AWS::ApiGateway::Authorizer');
        for (let i = 0; i < 10; i++) d.flat[`MoreAuthorizer${i}`] = structuredClone(authorizer);
      },
    ],
    ['a stage that logs', (d) => (first(d, 'AWS::ApiGateway::Stage')[1].DependsOn = [])],
    ['web ACLs are REGIONAL', (d) => (first(d, 'AWS::WAFv2::WebACL')[1].Properties.Scope = 'CLOUDFRONT')],
    [
      'actions per alarm state',
      (d) => (first(d, 'AWS::CloudWatch::Alarm')[1].Properties.AlarmActions = Array.from({ length: 6 }, (_, i) => `arn:aws:sns:::t${i}`)),
    ],
    [
      'targets per rule',
      (d) => (first(d, 'AWS::Events::Rule')[1].Properties.Targets = Array.from({ length: 6 }, (_, i) => ({ Id: `T${i}`, Arn: 'x' }))),
    ],
  ];

  it('every check has a broken copy here', () => {
    expect(LIMITS.map((l) => BREAKS.filter(([name]) => l.name.startsWith(name)).length)).toEqual(LIMITS.map(() => 1));
  });

  it.each(BREAKS)('%s', (name, breakIt) => {
    const l = limit(name);
    expect(l.check(deployed)).toEqual([]);
    expect(l.check(broken(breakIt)).length).toBeGreaterThan(0);
  });
});
