/**
 * The stack is composed of concerns (infra/constructs/); their construct ids must not reach the
 * logical ids, or a deployed stack's next update would replace its table, queues, API and
 * functions (and drop the queued messages). The ids below are those of the stack before the
 * split. It reads the run's shared synth of the default stack (test/helpers/stack-synth.ts):
 * bundling changes asset hashes, never logical ids.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from '../helpers/stack-synth';

let resources: Record<string, { Type: string }>;

beforeAll(async () => {
  resources = (await sharedStack()).template.Resources;
}, 300_000);

describe('logical ids survive the split into concerns', () => {
  it.each([
    ['TableCD117FA1', 'AWS::DynamoDB::Table'],
    ['WebhookDeliveryQueue2A244492', 'AWS::SQS::Queue'],
    ['WebhookDeliveryDlq163DBE73', 'AWS::SQS::Queue'],
    ['WebhookStreamFailureQueue9FD05DD9', 'AWS::SQS::Queue'],
    ['ApiF70053CD', 'AWS::ApiGateway::RestApi'],
    ['ApiDeploymentStageprod3EB9684E', 'AWS::ApiGateway::Stage'],
    ['ApiAccessLogsE9DF007D', 'AWS::Logs::LogGroup'],
    ['ListCandidatesFn60DB65ED', 'AWS::Lambda::Function'],
    ['WebhookDeliveryFn35E6A319', 'AWS::Lambda::Function'],
  ])('%s is still the %s', (id, type) => {
    expect(resources[id]?.Type).toBe(type);
  });

  it('no logical id carries a concern construct id', () => {
    for (const id of Object.keys(resources)) expect(id).not.toMatch(/^(Routes|Webhooks|Monitoring|Firewall)[A-Z]/);
  });
});
