/**
 * Stages (infra/stages.ts): dev and prod stacks side by side in one account, differing in what
 * they keep. Template synthesis only, no bundling.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TalentPipelineStack } from '../../infra/stack';
import { flag, stageNamed, STAGES } from '../../infra/stages';
import { flattenedTemplate } from '../helpers/stack-templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Resources = Record<string, { Type: string; Properties: Json; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'stages-test-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html><title>Talent Pipeline</title>');

const templates: Record<'dev' | 'prod', { Resources: Resources }> = {} as never;
let outdir: string;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'stages-test-'));
  // Both stages in one app, one account and region: what a team with a dev and a prod stack has.
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const env = { account: '111111111111', region: 'eu-west-1' };
  const stacks = {
    dev: new TalentPipelineStack(app, 'TalentPipeline-dev', { consoleDir: CONSOLE_DIR, stage: 'dev', env }),
    prod: new TalentPipelineStack(app, 'TalentPipeline-prod', { consoleDir: CONSOLE_DIR, stage: 'prod', env }),
  };
  const assembly = app.synth();
  for (const stage of ['dev', 'prod'] as const) templates[stage] = flattenedTemplate(assembly.directory, stacks[stage].artifactId);
}, 180_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(CONSOLE_DIR, { recursive: true, force: true });
});

const ofType = (stage: 'dev' | 'prod', type: string) => Object.entries(templates[stage].Resources).filter(([, r]) => r.Type === type);

describe('stages', () => {
  it('prod keeps the table (retained, deletion protection); dev deletes it with the stack', () => {
    const [[, prod]] = ofType('prod', 'AWS::DynamoDB::Table') as [[string, Resources[string]]];
    expect(prod.DeletionPolicy).toBe('Retain');
    expect(prod.UpdateReplacePolicy).toBe('Retain');
    expect(prod.Properties.DeletionProtectionEnabled).toBe(true);
    const [[, dev]] = ofType('dev', 'AWS::DynamoDB::Table') as [[string, Resources[string]]];
    expect(dev.DeletionPolicy).toBe('Delete');
    expect(dev.Properties.DeletionProtectionEnabled).toBe(false);
    // Point-in-time recovery either way: a dev table can hold a team's test data too.
    expect(dev.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  it('log retention follows the stage: a week in dev; a month, and three for access logs, in prod', () => {
    const retention = (stage: 'dev' | 'prod') => new Set(ofType(stage, 'AWS::Logs::LogGroup').map(([, g]) => g.Properties.RetentionInDays));
    expect(STAGES.dev.logRetention).toBe(7);
    expect([...retention('dev')]).toEqual([7]);
    expect([...retention('prod')].sort()).toEqual([30, 90]);
    for (const [id, g] of ofType('dev', 'AWS::Logs::LogGroup')) expect(g.DeletionPolicy, id).toBe('Delete');
    for (const [id, g] of ofType('prod', 'AWS::Logs::LogGroup')) expect(g.DeletionPolicy, id).toBe('Retain');
    // Every log group has a retention: none keeps logs forever.
    for (const stage of ['dev', 'prod'] as const) {
      for (const [id, g] of ofType(stage, 'AWS::Logs::LogGroup')) expect(g.Properties.RetentionInDays, id).toBeGreaterThan(0);
    }
  });

  it('no physical name is fixed, so the two stacks do not collide', () => {
    // Properties that name a resource account- or region-wide.
    const NAME_PROPS = [
      'TableName',
      'FunctionName',
      'QueueName',
      'TopicName',
      'BucketName',
      'RoleName',
      'DashboardName',
      'AlarmName',
      'LogGroupName',
      'Name',
      'SecretName',
    ];
    const names = (stage: 'dev' | 'prod') =>
      Object.values(templates[stage].Resources).flatMap((r) =>
        Object.entries(r.Properties ?? {})
          // A reference (Ref, GetAtt) names a resource of the same stack; only literals can collide.
          .filter(([k, v]) => NAME_PROPS.includes(k) && typeof v === 'string')
          .map(([k, v]) => `${r.Type}.${k}=${JSON.stringify(v)}`),
      );
    const dev = new Set(names('dev'));
    const shared = names('prod').filter((n) => dev.has(n));
    expect(shared).toEqual([]);
    // The API's name is the stack's: API Gateway keys its metrics by API name.
    const [[, api]] = ofType('dev', 'AWS::ApiGateway::RestApi') as [[string, Resources[string]]];
    expect(api.Properties.Name).toBe('TalentPipeline-dev');
  });

  it('a stage other than dev or prod is refused, and boolean flags accept only true or false', () => {
    expect(stageNamed('prod')).toBe('prod');
    expect(() => stageNamed('staging')).toThrow(/-c stage=dev\|prod/);
    expect(() => stageNamed(undefined)).toThrow();
    expect(flag(undefined, true)).toBe(true);
    expect(flag('false', true)).toBe(false);
    expect(flag('true', false)).toBe(true);
    expect(() => flag('off', true)).toThrow(/true or false/);
  });
});
