/** The careers site's workspace settings, kept on the tenant item (lib/store/tenants.ts). */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, tableName } from './client';
import { keys } from './table';

export interface CareersSettings {
  /** The name the careers site shows; null for the workspace's own name. */
  careers_name: string | null;
  /** An https URL of the logo, or null. */
  careers_logo_url: string | null;
  /** An https URL of the workspace's privacy notice, or null. */
  careers_privacy_url: string | null;
}

const FIELDS = ['careers_name', 'careers_logo_url', 'careers_privacy_url'] as const;
const opt = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** The workspace's name and careers settings; undefined for a tenant that does not exist. `consistent` after a change. */
export async function getCareersSettings(tenantId: string, consistent = false): Promise<(CareersSettings & { name: string }) | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.tenant(tenantId),
      ...(consistent && { ConsistentRead: true }),
      ProjectionExpression: '#n, careers_name, careers_logo_url, careers_privacy_url',
      ExpressionAttributeNames: { '#n': 'name' },
    }),
  );
  if (!Item) return undefined;
  return {
    name: String(Item.name ?? ''),
    careers_name: opt(Item.careers_name),
    careers_logo_url: opt(Item.careers_logo_url),
    careers_privacy_url: opt(Item.careers_privacy_url),
  };
}

/** Sets each field given (null removes it), in one transaction with `audit` when given. */
export async function saveCareersSettings(tenantId: string, patch: Partial<CareersSettings>, audit?: AuditEntry): Promise<void> {
  const set: string[] = [];
  const remove: string[] = [];
  const values: Record<string, string> = {};
  for (const f of FIELDS) {
    if (!(f in patch)) continue;
    const v = patch[f];
    if (v) {
      set.push(`${f} = :${f}`);
      values[`:${f}`] = v;
    } else remove.push(f);
  }
  if (!set.length && !remove.length) return;
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.tenant(tenantId),
            UpdateExpression: [set.length && `SET ${set.join(', ')}`, remove.length && `REMOVE ${remove.join(', ')}`]
              .filter(Boolean)
              .join(' '),
            ConditionExpression: 'attribute_exists(PK)',
            ...(set.length && { ExpressionAttributeValues: values }),
          },
        },
        ...(audit ? auditPuts(tenantId, audit) : []),
      ],
    }),
  );
}
