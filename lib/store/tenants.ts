/** Tenants (workspaces): the tenant item, its slug lookup and its counter item. */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../errors';
import { newId, nowIso } from '../ids';
import type { Stage } from '../model';
import { ddb, tableName } from './client';
import { type Item, optNumberMap, str } from './codec';
import type { RetentionDays } from './retention';
import { saveThresholds } from './stuck';
import type { AuditEntry } from './audit';
import { cancellationReasons } from './tx';
import { keys, STATS_SHARDS } from './table';
import { otherShardUpdates } from './stats-shards';

export interface Tenant {
  id: string;
  slug: string;
  name: string;
  created_at: string;
  /**
   * Overrides saved before the stuck index: thresholds now live on the STATS item
   * (lib/store/stuck.ts). Read only for a tenant whose STATS item has none yet.
   */
  stuck_days?: Partial<Record<Stage, number>>;
}

export async function createTenant(slug: string, name: string, id = newId()): Promise<Tenant> {
  const tenant: Tenant = { id, slug, name, created_at: nowIso() };
  try {
    await ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.slug(slug), type: 'slug', tenant_id: tenant.id },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          { Put: { TableName: tableName(), Item: { ...keys.tenant(tenant.id), type: 'tenant', ...tenant } } },
          // Thresholds version 0 (the defaults), already applied to the (empty) stuck index.
          {
            Put: {
              TableName: tableName(),
              Item: {
                ...keys.stats(tenant.id),
                type: 'stats',
                total: 0,
                stuck_days: {},
                stuck_v: 0,
                stuck_done_v: 0,
                stats_shards: STATS_SHARDS,
              },
            },
          },
          ...otherShardUpdates(tenant.id, { stats_shards: STATS_SHARDS, stuck_v: 0, stuck_days: {} }),
        ],
      }),
    );
  } catch (err) {
    if (cancellationReasons(err)?.[0]?.Code === 'ConditionalCheckFailed') {
      throw new ConflictError(`tenant ${slug} already exists`);
    }
    throw err;
  }
  return tenant;
}

export async function getTenant(tenantId: string): Promise<Tenant | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId) }));
  return Item ? tenantFromItem(Item) : undefined;
}

export async function getTenantBySlug(slug: string): Promise<Tenant> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.slug(slug), ConsistentRead: true }));
  const tenant = Item && (await getTenant(str(Item, 'tenant_id', 'slug')));
  if (!tenant) throw new NotFoundError(`tenant ${slug}`);
  return tenant;
}

/**
 * Replace the tenant's stuck-threshold overrides (on its STATS item); the stuck index catches up
 * in the background (lib/store/stuck.ts).
 */
export async function setStuckDays(
  tenantId: string,
  stuckDays: Partial<Record<Stage, number>>,
  opts: { retention?: RetentionDays; audit?: AuditEntry; also?: Record<string, unknown> } = {},
) {
  await saveThresholds(tenantId, stuckDays, opts);
}

/** The tenant item's codec. */
function tenantFromItem(item: Item): Tenant {
  const stuck_days = optNumberMap<Stage>(item, 'stuck_days', 'tenant');
  return {
    id: str(item, 'id', 'tenant'),
    slug: str(item, 'slug', 'tenant'),
    name: str(item, 'name', 'tenant'),
    created_at: str(item, 'created_at', 'tenant'),
    ...(stuck_days ? { stuck_days } : {}),
  };
}
