/**
 * An existing deployment must update in place, losing nothing. Two splits happened: the stack into
 * concerns (infra/constructs/concern.ts), whose ids stay out of the logical ids, and the route
 * functions into nested stacks by resource (infra/constructs/route-stacks.ts). The ids below are
 * those of the single stack before either: what holds data (the table, the queues with their
 * messages, the console bucket, the origin secret, the logs of the API) or a name someone relies
 * on (the API and its stage, in every integrator's base URL; the usage plan holding every token's
 * key; the distribution, the console's address; the alarm topic with its subscriptions; the
 * dashboard's fixed name) keeps its logical id in the same stack, so CloudFormation updates it in
 * place. What moved to the nested stacks is replaced on the first deploy of the split, which is
 * safe only for what holds nothing: that is pinned too. It reads the run's shared synth
 * (test/helpers/stack-synth.ts): bundling changes asset hashes, never logical ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { API_METHOD_STACK_ID, inRootStack, ROOT_METHODS } from '../../infra/constructs/api-method-stacks';
import { routes } from '../../lib/routes';
import { sharedStack } from '../helpers/stack-synth';
import type { StackTemplate } from '../helpers/stack-templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Resources = Record<string, { Type: string; Properties: any; DeletionPolicy?: string }>;

let stacks: StackTemplate[];
let root: Resources;

beforeAll(async () => {
  stacks = (await sharedStack()).stacks;
  root = stacks[0]!.template.Resources;
}, 300_000);

/** What holds data or a name in the single stack, by its logical id there. */
const KEPT: Array<[id: string, type: string]> = [
  ['TableCD117FA1', 'AWS::DynamoDB::Table'],
  ['WebhookDeliveryQueue2A244492', 'AWS::SQS::Queue'],
  ['WebhookDeliveryDlq163DBE73', 'AWS::SQS::Queue'],
  ['WebhookStreamFailureQueue9FD05DD9', 'AWS::SQS::Queue'],
  ['WebhookStreamFailureDlq3AB22685', 'AWS::SQS::Queue'],
  ['ImportQueueB0839EEE', 'AWS::SQS::Queue'],
  ['ImportDlqE3DFB796', 'AWS::SQS::Queue'],
  ['ConsoleBucket86B6957C', 'AWS::S3::Bucket'],
  ['ConsoleOriginVerify6CCDE800', 'AWS::SecretsManager::Secret'],
  ['ConsoleDistribution022D3262', 'AWS::CloudFront::Distribution'],
  ['ApiF70053CD', 'AWS::ApiGateway::RestApi'],
  ['ApiDeploymentStageprod3EB9684E', 'AWS::ApiGateway::Stage'],
  ['ApiAccountA18C9B29', 'AWS::ApiGateway::Account'],
  ['ApiCloudWatchRole73EC6FC4', 'AWS::IAM::Role'],
  ['ApiAccessLogsE9DF007D', 'AWS::Logs::LogGroup'],
  ['ApiExecutionLogs66FBF5B8', 'AWS::Logs::LogGroup'],
  ['TokenRateLimitsTokenPlanA8AC51B1', 'AWS::ApiGateway::UsagePlan'],
  ['WebAcl', 'AWS::WAFv2::WebACL'],
  ['AlarmTopicD01E77F9', 'AWS::SNS::Topic'],
  ['Dashboard9E4231ED', 'AWS::CloudWatch::Dashboard'],
  // Consumers of the table stream and the queues: a new mapping would start at the stream's
  // latest record (LATEST) and briefly read beside the old one.
  ['WebhookDeliveryFn35E6A319', 'AWS::Lambda::Function'],
  ['WebhookFanoutFn8653EF1C', 'AWS::Lambda::Function'],
  ['StuckReindexFn1029E91C', 'AWS::Lambda::Function'],
  ['ImportWorkerFnFC77EA2F', 'AWS::Lambda::Function'],
];

/**
 * All a nested stack may hold: what the first deploy of the split replaces and the next update
 * may replace again (a route moving to another nested stack), without losing anything. Its log
 * groups are the stage's (kept in prod), so the replaced function's logs stay where they were.
 */
const REPLACEABLE = [
  'AWS::Lambda::Function',
  'AWS::IAM::Role',
  'AWS::IAM::Policy',
  'AWS::Logs::LogGroup',
  'AWS::Lambda::Permission',
  'AWS::CloudWatch::Alarm',
];

