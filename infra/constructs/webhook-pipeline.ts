/**
 * Table stream -> fan-out -> delivery queue -> delivery -> receiver (docs/webhooks.md).
 * Both functions report failures per record, so one bad record or message
 * is retried on its own; whatever is finally given up on lands in a queue with an alarm
 * (infra/constructs/monitoring.ts).
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { DEFAULT_RETRY_SCHEDULE_S, DELIVERY_BATCH_SIZE, DELIVERY_TIMEOUT_S, FANOUT_TIMEOUT_S } from '../../lib/webhooks/config';
import { STREAM_FILTER_PATTERNS } from '../../lib/webhooks/events';
import type { StageConfig } from '../stages';
import { Concern } from './concern';
import { pascal, TableFunction, type TableAccess } from './table-function';

/** Modules under functions/ of the webhook pipeline. */
export const FANOUT_MODULE = 'webhook-fanout';
export const DELIVERY_MODULE = 'webhook-delivery';
/**
 * A delivery batch of up to DELIVERY_BATCH_SIZE messages is sent in parallel and each attempt takes at most
 * WEBHOOK_TIMEOUT_MS (15 s), plus the DynamoDB and SQS calls around it.
 */
export const DELIVERY_TIMEOUT = Duration.seconds(DELIVERY_TIMEOUT_S);
/**
 * One second, the least Lambda allows with batches over 10 (DELIVERY_BATCH_SIZE, 50): a backlog
 * fills a batch at once, and a quiet queue adds at most this to a first attempt (and to the
 * visibility timeout). Batches of 50 share one endpoint read, two log writes per 25 deliveries and
 * one last_triggered_at write (`npm run bench`, delivery).
 */
export const DELIVERY_BATCHING_WINDOW = Duration.seconds(1);
/**
 * Attempts the deployed delivery function makes. It is given no WEBHOOK_RETRY_SCHEDULE, so it
 * runs the default schedule whatever the synthesizing shell has set (npm start shortens it).
 */
export const DELIVERY_ATTEMPTS = DEFAULT_RETRY_SCHEDULE_S.length + 1;
/** Receives of one stream-failure message before it moves to the stream-failure DLQ. */
export const STREAM_FAILURE_MAX_RECEIVES = 5;

export interface WebhookPipelineProps {
  /** The table whose stream feeds the fan-out. */
  table: dynamodb.Table;
  /** Where each function is registered under its handler module (the stack's `functions`). */
  functions: Map<string, NodejsFunction>;
  stage: StageConfig;
}

export class WebhookPipeline extends Concern {
  /** One message per (event, endpoint); the delivery function consumes it. */
  readonly deliveryQueue: sqs.Queue;
  /** Deliveries that used up their attempts, and messages that kept crashing the function. */
  readonly deliveryDlq: sqs.Queue;
  /** Stream batches the fan-out gave up on (their shard positions, not the records). */
  readonly streamFailureQueue: sqs.Queue;
  /** Stream-failure messages that were received often and never deleted. */
  readonly streamFailureDlq: sqs.Queue;
  readonly fanout: NodejsFunction;
  readonly delivery: NodejsFunction;

