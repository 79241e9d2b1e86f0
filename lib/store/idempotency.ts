/**
 * Where Idempotency-Key records live: Powertools Idempotency's DynamoDB persistence layer, kept
 * in the single table under the tenant's own partition `T#<tenant>#IDEM` (never in a partition
 * another tenant could reach), with the table's TTL attribute so DynamoDB deletes them after
 * 24 h. One layer per request: its partition value is the caller's tenant.
 *
 * A record keeps the first answer, and an answer that is a candidate holds its personal data: the
 * write that stores such an answer also puts the record in the candidate's copy index, so an
 * erasure finds it (lib/store/erasure.ts). Same single UpdateItem as Powertools' own.
 */
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { ddbClient, tableName } from './client';
import { copyIndexKey, keys, TABLE_DEF } from './table';

const ATTRS = {
  status: 'idem_status',
  data: 'idem_response',
  validation: 'idem_payload_hash',
};

/** The candidate an API answer (status, headers, JSON body) describes: `data` with an id and a name. */
export function candidateOfResponse(response: unknown): string | undefined {
  const body = (response as { body?: unknown } | undefined)?.body;
  if (typeof body !== 'string') return undefined;
  try {
    const data = (JSON.parse(body) as { data?: Record<string, unknown> })?.data;
    return data && typeof data.id === 'string' && typeof data.name === 'string' ? data.id : undefined;
  } catch {
    return undefined;
  }
}

class TenantIdempotencyLayer extends DynamoDBPersistenceLayer {
  constructor(private readonly tenantId: string) {
    super({
      tableName,
      awsSdkV3Client: ddbClient,
      keyAttr: TABLE_DEF.partitionKey,
      sortKeyAttr: TABLE_DEF.sortKey,
      staticPkValue: keys.idempotencyPartition(tenantId),
      // Seconds since the epoch, as TTL needs: expired records vanish without a write of ours.
      expiryAttr: TABLE_DEF.ttlAttribute,
      statusAttr: ATTRS.status,
      dataAttr: ATTRS.data,
      validationKeyAttr: ATTRS.validation,
      inProgressExpiryAttr: 'idem_in_progress_expires_ms',
    });
  }

  protected override async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const candidateId = candidateOfResponse(record.responseData);
    if (!candidateId) return super._updateRecord(record);
    const copy = copyIndexKey(this.tenantId, candidateId, record.idempotencyKey);
    const { byRequisitionOrUser } = TABLE_DEF.indexes;
    await ddbClient.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: this.getKey(record.idempotencyKey),
        UpdateExpression:
          'SET #expiry = :expiry, #status = :status, #response_data = :response_data, #validation_key = :validation_key, #cpk = :cpk, #csk = :csk',
        ExpressionAttributeNames: {
          '#expiry': TABLE_DEF.ttlAttribute,
          '#status': ATTRS.status,
          '#response_data': ATTRS.data,
          '#validation_key': ATTRS.validation,
          '#cpk': byRequisitionOrUser.partitionKey,
          '#csk': byRequisitionOrUser.sortKey,
        },
        ExpressionAttributeValues: marshall(
          {
            ':expiry': record.expiryTimestamp,
            ':status': record.getStatus(),
            ':response_data': record.responseData,
            ':validation_key': record.payloadHash,
            ':cpk': copy[byRequisitionOrUser.partitionKey],
            ':csk': copy[byRequisitionOrUser.sortKey],
          },
          { removeUndefinedValues: true },
        ),
      }),
    );
  }
}

export const idempotencyStore = (tenantId: string) => new TenantIdempotencyLayer(tenantId);
