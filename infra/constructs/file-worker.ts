/**
 * The file worker (functions/file-worker.ts): each object created under `files/` (the attach
 * call's move of an upload to its file key) reaches it as an EventBridge "Object Created" event,
 * and it checks the bytes, reads the text and records the outcome
 * (lib/domain/file-processing.ts). EventBridge rather than a bucket notification: the bucket
 * turns its events on with a property of its own, so no custom resource (and no function of
 * CDK's with its own role) is needed, and a failed run is retried by the rule's target.
 *
 * With malware protection, GuardDuty's scan result for each attached file reaches it too (a
 * second rule): the verdict is recorded on the file, and a threat refuses it.
 *
 * Its grants: read the bytes (before a malware scan too, with GuardDuty on: it reads to refuse,
 * never to serve), delete a refused file's versions, and in the table its person partitions only.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { SCAN_RESULT_EVENT } from '../../lib/domain/file-scan-rules';
import { FILES_PREFIX, UPLOADS_PREFIX } from '../../lib/files/keys';
import type { StageConfig } from '../stages';
import type { FilesBucket } from './files-bucket';
import { TableFunction } from './table-function';

export const FILE_WORKER_MODULE = 'file-worker';

/**
 * The one function past the 400 KB bundle budget: it carries PDF.js (through unpdf, about 2 MB)
 * and mammoth, which only it loads (test/unit/files/bundle-boundary.test.ts). It runs in the
 * background, started by an event, so its cold start is on no request's path.
 */
export const FILE_WORKER_BUDGET = 3 * 1024 * 1024;

export function addFileWorker(scope: Construct, props: { table: dynamodb.ITable; files: FilesBucket; stage: StageConfig }): NodejsFunction {
  const fn = new TableFunction(scope, 'FileWorker', {
    module: FILE_WORKER_MODULE,
    table: props.table,
    access: 'file-worker',
    // A 20 MB PDF read page by page peaks well under 512 MB (npm run bench); the headroom buys CPU.
    memorySize: 1024,
    timeout: Duration.seconds(60),
    description: 'Attached files: check the bytes, read the text, record the outcome',
    stage: props.stage,
  }).fn;
  props.files.grantFiles(fn, 'read', { beforeScan: true });
  props.files.grantFiles(fn, 'delete');
  const cfnBucket = props.files.bucket.node.defaultChild as s3.CfnBucket;
  cfnBucket.notificationConfiguration = { eventBridgeConfiguration: { eventBridgeEnabled: true } };
  new events.Rule(scope, 'FileAttached', {
    description: 'An attached file landed in the files bucket: the file worker checks and reads it',
    eventPattern: {
      source: ['aws.s3'],
      detailType: ['Object Created'],
      detail: { bucket: { name: [props.files.bucketName] }, object: { key: [{ prefix: FILES_PREFIX }, { prefix: UPLOADS_PREFIX }] } },
    },
    // A failed run is tried again (twice), then left: the file stays `processing` and the error alarms.
    targets: [new targets.LambdaFunction(fn, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
  });
  addScanResultRule(scope, fn, props.files);
  return fn;
}

/**
 * With malware protection, GuardDuty's verdict on each attached file goes to `worker`: recorded on
 * the file, a threat refusing it (its bytes deleted). Nothing without the plan.
 */
export function addScanResultRule(scope: Construct, worker: lambda.IFunction, files: FilesBucket): events.Rule | undefined {
  if (!files.malwareProtectionPlan) return undefined;
  return new events.Rule(scope, 'FileScanned', {
    description: 'GuardDuty scanned an attached file: the file worker records the result; a threat refuses the file',
    eventPattern: {
      source: ['aws.guardduty'],
      detailType: [SCAN_RESULT_EVENT],
      detail: { s3ObjectDetails: { bucketName: [files.bucketName], objectKey: [{ prefix: FILES_PREFIX }] } },
    },
    targets: [new targets.LambdaFunction(worker, { retryAttempts: 2, maxEventAge: Duration.hours(6) })],
  });
}