describe('an existing stack updates in place', () => {
  it.each(KEPT)('%s is still the %s, in the stack itself', (id, type) => {
    expect(root[id]?.Type).toBe(type);
  });

  it('the nested stacks hold only what can be replaced without loss', () => {
    const nested = stacks.filter((s) => s.parent);
    expect(nested.length).toBeGreaterThan(0);
    for (const s of nested) {
      // The API's methods and path segments outside the stack itself are created in place once and
      // never moved (infra/constructs/api-method-stacks.ts); a schedule or a bucket rule replaced
      // fires from its new copy, and the runs they start catch up on what is due.
      const allowed = s.name.startsWith(`${API_METHOD_STACK_ID}NestedStack`)
        ? ['AWS::ApiGateway::Method', 'AWS::ApiGateway::Resource']
        : [...REPLACEABLE, 'AWS::Events::Rule'];
      for (const [id, r] of Object.entries<{ Type: string }>(s.template.Resources)) expect(allowed, `${s.name} ${id}`).toContain(r.Type);
    }
  });

  it('the stack keeps exactly the methods it held (ROOT_METHODS); every other method is in the nested stack', () => {
    const methodsOf = (resources: Resources) => Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::Method').length;
    const kept = routes.filter(inRootStack);
    expect(methodsOf(root)).toBe(kept.length);
    const nested = stacks.find((s) => s.name.startsWith(`${API_METHOD_STACK_ID}NestedStack`))!;
    // And the CORS preflights, which the stack did not hold either.
    expect(methodsOf(nested.template.Resources)).toBe(routes.length - kept.length + routes.filter((r) => r.cors).length);
  });

  it('ROOT_METHODS names only routes of the table: a removed route leaves it', () => {
    const inTable = new Set(routes.map((r) => `${r.method} ${r.path}`));
    const listed = Object.entries(ROOT_METHODS).flatMap(([path, methods]) => methods.map((m) => `${m} ${path}`));
    expect(listed.filter((l) => !inTable.has(l))).toEqual([]);
  });

  it('a route function keeps its logical id inside its nested stack (ListCandidates in FunctionsCandidates)', () => {
    const candidates = stacks.find((s) => s.name.startsWith('FunctionsCandidatesNestedStack'));
    expect(candidates?.template.Resources.ListCandidatesFn60DB65ED?.Type).toBe('AWS::Lambda::Function');
    expect(root.ListCandidatesFn60DB65ED).toBeUndefined();
  });

  it('a method names its route function by an output named after the function, so replacing it redeploys the stage', () => {
    // A replaced function changes this template only through the output's name; the deployment's
    // logical id follows the template, and a stage left on the old deployment would call the
    // deleted function.
    const methods = Object.values(root).filter((r) => r.Type === 'AWS::ApiGateway::Method');
    expect(methods.length).toBeGreaterThan(0);
    for (const m of methods) {
      const getAtt = JSON.stringify(m.Properties.Integration.Uri).match(/"Fn::GetAtt":\["(\w+)","Outputs\.(\w+)"\]/);
      expect(getAtt, JSON.stringify(m.Properties.Integration.Uri)).not.toBeNull();
      const [, stackId, output] = getAtt!;
      expect(root[stackId!]?.Type).toBe('AWS::CloudFormation::Stack');
      const nested = stacks.find((s) => s.name === stackId)!;
      const [fnId, attribute] = nested.template.Outputs[output!].Value['Fn::GetAtt'];
      expect([nested.template.Resources[fnId]?.Type, attribute]).toEqual(['AWS::Lambda::Function', 'Arn']);
      // `ListCandidatesFn60DB65ED` is named in `...FunctionsCandidatesListCandidatesFn<hash>Arn`.
      expect(output).toContain(fnId.replace(/[0-9A-F]{8}$/, ''));
    }
  });

  it('the origin secret reaches a nested stack as its ARN, never as its value', () => {
    // A `{{resolve:...}}` passed as a nested stack parameter would be resolved in the parent, and
    // the value would show among the nested stack's parameters (DescribeStacks, the console).
    const passed = Object.values<{ Type: string; Properties: { Parameters?: object } }>(root)
      .filter((r) => r.Type === 'AWS::CloudFormation::Stack')
      .map((r) => JSON.stringify(r.Properties.Parameters ?? {}));
    expect(passed.length).toBeGreaterThan(0);
    for (const parameters of passed) expect(parameters).not.toContain('{{resolve:');
    const readers = stacks.filter((s) => s.parent && JSON.stringify(s.template).includes('{{resolve:secretsmanager:'));
    expect(readers.length).toBeGreaterThan(0);
  });

  it('no logical id carries a concern construct id', () => {
    for (const s of stacks) {
      for (const id of Object.keys(s.template.Resources)) expect(id).not.toMatch(/^(Routes|Webhooks|Monitoring|Firewall)[A-Z]/);
    }
  });
});
