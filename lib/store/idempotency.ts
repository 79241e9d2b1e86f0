/**
 * Where Idempotency-Key records live: Powertools Idempotency's DynamoDB persistence layer, kept
 * in the single table under the tenant's own partition `T#<tenant>#IDEM` (never in a partition
 * another tenant could reach), with the table's TTL attribute so DynamoDB deletes them after
 * 24 h. One layer per request: its partition value is the caller's tenant.
 *
 * A record keeps the first answer, and an answer that is a candidate holds its personal data: the
 * write that stores such an answer is a copy (lib/store/copies.ts). It is one transaction: the
 * record's update, its ledger entry, and the check that the candidate has no erasure marker. If
 * the candidate was erased since the handler answered, the record keeps the answer with the
 * personal fields emptied instead, as an erasure would have left it.
 */
import { TransactionCanceledException, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { ddbClient, tableName } from './client';
import { ledgerItem, notErasedCheck } from './copies';
import { scrubStoredResponse } from './stored-response';
import { keys, TABLE_DEF } from './table';

const ATTRS = {
  status: 'idem_status',
  data: 'idem_response',
  validation: 'idem_payload_hash',
};

/**
 * The candidate whose personal data an API answer (status, headers, JSON body) holds: `data` with
 * an id and a name (a candidate), or with a candidate_id and a compensation (one of its offers).
 */
export function candidateOfResponse(response: unknown): string | undefined {
  const body = (response as { body?: unknown } | undefined)?.body;
  if (typeof body !== 'string') return undefined;
  try {
    const data = (JSON.parse(body) as { data?: Record<string, unknown> })?.data;
    if (data && typeof data.candidate_id === 'string' && typeof data.compensation === 'object')
      return data.erased_at ? undefined : data.candidate_id;
    // An erased candidate's answer (its name emptied) holds none of its data.
    return data && typeof data.id === 'string' && typeof data.name === 'string' && data.name !== '' ? data.id : undefined;
  } catch {
    return undefined;
  }
}

class TenantIdempotencyLayer extends DynamoDBPersistenceLayer {
  constructor(private readonly tenantId: string) {
    super({
      tableName: tableName(),
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
    const key = this.getKey(record.idempotencyKey);
    const save = (response: unknown, erasedAt?: string) => ({
      TableName: tableName(),
      Key: key,
      UpdateExpression: `SET #expiry = :expiry, #status = :status, #response_data = :response_data, #validation_key = :validation_key${
        erasedAt ? ', erased_at = :erased' : ''
      }`,
      ExpressionAttributeNames: {
        '#expiry': TABLE_DEF.ttlAttribute,
        '#status': ATTRS.status,
        '#response_data': ATTRS.data,
        '#validation_key': ATTRS.validation,
      },
      ExpressionAttributeValues: marshall(
        {
          ':expiry': record.expiryTimestamp,
          ':status': record.getStatus(),
          ':response_data': response,
          ':validation_key': record.payloadHash,
          ...(erasedAt && { ':erased': erasedAt }),
        },
        { removeUndefinedValues: true },
      ),
    });
    const copy = { ...unmarshall(key), type: 'idempotency_record', [TABLE_DEF.ttlAttribute]: record.expiryTimestamp };
    const check = notErasedCheck(this.tenantId, candidateId).ConditionCheck;
    try {
      await ddbClient.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { ConditionCheck: { ...check, Key: marshall(check.Key) } },
            { Update: save(record.responseData) },
            {
              Put: {
                TableName: tableName(),
                Item: marshall(ledgerItem(this.tenantId, candidateId, [copy]), { removeUndefinedValues: true }),
              },
            },
          ],
        }),
      );
    } catch (err) {
      const seen = err instanceof TransactionCanceledException ? err.CancellationReasons?.[0] : undefined;
      if (seen?.Code !== 'ConditionalCheckFailed') throw err;
      // Erased since the handler answered: the answer a retry gets is the erased candidate.
      const erasedAt = seen.Item?.erased_at?.S ?? new Date().toISOString();
      await ddbClient.send(new UpdateItemCommand(save(scrubStoredResponse(record.responseData, candidateId, erasedAt), erasedAt)));
    }
  }
}

export const idempotencyStore = (tenantId: string) => new TenantIdempotencyLayer(tenantId);
