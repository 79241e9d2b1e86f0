/**
 * The file worker (functions/file-worker.ts): S3 invokes it for each object created under
 * `files/` (the attach call's move of an upload to its file key), and it checks the bytes, reads
 * the text and records the outcome (lib/domain/file-processing.ts). Its grants: read the bytes
 * (before a malware scan too, with GuardDuty on: it reads to refuse, never to serve), delete a
 * refused file's versions, and in the table, its person partitions only. Async invocation: a
 * failed run is retried twice; its errors alarm like every function's once it is in the map.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import type { Construct } from 'constructs';
import { FILES_PREFIX } from '../../lib/files/keys';
import type { StageConfig } from '../stages';
import type { FilesBucket } from './files-bucket';
import { TableFunction } from './table-function';

export const FILE_WORKER_MODULE = 'file-worker';

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
  props.files.bucket.addEventNotification(s3.EventType.OBJECT_CREATED, new s3n.LambdaDestination(fn), { prefix: FILES_PREFIX });
  return fn;
}
