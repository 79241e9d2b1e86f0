/**
 * The deployed stack as synthesized (test/unit/stack/fixture.ts). This file: the webhook pipeline:
 * the stream mapping, the queues and their DLQs, the dead-letter alarms and their topic, the
 * confined fan-out and delivery roles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import * as sns from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { keys, WEBHOOK_PARTITION_SUFFIX } from '../../../lib/store/table';
import { DEFAULT_RETRY_SCHEDULE_S, DELIVERY_BATCH_SIZE, MAX_RETRY_AFTER_S, maxAttempts, retryDelayS } from '../../../lib/webhooks/config';
import { STREAM_FILTER_PATTERNS } from '../../../lib/webhooks/events';
import {
  DELIVERY_ATTEMPTS,
  DELIVERY_BATCHING_WINDOW,
  DELIVERY_MODULE,
  DELIVERY_TIMEOUT,
  FANOUT_MODULE,
  STREAM_FAILURE_MAX_RECEIVES,
} from '../../../infra/constructs/webhook-pipeline';
import { TalentPipelineStack } from '../../../infra/stack';
import { flattenedTemplate } from '../../helpers/stack-templates';
import {
  actionsOf,
  actionsOn,
  admittedBy,
  builtKeys,
  CONSOLE_DIR,
  deliveryDlqId,
  deliveryQueueId,
  dynamoStatements,
  FORBIDDEN_ACTIONS,
  functionOf,
  getAtts,
  iamLike,
  mappingOf,
  ofType,
  resources,
  streamFailureDlqId,
  streamFailureQueueId,
  tableId,
  UNUSED_ACTIONS,
  type Json,
  type CfnResource,
} from './fixture';

describe('webhook pipeline', () => {
  const fanoutId = () => functionOf(FANOUT_MODULE);
  const deliveryId = () => functionOf(DELIVERY_MODULE);
  const queue = (id: string) => resources[id]!.Properties;

  it('fan-out reads the table stream from LATEST in batches of 100, only the event filter patterns', () => {
    const m = mappingOf(fanoutId());
    expect(m.EventSourceArn).toEqual({ 'Fn::GetAtt': [tableId(), 'StreamArn'] });
    expect(m.StartingPosition).toBe('LATEST');
    expect(m.BatchSize).toBe(100);
    const patterns = m.FilterCriteria.Filters.map((f: Json) => JSON.parse(f.Pattern));
    expect(patterns).toEqual(STREAM_FILTER_PATTERNS);
    // Lambda matches a filter value only inside an array; a bare string would never match.
    const leaves = (v: Json): Json[] => (Array.isArray(v) ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(leaves) : [v]);
    for (const p of patterns) for (const leaf of leaves(p)) expect(Array.isArray(leaf), JSON.stringify(p)).toBe(true);
  });

  it('fan-out isolates and retries failing records, then sends the batch to its own failure queue', () => {
    const m = mappingOf(fanoutId());
    expect(m.BisectBatchOnFunctionError).toBe(true);
    expect(m.MaximumRetryAttempts).toBe(5);
    expect(m.MaximumRecordAgeInSeconds).toBe(86_400);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const failures = streamFailureQueueId();
    expect(failures).not.toBe(deliveryQueueId());
    expect(failures).not.toBe(deliveryDlqId());
    // Lambda sends to the destination with the function's role.
    expect(actionsOn(fanoutId(), failures)).toContain('sqs:SendMessage');
  });

  it('delivery consumes the delivery queue DELIVERY_BATCH_SIZE at a time (as npm start does) and reports failures per message', () => {
    const m = mappingOf(deliveryId());
    expect(m.BatchSize).toBe(DELIVERY_BATCH_SIZE);
    // Lambda refuses batches over 10 without a batching window of at least 1 s.
    if (DELIVERY_BATCH_SIZE > 10) expect(m.MaximumBatchingWindowInSeconds).toBeGreaterThanOrEqual(1);
    expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(m.MaximumBatchingWindowInSeconds ?? 0).toBe(DELIVERY_BATCHING_WINDOW.toSeconds());
    expect(m.FilterCriteria).toBeUndefined();
    expect(resources[deliveryId()]!.Properties.Timeout).toBe(DELIVERY_TIMEOUT.toSeconds());
    // A batch is sent in parallel, each attempt up to 15 s (WEBHOOK_TIMEOUT_MS's ceiling).
    expect(DELIVERY_TIMEOUT.toSeconds()).toBeGreaterThan(15);
  });

  it('every queue and stream consumer reports its failed records alone (lib/lambda.ts answers batchItemFailures)', () => {
    // Without it, Lambda takes a partial answer for success and deletes the failed messages.
    const mappings = ofType('AWS::Lambda::EventSourceMapping');
    expect(mappings.length).toBeGreaterThanOrEqual(4);
    for (const [id, { Properties: m }] of mappings) expect(m.FunctionResponseTypes, id).toEqual(['ReportBatchItemFailures']);
  });

  it('every queue is encrypted and refuses requests without TLS', () => {
    const queues = ofType('AWS::SQS::Queue');
    // The webhook pipeline's four and the import queue with its DLQ.
    expect(queues).toHaveLength(6);
    for (const [id, { Properties: p }] of queues) {
      expect(p.SqsManagedSseEnabled === true || p.KmsMasterKeyId !== undefined, id).toBe(true);
      const policies = ofType('AWS::SQS::QueuePolicy').filter(([, qp]) => qp.Properties.Queues.some((q: Json) => q.Ref === id));
      const denials = policies
        .flatMap(([, qp]) => qp.Properties.PolicyDocument.Statement)
        .filter((st: Json) => st.Effect === 'Deny' && st.Condition?.Bool?.['aws:SecureTransport'] === 'false');
      expect(denials, id).toHaveLength(1);
      expect(denials[0].Action, id).toBe('sqs:*');
    }
  });

  it('the delivery queue redrives only after the last attempt plus two, and its visibility covers six timeouts', () => {
    const q = queue(deliveryQueueId());
    expect(DELIVERY_ATTEMPTS).toBe(maxAttempts());
    expect(q.RedrivePolicy.maxReceiveCount).toBe(maxAttempts() + 2);
    expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(6 * DELIVERY_TIMEOUT.toSeconds() + DELIVERY_BATCHING_WINDOW.toSeconds());
    expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(180);
  });

  it('the delivery queue keeps a message through the longest retry schedule', () => {
    // Every delay at its largest: +20% jitter, or a receiver's Retry-After at the cap, at most 12 h.
    const delays = Array.from(
      { length: maxAttempts() - 1 },
      (_, i) => retryDelayS(i + 1, DEFAULT_RETRY_SCHEDULE_S, MAX_RETRY_AFTER_S * 1000, () => 1)!,
    );
    const longest = delays.reduce((a, b) => a + b, 0) + maxAttempts() * DELIVERY_TIMEOUT.toSeconds();
    // Without it the queue's 4-day default would decide silently.
    expect(queue(deliveryQueueId()).MessageRetentionPeriod).toBeGreaterThan(longest);
  });

  it('both failure queues keep messages 14 days; the stream-failure queue has its own DLQ', () => {
    for (const id of [deliveryDlqId(), streamFailureQueueId(), streamFailureDlqId()]) {
      expect(queue(id).MessageRetentionPeriod, id).toBe(14 * 86_400);
    }
    for (const id of [deliveryDlqId(), streamFailureDlqId()]) expect(queue(id).RedrivePolicy, id).toBeUndefined();
    expect(queue(streamFailureQueueId()).RedrivePolicy.maxReceiveCount).toBe(STREAM_FAILURE_MAX_RECEIVES);
  });

  it('an alarm fires on the first message in either dead-letter queue, and stays quiet without data', () => {
    for (const qid of [deliveryDlqId(), streamFailureQueueId()]) {
      const alarms = ofType('AWS::CloudWatch::Alarm').filter(([, a]) =>
        (a.Properties.Dimensions ?? []).some((d: Json) => d.Name === 'QueueName' && getAtts(d.Value).includes(qid)),
      );
      expect(alarms, qid).toHaveLength(1);
      expect(alarms[0]![1].Properties, qid).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
        Period: 300,
        TreatMissingData: 'notBreaching',
      });
    }
    // The other alarms (API, functions, table, stream, queue age): test/unit/observability.test.ts.
  });

  it('both functions get the queue URLs and nothing local', () => {
    for (const fn of [fanoutId(), deliveryId()]) {
      const env = resources[fn]!.Properties.Environment.Variables;
      expect(env.WEBHOOK_QUEUE_URL, fn).toEqual({ Ref: deliveryQueueId() });
      expect(env.WEBHOOK_DLQ_URL, fn).toEqual({ Ref: deliveryDlqId() });
      expect(env.TABLE_NAME, fn).toEqual({ Ref: tableId() });
    }
  });

  it('fan-out reads tenants and endpoints, writes only kept event bodies in webhook partitions, and may only send to the delivery queue', () => {
    const fn = fanoutId();
    const actions = actionsOf(fn);
    expect(actions).toContain('dynamodb:Query'); // endpoints of a tenant
    expect(actions).toContain('dynamodb:BatchWriteItem'); // kept event bodies
    // Bodies that copy a candidate's data: a transaction of puts with the erasure marker's check.
    expect(actions).toContain('dynamodb:PutItem');
    expect(actions).toContain('dynamodb:ConditionCheckItem');
    for (const a of ['dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Scan', 'dynamodb:PartiQLUpdate', 'dynamodb:PartiQLInsert']) {
      expect(actions).not.toContain(a);
    }
    const stream = ['dynamodb:ListStreams', 'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
    for (const st of dynamoStatements(fn).filter((x) => [x.Action].flat().some((a: string) => !stream.includes(a)))) {
      // Items on the table itself (no index), under a condition on every item's partition key.
      expect(st.Resource).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      const leading = st.Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
      if ([st.Action].flat().includes('dynamodb:BatchWriteItem')) {
        // Endpoints listed and bodies kept, with their copy-ledger entries and under the check of
        // the erasure marker: the webhook partitions only.
        expect([st.Action].flat().sort()).toEqual([
          'dynamodb:BatchWriteItem',
          'dynamodb:ConditionCheckItem',
          'dynamodb:PutItem',
          'dynamodb:Query',
        ]);
        expect(leading).toEqual([`T#*${WEBHOOK_PARTITION_SUFFIX}`]);
        expect(admittedBy(leading[0])).toContain('copyLedger');
        expect(admittedBy(leading[0])).toContain('erasedMarker');
      } else {
        // The tenant item (its slug): GetItem alone, so no Query can list a tenant's candidates or users.
        expect([st.Action].flat()).toEqual(['dynamodb:GetItem']);
        expect(leading).toEqual([keys.tenantPartition('*')]);
      }
    }
    expect(actionsOn(fn, deliveryQueueId())).toContain('sqs:SendMessage');
    expect(actionsOn(fn, deliveryQueueId())).not.toContain('sqs:ReceiveMessage');
    expect(actionsOn(fn, deliveryDlqId())).toEqual([]);
  });

  it('delivery may only Get, batch-get, Query, Put, Update, batch-write and condition-check items in webhook partitions, on the table itself', () => {
    const fn = deliveryId();
    const statements = dynamoStatements(fn);
    expect(statements.length).toBeGreaterThan(0);
    for (const st of statements) {
      expect(st.Effect).toBe('Allow');
      expect(st.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`T#*${WEBHOOK_PARTITION_SUFFIX}`] } });
      // The table only: no index, no stream.
      expect(st.Resource).toEqual({ 'Fn::GetAtt': [tableId(), 'Arn'] });
      // BatchWriteItem: a delivery batch's attempt records and kept bodies, under the same condition;
      // BatchGetItem: the batch's erasure markers. ConditionCheckItem: a copy of a candidate's data is logged only while its erasure marker,
      // in the same partition, is absent.
      for (const a of [st.Action].flat())
        expect(
          [
            'dynamodb:GetItem',
            'dynamodb:BatchGetItem',
            'dynamodb:Query',
            'dynamodb:PutItem',
            'dynamodb:UpdateItem',
            'dynamodb:BatchWriteItem',
            'dynamodb:ConditionCheckItem',
          ],
          a,
        ).toContain(a);
    }
    const actions = actionsOf(fn);
    expect(actions).toContain('dynamodb:ConditionCheckItem');
    expect(actions).toContain('dynamodb:BatchGetItem');
    // Query (the workspace's endpoints, a replay's scan of the log) is confined like the rest.
    expect(actions).toContain('dynamodb:Query');
    for (const a of [
      'dynamodb:Scan',
      'dynamodb:DeleteItem',
      ...UNUSED_ACTIONS,
      ...FORBIDDEN_ACTIONS.filter((f) => f !== 'dynamodb:BatchWriteItem'),
    ]) {
      expect(actions).not.toContain(a);
    }
  });

  it('the delivery condition admits exactly the webhook and attempt keys of any tenant', () => {
    const [pattern] = dynamoStatements(deliveryId())[0].Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
    const like = iamLike(pattern);
    // webhookCounts: the automatic disable moves the workspace's active-endpoint count.
    // erasedMarker: a delivery reads whether its candidate was erased, and checks it in the write
    // of a copy; copyLedger: the entry listing that copy, in the same transaction.
    expect(admittedBy(pattern)).toEqual(['attempt', 'copyLedger', 'erasedMarker', 'event', 'replay', 'webhook', 'webhookCounts']);
    for (const [name, key] of builtKeys()) expect(like.test(key.PK), name).toBe(key.PK === keys.webhookPartition('tenant-1'));
    // Candidates, users and tokens of the same tenant share its id but not the partition.
    expect(like.test(keys.candidate('tenant-1', 'c').PK)).toBe(false);
    expect(like.test(keys.tenantToken('tenant-1', 't').PK)).toBe(false);
  });

  it('delivery consumes and re-times messages on the delivery queue, sends to it (replay, endpoint_disabled) and to the DLQ', () => {
    const fn = deliveryId();
    const onQueue = actionsOn(fn, deliveryQueueId());
    for (const a of ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:SendMessage'])
      expect(onQueue).toContain(a);
    expect(actionsOn(fn, deliveryDlqId())).toContain('sqs:SendMessage');
    expect(actionsOn(fn, deliveryDlqId())).not.toContain('sqs:ReceiveMessage');
    expect(actionsOn(fn, streamFailureQueueId())).toEqual([]);
  });

  it('with an alarm topic, every alarm notifies it; without one, the stack’s own topic', () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'stack-test-'));
    try {
      const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
      // The operators' topic, from a stack of their own.
      const alarmTopic = new sns.Topic(new Stack(app, 'Ops'), 'Alarms');
      const stack = new TalentPipelineStack(app, 'WithTopic', { alarmTopic, consoleDir: CONSOLE_DIR });
      const assembly = app.synth();
      const res = flattenedTemplate(assembly.directory, stack.artifactId).Resources as Record<string, CfnResource>;
      const alarms = ofType('AWS::CloudWatch::Alarm', res);
      expect(alarms.length).toBeGreaterThan(2);
      expect(ofType('AWS::SNS::Topic', res)).toEqual([]);
      const exported = Object.values<Json>(assembly.getStackByName('Ops').template.Outputs).map((o) => o.Export.Name);
      expect(exported).toHaveLength(1);
      for (const [id, a] of alarms) expect(a.Properties.AlarmActions, id).toEqual([{ 'Fn::ImportValue': exported[0] }]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    const [[ownTopic]] = ofType('AWS::SNS::Topic') as [[string, CfnResource]];
    for (const [id, a] of ofType('AWS::CloudWatch::Alarm')) expect(a.Properties.AlarmActions, id).toEqual([{ Ref: ownTopic }]);
  }, 120_000); // a whole synth (about 15 s of CPU, the nested stacks included): slow on two shared cores
});
