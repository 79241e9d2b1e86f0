/**
 * The stack is composed of concerns (infra/constructs/); their construct ids must not reach the
 * logical ids, or a deployed stack's next update would replace its table, queues, API and
 * functions (and drop the queued messages). The ids below are those of the stack before the
 * split; template synthesis only, no bundling.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TalentPipelineStack } from '../../infra/stack';

const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'split-test-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html><title>Talent Pipeline</title>');

let resources: Record<string, { Type: string }>;
let outdir: string;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'split-test-'));
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new TalentPipelineStack(app, 'TalentPipeline', { consoleDir: CONSOLE_DIR });
  resources = app.synth().getStackArtifact(stack.artifactId).template.Resources;
}, 120_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(CONSOLE_DIR, { recursive: true, force: true });
});

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
