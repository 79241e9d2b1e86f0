/**
 * Interview invitations (lib/domain/interview-invitations.ts): their queue, its dead-letter queue
 * and the worker that sends the emails through SES, in a nested stack of their own so the root
 * stack grows by one resource. Made only when the deploy sends mail (`-c mailDomain`): without
 * it there is no sender, the fan-out is given no queue and queues nothing. The fan-out alone may
 * send to the queue (allowQueueing); the worker alone may send mail from the stack's address.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { INVITATION_MAX_RECEIVES, INVITATION_WORKER_TIMEOUT_S } from '../../lib/invitations/queue';
import type { StageConfig } from '../stages';
import type { Mail } from './mail';
import { TableFunction } from './table-function';

export const INVITATIONS_MODULE = 'interview-invitations';

export interface InterviewInvitationsProps {
  table: dynamodb.ITable;
  mail: Mail;
  stage: StageConfig;
}

export class InterviewInvitations extends NestedStack {
  readonly queue: sqs.Queue;
  readonly dlq: sqs.Queue;
  readonly worker: NodejsFunction;
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: InterviewInvitationsProps) {
    super(scope, id, { description: 'Interview invitations: queue, dead-letter queue and the worker that emails them' });
    const encrypted = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    this.dlq = new sqs.Queue(this, 'InvitationDlq', { ...encrypted, retentionPeriod: Duration.days(14) });
    this.queue = new sqs.Queue(this, 'InvitationQueue', {
      ...encrypted,
      retentionPeriod: Duration.days(4),
      // Lambda's guidance for SQS sources: six times the function timeout.
      visibilityTimeout: Duration.seconds(INVITATION_WORKER_TIMEOUT_S * 6),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: INVITATION_MAX_RECEIVES },
    });
    // Reads the change item, the members, the workspace and the candidate; writes the sent marks.
    this.worker = new TableFunction(this, 'InterviewInvitations', {
      module: INVITATIONS_MODULE,
      table: props.table,
      access: 'write',
      timeout: Duration.seconds(INVITATION_WORKER_TIMEOUT_S),
      description: 'Interview invitations: invitation queue -> one email per recipient (SES)',
      stage: props.stage,
    }).fn;
    props.mail.allowSending(this.worker);
    // A message whose sends failed is reported failed alone (lib/lambda.ts queueHandler) and comes
    // again; the recipients already sent are skipped then.
    this.worker.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true }));
    this.alarm = new cloudwatch.Alarm(this, 'InvitationDlqAlarm', {
      evaluationPeriods: 1,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      metric: this.dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: cloudwatch.Stats.MAXIMUM }),
      alarmDescription: 'Interview invitations SES refused again and again. Runbook: docs/operating.md, "Interview invitations".',
    });
  }

  /** The fan-out queues each interview change: the queue's URL and send rights, nothing more. */
  allowQueueing(fn: NodejsFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment('INVITATION_QUEUE_URL', this.queue.queueUrl);
  }

  /** The dead-letter alarm notifies the stack's topic. */
  notify(topic: sns.ITopic): void {
    const action = new cloudwatchActions.SnsAction(topic);
    this.alarm.addAlarmAction(action);
    this.alarm.addOkAction(action);
  }
}
