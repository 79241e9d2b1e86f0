/** The workspace's API token lifetimes, an attribute of the tenant item (absent: the defaults). */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TOKEN_LIFETIME } from '../model';
import { ddb, tableName } from './client';
import { auditPuts, type AuditEntry } from './audit';
import { keys } from './table';

export interface StoredTokenLifetime {
  default_days: number;
  max_days: number;
}

/** The lifetimes in force; read strongly, so a token made right after a change obeys it. */
export async function getTokenLifetime(tenantId: string): Promise<StoredTokenLifetime> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId), ConsistentRead: true, ProjectionExpression: 'token_lifetime' }),
  );
  const saved = Item?.token_lifetime as Partial<StoredTokenLifetime> | undefined;
  return {
    default_days: Number(saved?.default_days ?? DEFAULT_TOKEN_LIFETIME.default_days),
    max_days: Number(saved?.max_days ?? DEFAULT_TOKEN_LIFETIME.max_days),
  };
}

/** Save the lifetimes, in one transaction with their audit record. */
export async function setTokenLifetime(tenantId: string, lifetime: StoredTokenLifetime, audit: AuditEntry): Promise<void> {
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.tenant(tenantId),
            UpdateExpression: 'SET token_lifetime = :l',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':l': { default_days: lifetime.default_days, max_days: lifetime.max_days } },
          },
        },
        ...auditPuts(tenantId, audit),
      ],
    }),
  );
}
