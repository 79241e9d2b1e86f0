/**
 * The deployed shape, composed of one construct per concern (infra/constructs/): the DynamoDB
 * table derived from TABLE_DEF, the REST API generated from the route table with its authorizers
 * (RouteApi), the webhook pipeline (table stream -> fan-out -> delivery queue -> delivery), and
 * the console on the same CloudFront origin as the API (ConsoleSite). The route functions go to
 * nested stacks by API resource (infra/constructs/route-stacks.ts) so that every stack stays under
 * CloudFormation's resource limit; what holds data or a name stays here, under the logical ids it
 * had when this was one stack (test/unit/stack-split.test.ts). Adding a route to lib/routes.ts
 * needs no change here. The local runtime (dev/) deploys nothing.
 */
import { CfnOutput, NestedStack, Stack, Validations, type CfnElement, type StackProps } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { API_PREFIX, routes as ROUTE_TABLE, type Route } from '../lib/routes';
import { TABLE_DEF } from '../lib/store/table';
import { ConsoleSite } from './constructs/console-site';
import { withoutConcerns } from './constructs/concern';
import { Monitoring } from './constructs/monitoring';
import { RouteApi, SESSION_AUTHORIZER_MODULE, TOKEN_AUTHORIZER_MODULE } from './constructs/route-api';
import { TokenRateLimits } from './constructs/rate-limits';
import { ImportQueue } from './constructs/import-queue';
import { addStuckReindex, STUCK_REINDEX_MODULE } from './constructs/stuck-reindex';
import { addRetention, RETENTION_MODULE } from './constructs/retention';
import { addScreeningRejections, SCREENING_REJECTIONS_MODULE } from './constructs/screening-rejections';
import { addInterviewFollowUps, INTERVIEW_MOVES_MODULE, SCORECARD_REMINDERS_MODULE } from './constructs/interview-follow-up';
import { addOfferExpiry, OFFER_EXPIRY_MODULE } from './constructs/offer-expiry';
import { ApiFirewall } from './constructs/waf';
import { FilesBucket, filesBucketOrigin } from './constructs/files-bucket';
import { FormTokens } from './constructs/form-tokens';
import { addFileWorker, FILE_WORKER_MODULE } from './constructs/file-worker';
import { InterviewInvitations } from './constructs/interview-invitations';
import { Mail } from './constructs/mail';
import { WebhookPipeline } from './constructs/webhook-pipeline';
import { CONSOLE_DIST } from '../console/build';
import { STAGES, type StageName } from './stages';

export interface TalentPipelineStackProps extends StackProps {
  /** The route table; defaults to lib/routes.ts. Tests pass extended tables. */
  routes?: readonly Route[];
  /** Where the alarms notify (infra/constructs/monitoring.ts); without it the stack makes a topic. */
  alarmTopic?: sns.ITopic;
  /** An address subscribed to the stack's own topic (`-c alarmEmail=...`); it must confirm. */
  alarmEmail?: string;
  /**
   * The built console that the distribution serves; defaults to `console/dist`. infra/app.ts
   * builds it before synth when it is missing.
   */
  consoleDir?: string;
  /**
   * What is kept when the stack is deleted, and for how long logs are (infra/stages.ts). Defaults
   * to prod, the stage that keeps its data; the CLI's default (`-c stage`) is dev.
   */
  stage?: StageName;
  /** A web ACL on the API stage (infra/constructs/waf.ts); default on (`-c waf=false` turns it off). */
  waf?: boolean;
  /** GuardDuty Malware Protection for S3 on the files bucket (`-c malwareProtection=true`); default off. */
  malwareProtection?: boolean;
  /** The domain email is sent from (`-c mailDomain=...`), and the sender address in it (`-c mailFrom=...`). */
  mailDomain?: string;
  mailFrom?: string;
}

