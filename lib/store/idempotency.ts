/**
 * Where Idempotency-Key records live: Powertools Idempotency's DynamoDB persistence layer, kept
 * in the single table under the tenant's own partition `T#<tenant>#IDEM` (never in a partition
 * another tenant could reach), with the table's TTL attribute so DynamoDB deletes them after
 * 24 h. One layer per request: its partition value is the caller's tenant.
 */
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { ddbClient, tableName } from './client';
import { keys, TABLE_DEF } from './table';

export const idempotencyStore = (tenantId: string) =>
  new DynamoDBPersistenceLayer({
    tableName,
    awsSdkV3Client: ddbClient,
    keyAttr: TABLE_DEF.partitionKey,
    sortKeyAttr: TABLE_DEF.sortKey,
    staticPkValue: keys.idempotencyPartition(tenantId),
    // Seconds since the epoch, as TTL needs: expired records vanish without a write of ours.
    expiryAttr: TABLE_DEF.ttlAttribute,
    statusAttr: 'idem_status',
    dataAttr: 'idem_response',
    validationKeyAttr: 'idem_payload_hash',
    inProgressExpiryAttr: 'idem_in_progress_expires_ms',
  });
