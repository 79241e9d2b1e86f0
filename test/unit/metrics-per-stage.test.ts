/**
 * Each stage's metrics are its own (infra/stages.ts serviceName): a dev and a prod stack in one
 * account and region give their functions different POWERTOOLS_SERVICE_NAMEs (the `service`
 * dimension of every EMF metric, lib/metrics.ts), and each stack's alarms and dashboard read only
 * the metrics of its own service. Also: nothing in the template hard-codes the `aws` partition.
 * Template synthesis only, no bundling.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZER_FAILURES_METRIC, METRICS_NAMESPACE } from '../../infra/constructs/monitoring';
import { TalentPipelineStack } from '../../infra/stack';
import { STAGE_NAMES, STAGES, type StageName } from '../../infra/stages';
import { flattenedTemplate } from '../helpers/stack-templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Template = { Resources: Record<string, { Type: string; Properties: Json }> };

const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'metrics-stage-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html><title>Talent Pipeline</title>');

const templates = {} as Record<StageName, Template>;
let outdir: string;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'metrics-stage-'));
  // Both stages in one app, one account and region, as infra/app.ts deploys them (with an env).
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const env = { account: '111111111111', region: 'eu-west-1' };
  const stacks = Object.fromEntries(
    STAGE_NAMES.map((stage) => [stage, new TalentPipelineStack(app, `TalentPipeline-${stage}`, { consoleDir: CONSOLE_DIR, stage, env })]),
  ) as Record<StageName, TalentPipelineStack>;
  const assembly = app.synth();
  for (const stage of STAGE_NAMES) templates[stage] = flattenedTemplate(assembly.directory, stacks[stage].artifactId);
}, 180_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(CONSOLE_DIR, { recursive: true, force: true });
});

const ofType = (t: Template, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);
const other = (stage: StageName): StageName => (stage === 'dev' ? 'prod' : 'dev');

/** Every metric an alarm reads: its own, or each one of its math expression. */
function alarmMetrics(alarm: Json): { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] }[] {
  const p = alarm.Properties;
  if (p.MetricName) return [{ Namespace: p.Namespace, MetricName: p.MetricName, Dimensions: p.Dimensions }];
  return (p.Metrics ?? []).filter((m: Json) => m.MetricStat).map((m: Json) => m.MetricStat.Metric);
}

/** The dashboard body as one string, references left as they are. */
function dashboardBody(t: Template): string {
  const [[, d]] = ofType(t, 'AWS::CloudWatch::Dashboard') as [[string, Json]];
  return JSON.stringify(d.Properties.DashboardBody);
}

/** Every string in a template value, at any depth. */
function strings(v: Json): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

it('the stages have different service names', () => {
  expect(new Set(STAGE_NAMES.map((s) => STAGES[s].serviceName)).size).toBe(STAGE_NAMES.length);
});

describe.each(STAGE_NAMES)('stage %s', (stage) => {
  const service = STAGES[stage].serviceName;
  const otherService = STAGES[other(stage)].serviceName;

  it("gives every function the stage's POWERTOOLS_SERVICE_NAME", () => {
    const fns = ofType(templates[stage], 'AWS::Lambda::Function').filter(([, f]) => String(f.Properties.Runtime).startsWith('nodejs'));
    expect(fns.length).toBeGreaterThan(10);
    for (const [id, f] of fns) expect(f.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME, id).toBe(service);
  });

  it("alarms on the project's namespace read only this stage's service", () => {
    const ours = ofType(templates[stage], 'AWS::CloudWatch::Alarm')
      .flatMap(([, a]) => alarmMetrics(a))
      .filter((m) => m.Namespace === METRICS_NAMESPACE);
    expect(ours.map((m) => m.MetricName)).toContain(AUTHORIZER_FAILURES_METRIC);
    for (const m of ours) expect(m.Dimensions, m.MetricName).toEqual([{ Name: 'service', Value: service }]);
  });

  it('counts authorizer failures per stage: the access log carries the service, the filter keys by it', () => {
    const [[, filter]] = ofType(templates[stage], 'AWS::Logs::MetricFilter') as [[string, Json]];
    const transformation = filter.Properties.MetricTransformations[0];
    expect(transformation).toMatchObject({
      MetricNamespace: METRICS_NAMESPACE,
      MetricName: AUTHORIZER_FAILURES_METRIC,
      Dimensions: [{ Key: 'service', Value: '$.service' }],
    });
    expect(transformation.DefaultValue).toBeUndefined();
    const [[, apiStage]] = ofType(templates[stage], 'AWS::ApiGateway::Stage') as [[string, Json]];
    const line = JSON.parse(apiStage.Properties.AccessLogSetting.Format.replace('$context.error.messageString', '"x"'));
    expect(line.service).toBe(service);
  });

  it("the dashboard's EMF graphs and searches name this stage's service and never the other's", () => {
    const body = dashboardBody(templates[stage]);
    const emf = [...body.matchAll(/\\"TalentPipeline\\",\\"(\w+)\\",\\"service\\",\\"([\w-]+)\\"/g)];
    expect(emf.map((m) => m[1])).toEqual(
      expect.arrayContaining(['EventsFannedOut', 'DeliveriesFailed', 'LoginsFailed', AUTHORIZER_FAILURES_METRIC]),
    );
    for (const [, name, value] of emf) expect(value, name).toBe(service);
    const searches = [...body.matchAll(/SEARCH\('\{TalentPipeline[^']*'/g)].map((m) => m[0]);
    expect(searches.length).toBe(4); // requests per route by 2xx/4xx/5xx, cold starts
    for (const s of searches) expect(s).toContain(`service=\\\\\\"${service}\\\\\\"`);
    expect(body).not.toContain(otherService);
  });

  it('hard-codes no partition: every ARN is built on AWS::Partition', () => {
    const literal = strings(templates[stage]).filter((s) => /\barn:aws[\w-]*:/.test(s));
    expect(literal).toEqual([]);
    // The usage-key policies (infra/constructs/rate-limits.ts) are among those built on the partition.
    const policies = JSON.stringify(ofType(templates[stage], 'AWS::IAM::Policy').map(([, p]) => p.Properties.PolicyDocument));
    expect(policies).toMatch(/"arn:",\{"Ref":"AWS::Partition"\},":apigateway:eu-west-1::\/apikeys/);
  });
});
