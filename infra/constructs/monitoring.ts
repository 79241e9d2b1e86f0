/**
 * What a platform team watches (docs/operating.md): alarms on the API, every function, the
 * table and the webhook pipeline, all notifying one SNS topic (with an optional email
 * subscription), and a dashboard of the golden signals per route and of the pipeline.
 *
 * Hand-written rather than cdk-monitoring-constructs: the set is small, the EMF metrics have the
 * contract's names and dimensions (lib/metrics.ts), and each alarm here says what to do.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { Concern } from './concern';
import { pascal } from './table-function';
import type { WebhookPipeline } from './webhook-pipeline';

/**
 * EMF namespace of lib/metrics.ts. Its metrics also carry the `service` dimension, the stage's
 * service name (infra/stages.ts), and everything here reads only its own stage's.
 */
export const METRICS_NAMESPACE = 'TalentPipeline';
/** Counted from the API access log: requests API Gateway refused because an authorizer failed. */
export const AUTHORIZER_FAILURES_METRIC = 'AuthorizerFailures';

/** API 5XX alarm: this share of requests (%), once a period has at least ALARM_MIN_REQUESTS. */
export const API_5XX_PERCENT = 5;
export const ALARM_MIN_REQUESTS = 20;
/** API p99 latency alarm (ms). Routes time out after 10 s; a healthy p99 is well under a second. */
export const API_P99_MS = 3000;
/** The fan-out is this far behind the table's changes (ms) before anyone is told. */
export const ITERATOR_AGE_MS = 10 * 60_000;
/**
 * Oldest delivery message (s). A message waiting out its retry delay stays in the queue, and
 * SQS counts it in this age until its third receive (its delays by then: 5 s, 5 min, 30 min,
 * plus jitter), so a healthy queue reaches about 45 minutes; beyond an hour deliveries are stuck.
 */
export const DELIVERY_QUEUE_AGE_S = 3600;

export interface MonitoringProps {
  api: apigateway.RestApi;
  table: dynamodb.Table;
  /** Every function of the stack by handler module; `routeModules` are those serving routes. */
  functions: ReadonlyMap<string, NodejsFunction>;
  routeModules: readonly string[];
  authorizers: readonly NodejsFunction[];
  pipeline: WebhookPipeline;
  /** The bulk import's queue and dead-letter queue (infra/constructs/import-queue.ts alarms on the DLQ). */
  imports: { queue: sqs.IQueue; dlq: sqs.IQueue };
  /** The API access log (infra/constructs/route-api.ts ACCESS_LOG_FIELDS). */
  accessLogs: logs.ILogGroup;
  /** An existing topic to notify; without it the stack makes its own. */
  alarmTopic?: sns.ITopic;
  /** Subscribed to the stack's own topic; the address must confirm by email. */
  alarmEmail?: string;
  /**
   * The stage's service name (infra/stages.ts): the `service` dimension of its EMF metrics, and
   * of the authorizer failures counted from the access log, which carries it as `service`.
   */
  serviceName: string;
}

