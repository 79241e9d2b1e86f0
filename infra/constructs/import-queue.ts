/**
 * Bulk import: the import queue, its dead-letter queue and the worker it drives
 * (functions/import-worker.ts), with an alarm on each way an import can get stuck. The route
 * functions that queue a job get the queue's URL and send rights, nothing more
 * (docs/operating.md, "Bulk imports").
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import { Concern } from './concern';
import { pascal, TableFunction } from './table-function';

export const IMPORT_WORKER_MODULE = 'import-worker';
/** A run stops 20 s before this and queues the rest of its job (lib/domain/imports.ts). */
export const IMPORT_WORKER_TIMEOUT = Duration.minutes(5);
/** Receives of one run's message before it moves to the DLQ: runs that crash outright, again and again. */
export const IMPORT_MAX_RECEIVES = 5;

export interface ImportQueueProps {
  table: dynamodb.Table;
  functions: Map<string, NodejsFunction>;
  stage: StageConfig;
}

export class ImportQueue extends Concern {
  readonly queue: sqs.Queue;
  readonly dlq: sqs.Queue;
  readonly worker: NodejsFunction;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: ImportQueueProps) {
    super(scope, id);
    const encrypted = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    this.dlq = new sqs.Queue(this, 'ImportDlq', { ...encrypted, retentionPeriod: Duration.days(14) });
    this.queue = new sqs.Queue(this, 'ImportQueue', {
      ...encrypted,
      // The file's chunks expire after 3 days: a message older than that has nothing left to run.
      retentionPeriod: Duration.days(4),
      // Lambda's guidance for SQS sources: six times the function timeout.
      visibilityTimeout: Duration.seconds(IMPORT_WORKER_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: IMPORT_MAX_RECEIVES },
    });
    // Writes candidates, counters, the job, its row errors and the lock: the generic write access.
    this.worker = new TableFunction(this, pascal(IMPORT_WORKER_MODULE), {
      module: IMPORT_WORKER_MODULE,
      table: props.table,
      access: 'write',
      timeout: IMPORT_WORKER_TIMEOUT,
      description: 'Bulk import: import queue -> candidates',
      environment: { IMPORT_QUEUE_URL: this.queue.queueUrl },
      stage: props.stage,
    }).fn;
    props.functions.set(IMPORT_WORKER_MODULE, this.worker);
    this.queue.grantConsumeMessages(this.worker);
    // A run queues the rest of its job, or the job again after a failure.
    this.queue.grantSendMessages(this.worker);
    // One job per invocation: a run owns its time, and a workspace's jobs run one at a time anyway.
    // A message that is not an import message is reported failed (lib/lambda.ts queueHandler), not
    // thrown: without reportBatchItemFailures Lambda would take that answer as success and delete it.
    this.worker.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true }));

    const five = Duration.minutes(5);
    const defaults = {
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      threshold: 1,
    };
    // The worker's errors alarm like every function's (infra/constructs/monitoring.ts).
    this.alarms.push(
      new cloudwatch.Alarm(this, 'ImportDlqAlarm', {
        ...defaults,
        metric: this.dlq.metricApproximateNumberOfMessagesVisible({ period: five, statistic: cloudwatch.Stats.MAXIMUM }),
        alarmDescription: 'An import run crashed again and again. Runbook: docs/operating.md, "An import that does not end".',
      }),
    );
  }

  /** A route function that queues import jobs: the queue's URL and send rights, nothing more. */
  allowQueueing(fn: NodejsFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment('IMPORT_QUEUE_URL', this.queue.queueUrl);
  }

  /** Every alarm of the import notifies the stack's topic. */
  notify(topic: sns.ITopic): void {
    const action = new cloudwatchActions.SnsAction(topic);
    for (const a of this.alarms) {
      a.addAlarmAction(action);
      a.addOkAction(action);
    }
  }
}