  constructor(scope: Construct, id: string, props: WebhookPipelineProps) {
    super(scope, id);
    const tableFunction = (
      module: string,
      access: TableAccess,
      timeout: Duration,
      description: string,
      environment?: Record<string, string>,
    ) => {
      const fn = new TableFunction(this, pascal(module), {
        module,
        table: props.table,
        access,
        timeout,
        description,
        environment,
        stage: props.stage,
      }).fn;
      props.functions.set(module, fn);
      return fn;
    };

    const encrypted = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    // 14 days, the SQS maximum: time for an operator to see the alarm, fix the cause and redrive.
    const deliveryDlq = new sqs.Queue(this, 'WebhookDeliveryDlq', { ...encrypted, retentionPeriod: Duration.days(14) });
    const deliveryQueue = new sqs.Queue(this, 'WebhookDeliveryQueue', {
      ...encrypted,
      // Outlives the whole retry schedule (about 28 h, 54 h if receivers keep asking for Retry-After)
      // with room to spare; a message that expired here would vanish without reaching the DLQ.
      retentionPeriod: Duration.days(4),
      // Lambda's guidance for SQS sources: at least six times the function timeout plus the
      // batching window, so a message is not handed out again while a throttled or retried
      // invocation may still be working on it.
      visibilityTimeout: Duration.seconds(DELIVERY_TIMEOUT.toSeconds() * 6 + DELIVERY_BATCHING_WINDOW.toSeconds()),
      deadLetterQueue: {
        queue: deliveryDlq,
        // The function itself dead-letters a message after its last attempt (with the reason as
        // a message attribute), so ordinary failures never reach this count. The redrive only
        // catches messages that crash or time out the function again and again: the receive
        // count is the attempt number, and two receives beyond the last attempt mean the
        // function never got to finish it.
        maxReceiveCount: DELIVERY_ATTEMPTS + 2,
      },
    });
    // The fan-out's stream batches it gave up on. Lambda sends the batch's shard and sequence
    // numbers, not the records; the stream keeps records for 24 h, so replay within a day.
    // Its own DLQ: a message that whoever replays the failures receives again and again without
    // deleting it (a batch that cannot be replayed) moves aside instead of blocking the rest.
    const streamFailureDlq = new sqs.Queue(this, 'WebhookStreamFailureDlq', { ...encrypted, retentionPeriod: Duration.days(14) });
    const streamFailureQueue = new sqs.Queue(this, 'WebhookStreamFailureQueue', {
      ...encrypted,
      retentionPeriod: Duration.days(14),
      deadLetterQueue: { queue: streamFailureDlq, maxReceiveCount: STREAM_FAILURE_MAX_RECEIVES },
    });

    const queueEnv = { WEBHOOK_QUEUE_URL: deliveryQueue.queueUrl, WEBHOOK_DLQ_URL: deliveryDlq.queueUrl };

    // Reads tenants and endpoints and keeps event bodies ('fanout' access). Records are handled in order, each
    // with one SQS call per 10 messages: 60 s leaves room for throttling retries, since a timeout
    // re-runs the whole batch and repeats deliveries (receivers deduplicate by event id).
    const fanout = tableFunction(
      FANOUT_MODULE,
      'fanout',
      Duration.seconds(FANOUT_TIMEOUT_S),
      'Webhooks: table stream -> delivery queue',
      queueEnv,
    );
    deliveryQueue.grantSendMessages(fanout);
    fanout.addEventSource(
      new DynamoEventSource(props.table, {
        // Events start when the pipeline exists; there is nothing to replay from before.
        startingPosition: lambda.StartingPosition.LATEST,
        batchSize: 100,
        // A failing record is isolated by halving the batch, retried 5 times, and dropped to the
        // failure queue after a day at most (the stream would lose it after 24 h anyway).
        bisectBatchOnError: true,
        retryAttempts: 5,
        maxRecordAge: Duration.days(1),
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(streamFailureQueue),
        // Only changes that are webhook events invoke the function (lib/webhooks/events.ts).
        filters: STREAM_FILTER_PATTERNS.map((pattern) => lambda.FilterCriteria.filter(pattern)),
      }),
    );

    // Confined to webhook partitions ('webhooks' access); no generic table grant.
    const delivery = tableFunction(DELIVERY_MODULE, 'webhooks', DELIVERY_TIMEOUT, 'Webhooks: delivery queue -> receivers', queueEnv);
    // Includes sqs:ChangeMessageVisibility, which the function itself (not only the event source
    // mapping) calls to hold a failed message back for its next retry delay; the stack test pins it.
    deliveryQueue.grantConsumeMessages(delivery);
    deliveryDlq.grantSendMessages(delivery);
    // Replay jobs queue the missed events (and continue themselves); endpoint_disabled events.
    deliveryQueue.grantSendMessages(delivery);
    delivery.addEventSource(
      new SqsEventSource(deliveryQueue, {
        batchSize: DELIVERY_BATCH_SIZE,
        maxBatchingWindow: DELIVERY_BATCHING_WINDOW,
        reportBatchItemFailures: true,
        // No maxConcurrency: a cap would let one tenant's slow receivers (15 s per attempt) hold
        // up every other tenant's deliveries. (DELIVERY_MAX_CONCURRENCY is what one local worker,
        // npm start's poller, runs at once; Lambda scales instances instead.)
      }),
    );

    this.deliveryQueue = deliveryQueue;
    this.deliveryDlq = deliveryDlq;
    this.streamFailureQueue = streamFailureQueue;
    this.streamFailureDlq = streamFailureDlq;
    this.fanout = fanout;
    this.delivery = delivery;
  }

  /** A route function that queues deliveries (resend, replay): the queue URLs and send rights, nothing more. */
  allowQueueing(fn: NodejsFunction): void {
    this.deliveryQueue.grantSendMessages(fn);
    fn.addEnvironment('WEBHOOK_QUEUE_URL', this.deliveryQueue.queueUrl);
    fn.addEnvironment('WEBHOOK_DLQ_URL', this.deliveryDlq.queueUrl);
  }
}
