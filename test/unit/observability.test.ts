/**
 * What a deployed stack lets its operators see (infra/constructs/monitoring.ts, route-api.ts,
 * table-function.ts): tracing, execution logs, the alarm topic and every alarm wired to it, and
 * the dashboard with the contract's metric names. Template synthesis only, no bundling.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../lib/routes';
import {
  ALARM_MIN_REQUESTS,
  API_5XX_PERCENT,
  API_P99_MS,
  AUTHORIZER_FAILURES_METRIC,
  DELIVERY_QUEUE_AGE_S,
  ITERATOR_AGE_MS,
  METRICS_NAMESPACE,
} from '../../infra/constructs/monitoring';
import { TalentPipelineStack, type TalentPipelineStackProps } from '../../infra/stack';
import { STAGES } from '../../infra/stages';
import { flattenedTemplate } from '../helpers/stack-templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Resources = Record<string, { Type: string; Properties: Json; DependsOn?: string[] }>;

const CONSOLE_DIR = mkdtempSync(path.join(tmpdir(), 'obs-test-console-'));
mkdirSync(path.join(CONSOLE_DIR, 'assets'));
writeFileSync(path.join(CONSOLE_DIR, 'index.html'), '<!doctype html>');
const dirs: string[] = [];

function synth(props: Partial<TalentPipelineStackProps> = {}): { Resources: Resources; Outputs: Json } {
  const outdir = mkdtempSync(path.join(tmpdir(), 'obs-test-'));
  dirs.push(outdir);
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new TalentPipelineStack(app, 'TalentPipeline', { consoleDir: CONSOLE_DIR, ...props });
  return flattenedTemplate(app.synth().directory, stack.artifactId);
}

let template: { Resources: Resources; Outputs: Json };
let res: Resources;
beforeAll(() => {
  template = synth({ alarmEmail: 'oncall@example.com' });
  res = template.Resources;
}, 120_000);
afterAll(() => {
  for (const d of [...dirs, CONSOLE_DIR]) rmSync(d, { recursive: true, force: true });
});

const ofType = (type: string, r: Resources = res) => Object.entries(r).filter(([, v]) => v.Type === type);
const one = (type: string) => {
  const found = ofType(type);
  expect(found, type).toHaveLength(1);
  return found[0]!;
};
const getAtts = (v: Json): string[] =>
  Array.isArray(v)
    ? v.flatMap(getAtts)
    : v && typeof v === 'object'
      ? Object.entries(v).flatMap(([k, x]) => (k === 'Fn::GetAtt' ? [(x as string[])[0]!] : k === 'Ref' ? [x as string] : getAtts(x)))
      : [];
/** The project's functions: every function but CDK's BucketDeployment handler (Python). */
const appFunctions = () => ofType('AWS::Lambda::Function').filter(([, f]) => String(f.Properties.Runtime).startsWith('nodejs'));
const alarms = () => ofType('AWS::CloudWatch::Alarm');
/** Every metric an alarm reads: its own, or those of its math expression. */
const alarmMetrics = (a: Json): Json[] =>
  a.Properties.MetricName
    ? [a.Properties]
    : (a.Properties.Metrics ?? [])
        .filter((m: Json) => m.MetricStat)
        .map((m: Json) => ({ ...m.MetricStat.Metric, Stat: m.MetricStat.Stat }));
const alarmsOn = (namespace: string, metricName: string) =>
  alarms().filter(([, a]) => alarmMetrics(a).some((m) => m.Namespace === namespace && m.MetricName === metricName));
const dimension = (m: Json, name: string) => m.Dimensions?.find((d: Json) => d.Name === name)?.Value;

