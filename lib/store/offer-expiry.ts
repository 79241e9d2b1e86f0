/**
 * Offer expiry's due items: a global partition ordered by expiry time, one item per sent offer
 * with an `expires_at`, so the scheduled run finds every offer past its expiry with one Query and
 * never scans. The item is put in the transaction that sends the offer and deleted in the one that
 * takes it out of `sent` (accepted, declined, rescinded, expired); a sent offer's terms are locked,
 * so its expiry never moves. A due item holds ids and a time only. Outside `keys` (lib/store/table.ts)
 * so that only the offer functions bundle it.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, queryUpTo, tableName } from './client';
import type { Key } from './table';

const OFFER_EXPIRY_DUE = 'OFFER_EXPIRY_DUE';

/** The due item's key: `<expires_at>#<tenant>#<offer id>` in the one global partition. */
export const offerExpiryKey = (tenantId: string, offerId: string, expiresAt: string): Key => ({
  PK: OFFER_EXPIRY_DUE,
  SK: `${expiresAt}#${tenantId}#${offerId}`,
});

/** The Put of a sent offer's due item, for the send transaction. */
export function offerExpiryPut(tenantId: string, offerId: string, expiresAt: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...offerExpiryKey(tenantId, offerId, expiresAt), type: 'offer_expiry_due', tenant_id: tenantId, offer_id: offerId },
    },
  };
}

/** The Delete of a sent offer's due item, for the transaction that takes the offer out of `sent`. */
export function offerExpiryDelete(tenantId: string, offerId: string, expiresAt: string) {
  return { Delete: { TableName: tableName(), Key: offerExpiryKey(tenantId, offerId, expiresAt) } };
}

export interface DueExpiry {
  tenantId: string;
  offerId: string;
  expiresAt: string;
  sk: string;
}

/** Offers whose expiry is at or before `nowIso`, oldest first, at most `limit`: one Query of their partition. */
export async function dueOfferExpiries(nowIso: string, limit: number): Promise<DueExpiry[]> {
  const items = await queryUpTo(
    {
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK < :upto',
      ExpressionAttributeValues: { ':pk': OFFER_EXPIRY_DUE, ':upto': `${nowIso}#~` },
      ConsistentRead: true,
    },
    limit,
  );
  return items.map((i) => {
    const sk = String(i.SK);
    return { tenantId: String(i.tenant_id), offerId: String(i.offer_id), expiresAt: sk.slice(0, sk.indexOf('#')), sk };
  });
}

/** A due item done with (its offer expired by another run, or no longer sent): it goes. */
export async function offerExpiryDone(sk: string): Promise<void> {
  await ddb.send(new DeleteCommand({ TableName: tableName(), Key: { PK: OFFER_EXPIRY_DUE, SK: sk } }));
}