export class Monitoring extends Concern {
  readonly topic: sns.ITopic;
  readonly dashboard: cloudwatch.Dashboard;
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, table, pipeline } = props;
    const stage = api.deploymentStage;
    const five = Duration.minutes(5);

    if (props.alarmTopic) {
      this.topic = props.alarmTopic;
    } else {
      const topic = new sns.Topic(this, 'AlarmTopic', { displayName: `${Stack.of(this).stackName} alarms`, enforceSSL: true });
      Validations.of(topic).acknowledge({
        id: 'AwsSolutions-SNS2',
        reason:
          'CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key, and an alarm notification carries only alarm names and states, no tenant data.',
      });
      if (props.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
      this.topic = topic;
    }
    const action = new cloudwatchActions.SnsAction(this.topic);
    const alarm = (
      alarmId: string,
      metric: cloudwatch.IMetric,
      options: Omit<cloudwatch.CreateAlarmOptions, 'evaluationPeriods'> & { evaluationPeriods?: number },
      scope: Construct = this,
    ) => {
      const a = new cloudwatch.Alarm(scope, alarmId, {
        metric,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // Idle resources publish no data points: quiet is fine.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        ...options,
      });
      a.addAlarmAction(action);
      a.addOkAction(action);
      this.alarms.push(a);
      return a;
    };

    // ---- API ----
    const requests = stage.metricCount({ period: five, statistic: cloudwatch.Stats.SUM });
    const serverErrors = stage.metricServerError({ period: five, statistic: cloudwatch.Stats.SUM });
    alarm(
      'Api5xxRate',
      new cloudwatch.MathExpression({
        expression: `IF(requests >= ${ALARM_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: { requests, errors: serverErrors },
        period: five,
        label: 'API 5XX (% of requests)',
      }),
      {
        alarmDescription: `More than ${API_5XX_PERCENT}% of API requests answered 5XX. Runbook: docs/operating.md, "Logs Insights queries" (one request, errors).`,
        threshold: API_5XX_PERCENT,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      },
    );
    alarm('ApiLatencyP99', stage.metricLatency({ period: five, statistic: 'p99' }), {
      alarmDescription: `API p99 latency above ${API_P99_MS} ms for 15 minutes. Runbook: docs/operating.md, "Logs Insights queries" (slow routes).`,
      threshold: API_P99_MS,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
    });
    // The authorizers failing (crash, timeout, bad policy) answer 500 before any route runs.
    // Keyed by the access log's `service` field, so that each stage counts its own. No default
    // value, so nothing is published per ordinary request: the alarm reads no data as no failure.
    const authorizerFailures = new logs.MetricFilter(this, 'AuthorizerFailureFilter', {
      logGroup: props.accessLogs,
      filterPattern: logs.FilterPattern.any(
        logs.FilterPattern.stringValue('$.errorType', '=', 'AUTHORIZER_FAILURE'),
        logs.FilterPattern.stringValue('$.errorType', '=', 'AUTHORIZER_CONFIGURATION_ERROR'),
      ),
      metricNamespace: METRICS_NAMESPACE,
      metricName: AUTHORIZER_FAILURES_METRIC,
      metricValue: '1',
      dimensions: { service: '$.service' },
    }).metric({ period: five, statistic: cloudwatch.Stats.SUM, dimensionsMap: { service: props.serviceName } });
    alarm('AuthorizerFailures', authorizerFailures, {
      alarmDescription:
        'API Gateway answered 500 because an authorizer failed. Check the authorizer functions’ logs (docs/operating.md, "Logs Insights queries").',
      threshold: 1,
    });

    // ---- Every function: errors (crashes, timeouts) and throttles ----
    // Each alarm goes in its function's stack: a route function's in its nested stack
    // (infra/constructs/route-stacks.ts), where it costs this stack no resource and no output.
    for (const [module, fn] of props.functions) {
      const scope = Stack.of(fn) === Stack.of(this) ? this : Stack.of(fn);
      alarm(
        `${pascal(module)}ErrorsOrThrottles`,
        new cloudwatch.MathExpression({
          expression: 'FILL(errors, 0) + FILL(throttles, 0)',
          usingMetrics: {
            errors: fn.metricErrors({ period: five, statistic: cloudwatch.Stats.SUM }),
            throttles: fn.metricThrottles({ period: five, statistic: cloudwatch.Stats.SUM }),
          },
          period: five,
          label: `${module} errors + throttles`,
        }),
        {
          alarmDescription: `functions/${module}.ts crashed, timed out or was throttled. Its log group has the error (docs/operating.md, "Logs Insights queries": one request, errors).`,
          threshold: 1,
        },
        scope,
      );
    }

    // ---- Table ----
    const operations = [
      dynamodb.Operation.GET_ITEM,
      dynamodb.Operation.QUERY,
      dynamodb.Operation.PUT_ITEM,
      dynamodb.Operation.UPDATE_ITEM,
      dynamodb.Operation.DELETE_ITEM,
      dynamodb.Operation.TRANSACT_WRITE_ITEMS,
    ];
    alarm('TableThrottles', table.metricThrottledRequestsForOperations({ operations, period: five }), {
      alarmDescription: 'DynamoDB throttled requests (on-demand: a sudden spike past the table’s previous peak, or a hot partition).',
      threshold: 1,
    });
    alarm('TableSystemErrors', table.metricSystemErrorsForOperations({ operations, period: five }), {
      alarmDescription: 'DynamoDB answered with internal errors (the SDK retries; persistent ones are an AWS-side incident).',
      threshold: 1,
    });

    // ---- Webhook pipeline ----
    alarm('WebhookStreamIteratorAge', pipeline.fanout.metric('IteratorAge', { period: five, statistic: cloudwatch.Stats.MAXIMUM }), {
      alarmDescription: `The fan-out is more than ${ITERATOR_AGE_MS / 60_000} minutes behind the table stream. Runbook: docs/operating.md, "A stuck stream".`,
      threshold: ITERATOR_AGE_MS,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
    });
    alarm(
      'WebhookDeliveryQueueAge',
      pipeline.deliveryQueue.metricApproximateAgeOfOldestMessage({ period: five, statistic: cloudwatch.Stats.MAXIMUM }),
      {
        alarmDescription: `A delivery message is more than ${DELIVERY_QUEUE_AGE_S / 60} minutes old before its third attempt: deliveries are not keeping up.`,
        threshold: DELIVERY_QUEUE_AGE_S,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
      },
    );
    // Anything in a failure queue needs a person: a webhook given up on, or events never enqueued.
    const failureQueue = (alarmId: string, queue: sqs.Queue, what: string) =>
      alarm(alarmId, queue.metricApproximateNumberOfMessagesVisible({ period: five, statistic: cloudwatch.Stats.MAXIMUM }), {
        alarmDescription: `${what}. Inspect the messages in the queue, fix the cause, then redrive or delete them (docs/operating.md, "A growing DLQ" and "Stream failures").`,
        threshold: 1,
      });
    failureQueue('WebhookDeliveryDlqAlarm', pipeline.deliveryDlq, 'Webhook deliveries were dead-lettered after their last attempt');
    failureQueue('WebhookStreamFailureAlarm', pipeline.streamFailureQueue, 'Table stream batches were not fanned out to webhooks');
    failureQueue(
      'WebhookStreamFailureDlqAlarm',
      pipeline.streamFailureDlq,
      'Stream-failure messages could not be replayed and were set aside',
    );

    this.dashboard = this.buildDashboard(props, authorizerFailures);
  }

  private buildDashboard(props: MonitoringProps, authorizerFailures: cloudwatch.IMetric): cloudwatch.Dashboard {
    const { api, pipeline } = props;
    const stage = api.deploymentStage;
    const five = Duration.minutes(5);
    const emf = (metricName: string, statistic: string = cloudwatch.Stats.SUM) =>
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName,
        dimensionsMap: { service: props.serviceName },
        statistic,
        period: five,
      });
    // SEARCH matches an unquoted value partially and a quoted one exactly, so a stage's graphs
    // show its own service only. The name is ours (infra/stages.ts), with no quote to escape.
    const ofService = `service="${props.serviceName}"`;
    const routeLogGroups = props.routeModules.map((m) => props.functions.get(m)!.logGroup.logGroupName);
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) => new cloudwatch.GraphWidget({ title, left, width, height: 6 });

    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // Named after the stack, so each stage has its own (dashboard names are account-wide).
      dashboardName: Stack.of(this).stackName,
      defaultInterval: Duration.hours(3),
    });
    dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown:
          '## API\nAll routes at the stage, then per route (EMF `ApiRequests` by `route` and `status_class`; latency from the `request completed` log lines). Runbooks: docs/operating.md.',
        width: 24,
        height: 2,
      }),
    );
    dashboard.addWidgets(
      graph('Requests, 4XX, 5XX (stage)', [
        stage.metricCount({ period: five, statistic: cloudwatch.Stats.SUM }),
        stage.metricClientError({ period: five, statistic: cloudwatch.Stats.SUM }),
        stage.metricServerError({ period: five, statistic: cloudwatch.Stats.SUM }),
      ]),
      graph('Latency p50 / p99 (stage, ms)', [
        stage.metricLatency({ period: five, statistic: 'p50' }),
        stage.metricLatency({ period: five, statistic: 'p99' }),
        stage.metricIntegrationLatency({ period: five, statistic: 'p99' }),
      ]),
      graph('Authorizer failures, throttles (stage)', [authorizerFailures]),
    );
    const byRoute = (statusClass: string) =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},route,service,status_class} MetricName="ApiRequests" ${ofService} status_class="${statusClass}"', 'Sum', 300)`,
        label: '',
        period: five,
      });
    dashboard.addWidgets(
      graph('Requests per route: 2xx', [byRoute('2xx')]),
      graph('Requests per route: 4xx', [byRoute('4xx')]),
      graph('Requests per route: 5xx', [byRoute('5xx')]),
    );
    dashboard.addWidgets(
      new cloudwatch.LogQueryWidget({
        title: 'Latency per route (ms), slowest p99 first',
        logGroupNames: routeLogGroups,
        queryLines: [
          'filter message = "request completed"',
          'stats count(*) as requests, pct(duration_ms, 50) as p50, pct(duration_ms, 99) as p99, max(duration_ms) as slowest by route',
          'sort p99 desc',
        ],
        width: 24,
        height: 8,
      }),
    );

    dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: '## Webhook pipeline\nTable stream -> fan-out -> delivery queue -> delivery -> receivers.',
        width: 24,
        height: 2,
      }),
    );
    dashboard.addWidgets(
      graph('Events fanned out, deliveries succeeded / failed', [
        emf('EventsFannedOut'),
        emf('DeliveriesSucceeded'),
        emf('DeliveriesFailed'),
      ]),
      graph('Delivery latency p50 / p99 (ms)', [emf('DeliveryLatency', 'p50'), emf('DeliveryLatency', 'p99')]),
      graph('Endpoints disabled', [emf('EndpointsDisabled')]),
    );
    dashboard.addWidgets(
      graph('Failure queues (messages)', [
        pipeline.deliveryDlq.metricApproximateNumberOfMessagesVisible({
          period: five,
          statistic: cloudwatch.Stats.MAXIMUM,
          label: 'delivery DLQ',
        }),
        pipeline.streamFailureQueue.metricApproximateNumberOfMessagesVisible({
          period: five,
          statistic: cloudwatch.Stats.MAXIMUM,
          label: 'stream failures',
        }),
        pipeline.streamFailureDlq.metricApproximateNumberOfMessagesVisible({
          period: five,
          statistic: cloudwatch.Stats.MAXIMUM,
          label: 'stream-failure DLQ',
        }),
        props.imports.dlq.metricApproximateNumberOfMessagesVisible({
          period: five,
          statistic: cloudwatch.Stats.MAXIMUM,
          label: 'import DLQ',
        }),
      ]),
      graph('Delivery queue: depth and oldest message (s)', [
        pipeline.deliveryQueue.metricApproximateNumberOfMessagesVisible({ period: five, statistic: cloudwatch.Stats.MAXIMUM }),
        pipeline.deliveryQueue.metricApproximateNumberOfMessagesNotVisible({ period: five, statistic: cloudwatch.Stats.MAXIMUM }),
        pipeline.deliveryQueue.metricApproximateAgeOfOldestMessage({ period: five, statistic: cloudwatch.Stats.MAXIMUM }),
      ]),
      graph('Stream iterator age (ms)', [pipeline.fanout.metric('IteratorAge', { period: five, statistic: cloudwatch.Stats.MAXIMUM })]),
      graph('Import runs queued: depth and oldest (s)', [
        props.imports.queue.metricApproximateNumberOfMessagesVisible({ period: five, statistic: cloudwatch.Stats.MAXIMUM }),
        props.imports.queue.metricApproximateAgeOfOldestMessage({ period: five, statistic: cloudwatch.Stats.MAXIMUM }),
      ]),
    );

    dashboard.addWidgets(new cloudwatch.TextWidget({ markdown: '## Functions, sign-in and the table', width: 24, height: 1 }));
    const perFunction = (metric: (fn: NodejsFunction) => cloudwatch.IMetric) => [...props.functions.values()].map(metric);
    dashboard.addWidgets(
      graph(
        'Function errors',
        perFunction((fn) => fn.metricErrors({ period: five, statistic: cloudwatch.Stats.SUM })),
        12,
      ),
      graph(
        'Function throttles',
        perFunction((fn) => fn.metricThrottles({ period: five, statistic: cloudwatch.Stats.SUM })),
        12,
      ),
    );
    dashboard.addWidgets(
      // Powertools adds function_name to ColdStart: one line per function.
      graph('Cold starts per function', [
        new cloudwatch.MathExpression({
          expression: `SEARCH('{${METRICS_NAMESPACE},function_name,service} MetricName="ColdStart" ${ofService}', 'Sum', 300)`,
          label: '',
          period: five,
        }),
      ]),
      graph('Logins failed, lockouts', [emf('LoginsFailed'), emf('Lockouts')], 4),
      // Two graphs: both expressions name their per-operation metrics alike (getitem, query...).
      graph('Table throttled requests', [props.table.metricThrottledRequestsForOperations({ period: five })], 4),
      graph('Table system errors', [props.table.metricSystemErrorsForOperations({ period: five })], 4),
      graph(
        'Authorizer duration p99 (ms)',
        props.authorizers.map((fn) => fn.metricDuration({ period: five, statistic: 'p99' })),
        4,
      ),
    );
    return dashboard;
  }
}