describe('tracing and logs', () => {
  it('every function traces actively, and so does the API stage', () => {
    expect(appFunctions().length).toBeGreaterThan(30);
    for (const [id, f] of appFunctions()) expect(f.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
    expect(one('AWS::ApiGateway::Stage')[1].Properties.TracingEnabled).toBe(true);
  });

  it('the stage logs execution errors (never data) into a log group of its own with a retention, made before the stage', () => {
    const [stageId, stage] = one('AWS::ApiGateway::Stage');
    expect(stage.Properties.MethodSettings).toContainEqual(
      expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', LoggingLevel: 'ERROR', DataTraceEnabled: false }),
    );
    const [apiId] = one('AWS::ApiGateway::RestApi');
    const groups = ofType('AWS::Logs::LogGroup').filter(([, g]) =>
      JSON.stringify(g.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_'),
    );
    expect(groups).toHaveLength(1);
    const [groupId, group] = groups[0]!;
    // API Gateway's own name for it: API-Gateway-Execution-Logs_<rest api id>/<stage>.
    expect(group.Properties.LogGroupName).toEqual({
      'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: apiId }, `/${stage.Properties.StageName}`]],
    });
    expect(group.Properties.RetentionInDays).toBe(30);
    expect(res[stageId]!.DependsOn ?? []).toContain(groupId);
  });

  it('each function role may write only its own log group, and traces; no AWS managed policy', () => {
    for (const [id, f] of appFunctions()) {
      const role = getAtts(f.Properties.Role)[0]!;
      expect(res[role]!.Properties.ManagedPolicyArns, id).toBeUndefined();
      const statements = ofType('AWS::IAM::Policy')
        .filter(([, p]) => p.Properties.Roles.some((r: Json) => r.Ref === role))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Json[]);
      const logs = statements.filter((st) => [st.Action].flat().some((a: string) => a.startsWith('logs:')));
      expect(logs, id).toHaveLength(1);
      expect([logs[0].Action].flat().sort(), id).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      expect(getAtts(logs[0].Resource), id).toEqual([f.Properties.LoggingConfig.LogGroup.Ref]);
      const traces = statements.filter((st) => [st.Action].flat().some((a: string) => a.startsWith('xray:')));
      expect(traces, id).toHaveLength(1);
      expect([traces[0].Action].flat().sort(), id).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
      expect(traces[0].Resource, id).toBe('*');
    }
  });
});

describe('alarms', () => {
  it('a topic refusing plain HTTP, with the -c alarmEmail subscription, and every alarm notifies it (alarm and OK)', () => {
    const [topicId] = one('AWS::SNS::Topic');
    const [, sub] = one('AWS::SNS::Subscription');
    expect(sub.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'oncall@example.com', TopicArn: { Ref: topicId } });
    const [, policy] = one('AWS::SNS::TopicPolicy');
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(alarms().length).toBeGreaterThan(40);
    for (const [id, a] of alarms()) {
      expect(a.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(a.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
      expect(a.Properties.AlarmDescription, id).toBeTruthy();
    }
    expect(template.Outputs.AlarmTopicArn.Value).toEqual({ Ref: topicId });
  });

  it('without -c alarmEmail the topic has no subscription', () => {
    const bare = synth();
    expect(Object.values(bare.Resources).filter((r) => r.Type === 'AWS::SNS::Subscription')).toEqual([]);
    expect(Object.values(bare.Resources).filter((r) => r.Type === 'AWS::SNS::Topic')).toHaveLength(1);
  }, 120_000); // a second synth: slow on two shared cores

  it('API: 5XX share of requests (once there are enough) and p99 latency, at the stage', () => {
    const [[, rate]] = alarmsOn('AWS/ApiGateway', '5XXError') as [[string, Json]];
    const expression = rate.Properties.Metrics.find((m: Json) => m.Expression).Expression;
    expect(expression).toContain(`requests >= ${ALARM_MIN_REQUESTS}`);
    expect(expression).toContain('100 * errors / requests');
    expect(rate.Properties.Threshold).toBe(API_5XX_PERCENT);
    expect(
      alarmMetrics(rate)
        .map((m) => m.MetricName)
        .sort(),
    ).toEqual(['5XXError', 'Count']);
    const [[, latency]] = alarmsOn('AWS/ApiGateway', 'Latency') as [[string, Json]];
    expect(latency.Properties.ExtendedStatistic).toBe('p99');
    expect(latency.Properties.Threshold).toBe(API_P99_MS);
    const [stageId] = one('AWS::ApiGateway::Stage');
    for (const a of [rate, latency]) for (const m of alarmMetrics(a)) expect(getAtts(dimension(m, 'Stage'))).toEqual([stageId]);
  });

  it('every function: one alarm on errors plus throttles', () => {
    const fnIds = appFunctions()
      .map(([id]) => id)
      .sort();
    const errorAlarms = alarmsOn('AWS/Lambda', 'Errors');
    const watched = errorAlarms.map(([, a]) => getAtts(alarmMetrics(a).map((m) => dimension(m, 'FunctionName')))[0]).sort();
    expect(watched).toEqual(fnIds);
    for (const [id, a] of errorAlarms) {
      expect(
        alarmMetrics(a)
          .map((m) => m.MetricName)
          .sort(),
        id,
      ).toEqual(['Errors', 'Throttles']);
      expect(a.Properties.Threshold, id).toBe(1);
    }
  });

  it('the webhook pipeline: stream iterator age, oldest delivery message, and each failure queue', () => {
    const [[, iterator]] = alarmsOn('AWS/Lambda', 'IteratorAge') as [[string, Json]];
    expect(iterator.Properties.Threshold).toBe(ITERATOR_AGE_MS);
    const [[, age]] = alarmsOn('AWS/SQS', 'ApproximateAgeOfOldestMessage') as [[string, Json]];
    expect(age.Properties.Threshold).toBe(DELIVERY_QUEUE_AGE_S);
    // The delivery DLQ, the stream-failure queue and its DLQ, and the import's DLQ: the first
    // message alarms. The import queue itself holds runs the worker takes one at a time.
    const depth = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible');
    const queues = ofType('AWS::SQS::Queue').map(([id]) => id);
    const watched = depth.map(([, a]) => getAtts(dimension(a.Properties, 'QueueName'))[0]);
    expect(new Set(watched).size).toBe(4);
    // The queues with an event source mapping: the delivery queue (its age alarms) and the import queue.
    const consumed = ofType('AWS::Lambda::EventSourceMapping').flatMap(([, m]) => getAtts(m.Properties.EventSourceArn));
    const importQueue = consumed.filter((q) => queues.includes(q) && q !== getAtts(dimension(age.Properties, 'QueueName'))[0]);
    expect(importQueue).toHaveLength(1);
    expect(queues.filter((q) => !watched.includes(q)).sort()).toEqual(
      [getAtts(dimension(age.Properties, 'QueueName'))[0], importQueue[0]].sort(),
    );
    for (const [id, a] of depth) expect(a.Properties.Threshold, id).toBe(1);
  });

  it('the table: throttled requests and system errors; the authorizers: failures counted from the access log', () => {
    expect(alarmsOn('AWS/DynamoDB', 'ThrottledRequests')).toHaveLength(1);
    expect(alarmsOn('AWS/DynamoDB', 'SystemErrors')).toHaveLength(1);
    const [[, filter]] = ofType('AWS::Logs::MetricFilter') as [[string, Json]];
    const [accessLogs] = getAtts(one('AWS::ApiGateway::Stage')[1].Properties.AccessLogSetting.DestinationArn);
    expect(filter.Properties.LogGroupName).toEqual({ Ref: accessLogs });
    expect(filter.Properties.FilterPattern).toContain('AUTHORIZER_FAILURE');
    expect(filter.Properties.FilterPattern).toContain('AUTHORIZER_CONFIGURATION_ERROR');
    expect(filter.Properties.MetricTransformations[0]).toMatchObject({
      MetricNamespace: METRICS_NAMESPACE,
      MetricName: AUTHORIZER_FAILURES_METRIC,
    });
    expect(alarmsOn(METRICS_NAMESPACE, AUTHORIZER_FAILURES_METRIC)).toHaveLength(1);
  });
});

describe('dashboard', () => {
  /** The dashboard body with its references replaced by the logical ids they name. */
  const body = () => {
    const [, d] = one('AWS::CloudWatch::Dashboard');
    const parts: Json[] = d.Properties.DashboardBody['Fn::Join'][1];
    return parts.map((p) => (typeof p === 'string' ? p : `<${getAtts(p)[0]}>`)).join('');
  };

  it('is named after the stack and has the golden signals per route from the ApiRequests metric and the request log', () => {
    const [, d] = one('AWS::CloudWatch::Dashboard');
    expect(d.Properties.DashboardName).toBe('TalentPipeline');
    const text = body();
    for (const cls of ['2xx', '4xx', '5xx']) {
      expect(text).toContain(
        `SEARCH('{${METRICS_NAMESPACE},route,service,status_class} MetricName=\\"ApiRequests\\" service=\\"${STAGES.prod.serviceName}\\" status_class=\\"${cls}\\"'`,
      );
    }
    expect(text).toContain('filter message = \\"request completed\\"');
    expect(text).toContain('pct(duration_ms, 99) as p99');
    // The latency query reads every route function's log group.
    const routeModules = new Set(routes.map((r) => r.handler));
    expect((text.match(/SOURCE '/g) ?? []).length).toBe(routeModules.size);
    for (const metric of ['Count', '4XXError', '5XXError', 'Latency']) expect(text).toContain(`"AWS/ApiGateway","${metric}"`);
  });

  it('shows the webhook pipeline with the contract’s metric names, the failure queues and the stream', () => {
    const text = body();
    for (const name of [
      'EventsFannedOut',
      'DeliveriesSucceeded',
      'DeliveriesFailed',
      'DeliveryLatency',
      'EndpointsDisabled',
      'LoginsFailed',
      'Lockouts',
    ]) {
      expect(text, name).toContain(`"${METRICS_NAMESPACE}","${name}","service","${STAGES.prod.serviceName}"`);
    }
    expect(text).toContain(`MetricName=\\"ColdStart\\"`);
    for (const metric of ['ApproximateNumberOfMessagesVisible', 'ApproximateAgeOfOldestMessage', 'IteratorAge'])
      expect(text).toContain(`"${metric}"`);
    for (const [queue] of ofType('AWS::SQS::Queue')) expect(text, queue).toContain(`<${queue}>`);
    expect(template.Outputs.DashboardName.Value).toEqual({ Ref: one('AWS::CloudWatch::Dashboard')[0] });
  });
});