export class TalentPipelineStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: apigateway.RestApi;
  /** The function behind each handler module, authorizers and webhook pipeline included. */
  readonly functions = new Map<string, NodejsFunction>();
  /** One message per (event, endpoint); the delivery function consumes it. */
  readonly deliveryQueue: sqs.Queue;
  /** Deliveries that used up their attempts, and messages that kept crashing the function. */
  readonly deliveryDlq: sqs.Queue;
  /** Stream batches the fan-out gave up on (their shard positions, not the records). */
  readonly streamFailureQueue: sqs.Queue;
  /** Bulk import runs (infra/constructs/import-queue.ts). */
  readonly importQueue: sqs.Queue;
  /** CloudFront in front of the console bucket and, under /api, the REST API. */
  readonly site: ConsoleSite;
  /** The alarm topic, the alarms and the dashboard. */
  readonly monitoring: Monitoring;
  /** Uploaded documents (infra/constructs/files-bucket.ts); functions get access through files.grantFiles. */
  readonly files: FilesBucket;
  /** SES sending (infra/constructs/mail.ts); functions get it through mail.allowSending. */
  readonly mail: Mail;

  constructor(scope: Construct, id: string, props: TalentPipelineStackProps = {}) {
    super(scope, id, props);
    const routes: readonly Route[] = props.routes ?? ROUTE_TABLE;
    const stage = STAGES[props.stage ?? 'prod'];

    const string = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: string(TABLE_DEF.partitionKey),
      sortKey: string(TABLE_DEF.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      stream: dynamodb.StreamViewType[TABLE_DEF.stream],
      timeToLiveAttribute: TABLE_DEF.ttlAttribute,
      deletionProtection: stage.tableDeletionProtection,
      removalPolicy: stage.tableRemovalPolicy,
    });
    for (const index of Object.values(TABLE_DEF.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: string(index.partitionKey),
        sortKey: string(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    const routeApi = new RouteApi(this, 'Routes', { table: this.table, routes, functions: this.functions, stage });
    this.api = routeApi.api;
    new TokenRateLimits(this, 'TokenRateLimits', { api: this.api, methods: routeApi.methods, routes, functions: this.functions });
    if (props.waf ?? true) new ApiFirewall(this, 'Firewall', { stage: this.api.deploymentStage });
    else {
      Validations.of(this.api.deploymentStage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason: 'WAF switched off for this deployment on purpose (-c waf=false), e.g. a short-lived dev stack.',
      });
    }

    // The console and the API on one origin (infra/constructs/console-site.ts); the cookie-writing routes
    // check the secret CloudFront adds to prove a request came through it.
    this.site = new ConsoleSite(this, 'Console', {
      api: this.api,
      consoleDir: props.consoleDir ?? CONSOLE_DIST,
      filesOrigin: filesBucketOrigin(stage),
      logRetention: stage.logRetention,
      logRemovalPolicy: stage.logRemovalPolicy,
    });
    routeApi.verifyOrigin(this.site.originVerify);
    const formTokens = new FormTokens(this, 'FormTokens');
    for (const fn of routeApi.functionsOf((r) => Boolean(r.formToken))) formTokens.give(fn);

    // Uploads go from the console's page straight to the bucket: that origin, and only it, may.
    this.files = new FilesBucket(this, 'Files', { allowedOrigins: [this.site.url], stage, malwareProtection: props.malwareProtection });
    this.mail = new Mail(this, 'Mail', { domain: props.mailDomain, from: props.mailFrom });
    // Each route function reaches the bucket only as its route line says (lib/api/route.ts `files`).
    for (const level of ['read', 'write', 'delete'] as const) {
      for (const fn of routeApi.functionsOf((r) => Boolean(r.files?.includes(level)))) this.files.grantFiles(fn, level);
    }
    // The text route reads no bytes, yet serves what the scan has not cleared only when told there is none.
    for (const fn of routeApi.functionsOf((r) => r.handler === 'get-file-text')) this.files.tellScanning(fn);
    // The background functions that consume no stream or queue live in nested stacks of their own
    // (with their rules, roles, log groups and alarms), keeping the stack itself under its goal of
    // 400 resources (docs/deploying.md, "Stacks"). They hold nothing a replacement would lose.
    const worker = new NestedStack(this, 'FileWorkerFunctions', { description: 'Talent pipeline: the file worker and its rules' });
    this.functions.set(FILE_WORKER_MODULE, addFileWorker(worker, { table: this.table, files: this.files, stage }));

    const pipeline = new WebhookPipeline(this, 'Webhooks', { table: this.table, functions: this.functions, stage });
    for (const fn of routeApi.functionsOf((r) => Boolean(r.queue))) pipeline.allowQueueing(fn);
    this.deliveryQueue = pipeline.deliveryQueue;
    this.deliveryDlq = pipeline.deliveryDlq;
    this.streamFailureQueue = pipeline.streamFailureQueue;
    this.functions.set(STUCK_REINDEX_MODULE, addStuckReindex(this, { table: this.table, failures: pipeline.streamFailureQueue, stage }));
    const retention = new NestedStack(this, 'RetentionFunctions', { description: 'Talent pipeline: the retention run and its schedules' });
    this.functions.set(RETENTION_MODULE, addRetention(retention, { table: this.table, stage }));
    // Retention erases people, and with them their files.
    this.files.grantFiles(this.functions.get(RETENTION_MODULE)!, 'delete');
    this.functions.set(SCREENING_REJECTIONS_MODULE, addScreeningRejections(this, { table: this.table, stage }));
    // The move to interviewed after the last interview, and the scorecard reminders where mail is sent.
    const followUps = addInterviewFollowUps(this, { table: this.table, stage, mail: this.mail, consoleUrl: this.site.url });
    this.functions.set(INTERVIEW_MOVES_MODULE, followUps.moves);
    if (followUps.reminders) this.functions.set(SCORECARD_REMINDERS_MODULE, followUps.reminders);
    this.functions.set(OFFER_EXPIRY_MODULE, addOfferExpiry(this, { table: this.table, stage }));
    // Bulk import: its queue, DLQ and worker; the import route's function may queue jobs.
    const imports = new ImportQueue(this, 'Imports', { table: this.table, functions: this.functions, stage });
    for (const fn of routeApi.functionsOf((r) => Boolean(r.importQueue))) imports.allowQueueing(fn);
    this.importQueue = imports.queue;
    // An application's CV: read and checked at its upload key, moved to the person's file key, or deleted.
    for (const level of ['read', 'write', 'delete'] as const) this.files.grantFiles(imports.worker, level);
    // Interview invitations, where the deploy sends mail: the fan-out queues them, a worker emails them.
    const invitations = this.mail.identity
      ? new InterviewInvitations(this, 'InterviewInvitations', { table: this.table, mail: this.mail, stage })
      : undefined;
    invitations?.allowQueueing(pipeline.fanout);
    // The same worker mails each applicant's confirmation, whose withdraw link it signs and points at the careers site.
    if (invitations) {
      formTokens.give(invitations.worker);
      invitations.worker.addEnvironment('CONSOLE_URL', this.site.url);
    }

    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      table: this.table,
      functions: this.functions,
      routeModules: [...new Set(routes.map((r) => r.handler))],
      authorizers: [TOKEN_AUTHORIZER_MODULE, SESSION_AUTHORIZER_MODULE].flatMap((m) => this.functions.get(m) ?? []),
      pipeline,
      imports: { queue: imports.queue, dlq: imports.dlq },
      accessLogs: routeApi.accessLogs,
      alarmTopic: props.alarmTopic,
      alarmEmail: props.alarmEmail,
      serviceName: stage.serviceName,
    });

    imports.notify(this.monitoring.topic);
    invitations?.notify(this.monitoring.topic);

    new CfnOutput(this, 'SiteUrl', {
      value: this.site.url,
      description: 'The workspace console; the API is under /api on the same origin',
    });
    new CfnOutput(this, 'ApiUrl', { value: this.api.urlForPath(API_PREFIX), description: 'Base URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'DeliveryQueueUrl', { value: this.deliveryQueue.queueUrl, description: 'Webhook delivery queue' });
    new CfnOutput(this, 'DeliveryDlqUrl', {
      value: this.deliveryDlq.queueUrl,
      description: 'Webhook deliveries that used up their attempts (inspect, then redrive)',
    });
    new CfnOutput(this, 'StreamFailureQueueUrl', {
      value: this.streamFailureQueue.queueUrl,
      description: 'Table stream batches the fan-out gave up on (shard and sequence numbers, replay within 24 h)',
    });
    new CfnOutput(this, 'ImportQueueUrl', { value: imports.queue.queueUrl, description: 'Bulk import runs, one message per job run' });
    new CfnOutput(this, 'FilesBucketName', { value: this.files.bucket.bucketName, description: 'Uploaded documents (private, versioned)' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn, description: 'Every alarm notifies this topic' });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName, description: 'CloudWatch dashboard' });
  }

  /** Concerns (infra/constructs/concern.ts) stay out of logical ids: the split replaced nothing. */
  protected override allocateLogicalId(element: CfnElement): string {
    return super.allocateLogicalId(withoutConcerns(element));
  }
}
