/**
 * The table maintenance function (lib/domain/stuck-reindex.ts), fed by the table stream: it
 * expands audit intents into records and runs the stuck index's background re-index
 * (lib/store/stuck.ts), filtered to MAINTENANCE_FILTER_PATTERNS. The second reader of the stream
 * beside the webhook fan-out (DynamoDB Streams advises at most two per shard), so both jobs share
 * it. Its module and construct id are the stuck re-index's as first deployed: renaming them would
 * replace the event source mapping, which starts again at LATEST and skips what was written
 * between the two.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { MAINTENANCE_FILTER_PATTERNS } from '../../lib/store/stream-filters';
import { keys, REINDEX_TIMEOUT_S } from '../../lib/store/table';
import { AUDIT_LEADING_KEYS, TableFunction } from './table-function';
import type { StageConfig } from '../stages';

export const STUCK_REINDEX_MODULE = 'stuck-reindex';
/** A step reads one page (500 candidates) and rewrites the changed ones, 16 at a time. */
export const STUCK_REINDEX_TIMEOUT = Duration.seconds(REINDEX_TIMEOUT_S);

export interface StuckReindexProps {
  table: dynamodb.ITable;
  /** Where stream batches given up on go (their shard positions); the stack's alarmed queue. */
  failures: sqs.IQueue;
  /** The deployment stage: how long the function's logs are kept. */
  stage: StageConfig;
}

/**
 * Adds the function (construct id `StuckReindex`, as the stack names a function after its module)
 * with its grants and its stream event source to `scope`.
 */
export function addStuckReindex(scope: Construct, props: StuckReindexProps): NodejsFunction {
  const fn = new TableFunction(scope, 'StuckReindex', {
    module: STUCK_REINDEX_MODULE,
    table: props.table,
    access: 'none',
    timeout: STUCK_REINDEX_TIMEOUT,
    description: 'Table maintenance: audit intents to records, stuck index re-index (table stream)',
    stage: props.stage,
    writesAudit: true,
  }).fn;
  // Tenant partitions only (`T#<tenant>`): the STATS item and the candidates, in the base table
  // (no index ARN): GetItem and UpdateItem on STATS, Query and UpdateItem on candidates.
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
      resources: [props.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.tenantPartition('*')] } },
    }),
  );
  // The people's partitions: the activity feed's items, each put on the condition that its person
  // still exists (lib/store/activity.ts putActivity).
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:PutItem', 'dynamodb:ConditionCheckItem'],
      resources: [props.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.personPartition('*', '*')] } },
    }),
  );
  // The audit partitions: PutItem of records only (the Deny on every role keeps Update, Delete and
  // BatchWrite out). The intents it expands come in the stream record's image: no read of them.
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:PutItem'],
      resources: [props.table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': AUDIT_LEADING_KEYS } },
    }),
  );
  fn.addEventSource(
    new DynamoEventSource(props.table, {
      startingPosition: lambda.StartingPosition.LATEST,
      batchSize: 100,
      retryAttempts: 10,
      maxRecordAge: Duration.days(1),
      reportBatchItemFailures: true,
      onFailure: new SqsDlq(props.failures),
      filters: MAINTENANCE_FILTER_PATTERNS.map((pattern) => lambda.FilterCriteria.filter(pattern)),
    }),
  );
  return fn;
}
