/**
 * One-off upgrades of offers written before a feature existed, run once by an operator against a
 * deployed table (docs/deploying.md, "Upgrading a table with older offers") and by `npm start` on
 * a local one. A Scan is fine here: it runs outside any request, and finds nothing to do once the
 * data is current. Both are idempotent and safe beside live traffic: each write is conditioned on
 * the offer still being as the Scan saw it.
 *
 * - backfillOfferExpiry: a `sent` offer with an `expires_at`, sent before the expiry run existed,
 *   has no due item, so the run never expires it; it gets the item its send would have put.
 * - backfillOfferAwaiting: an offer pending approval, asked before the approvers' lists existed,
 *   is on no list until its next decision; it gets the items (and `awaiting`) its request would
 *   have written.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { awaitingOf } from '../lib/domain/offer-awaiting';
import { offerFromItem } from '../lib/entities/offer';
import { ddb, tableName } from '../lib/store/client';
import { getApprovalChain } from '../lib/store/offer-approvals';
import { awaitingActions, awaitingAttr, awaitingCondition } from '../lib/store/offer-awaiting';
import { offerExpiryKey } from '../lib/store/offer-expiry';
import { getOfferWithVersions } from '../lib/store/offers';
import { keys } from '../lib/store/table';
import { cancellationReasons } from '../lib/store/tx';
import { update } from '../lib/store/update';
import { itemsOfType } from './scan';

/** Every offer item the filter keeps, page by page (its tenant read from the item). */
const offersWhere = (filter: string, names: Record<string, string>, values: Record<string, unknown>) =>
  itemsOfType('offer', { filter, names, values });

/** The tenant of an offer item: its partition is `T#<tenant>`. */
const tenantOf = (item: Record<string, unknown>) => String(item.PK).slice(2);

/** A transaction that is refused (the offer changed, or the work is done already) is no work: false. */
async function wrote(actions: Record<string, unknown>[]): Promise<boolean> {
  try {
    await ddb.send(new TransactWriteCommand({ TransactItems: actions as never }));
    return true;
  } catch (err) {
    if (cancellationReasons(err)) return false;
    throw err;
  }
}

/**
 * Put the expiry due item of every sent offer with an `expires_at` that lacks one: on the
 * condition that the offer is still sent with that expiry (an offer answered meanwhile gets none),
 * and that the item is not there yet (run twice, it writes nothing). Resolves with how many it put.
 */
export async function backfillOfferExpiry(): Promise<number> {
  let put = 0;
  for await (const item of offersWhere('#st = :sent AND attribute_exists(offer_expires_at)', { '#st': 'status' }, { ':sent': 'sent' })) {
    const tenantId = tenantOf(item);
    const id = String(item.id);
    const at = String(item.offer_expires_at);
    const done = await wrote([
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.offer(tenantId, id),
          ConditionExpression: '#st = :sent AND offer_expires_at = :at',
          ExpressionAttributeNames: { '#st': 'status' },
          ExpressionAttributeValues: { ':sent': 'sent', ':at': at },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...offerExpiryKey(tenantId, id, at), type: 'offer_expiry_due', tenant_id: tenantId, offer_id: id },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    if (done) put++;
  }
  return put;
}

/**
 * Give every offer pending approval without an `awaiting` set the approvers' list items of the
 * step it waits at (read from its decisions and the chain in force), on the condition that it is
 * still pending at that version with no set (a decision meanwhile wrote one). Resolves with how
 * many offers it put on lists.
 */
export async function backfillOfferAwaiting(): Promise<number> {
  let listed = 0;
  const chains = new Map<string, Awaited<ReturnType<typeof getApprovalChain>>>();
  for await (const item of offersWhere(
    '#st = :pending AND attribute_not_exists(awaiting)',
    { '#st': 'status' },
    { ':pending': 'pending_approval' },
  )) {
    const tenantId = tenantOf(item);
    if (!chains.has(tenantId)) chains.set(tenantId, await getApprovalChain(tenantId));
    const found = await getOfferWithVersions(tenantId, String(item.id));
    if (!found) continue;
    const after = awaitingOf(found.offer, chains.get(tenantId)!, found.decisions);
    if (!after) continue;
    const change = { after };
    const offer = offerFromItem(item);
    const done = await wrote([
      {
        Update: {
          TableName: tableName(),
          Key: keys.offer(tenantId, offer.id),
          ...update(awaitingAttr(change), {
            expression: `#st = :pending AND #ver = :ver AND ${awaitingCondition(change).expression}`,
            names: { '#st': 'status', '#ver': 'version', ...awaitingCondition(change).names },
            values: { ':pending': 'pending_approval', ':ver': found.offer.version },
          }),
        },
      },
      ...awaitingActions(tenantId, offer, change),
    ]);
    if (done) listed++;
  }
  return listed;
}
