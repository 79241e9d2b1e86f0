/**
 * Offers in the table: the offer item (`OFFER#<id>`), its versions and its approvers' decisions
 * right after it (`OFFER#<id>#V#<n>`, `OFFER#<id>#A#<n>`: one Query reads them all), the candidate's open-offer guard (`OPENOFFER#<cid>`)
 * and the candidate's offers on GSI2. The offer and each version copy the candidate's personal
 * data (compensation): each is written with its copy-ledger entry and on condition that the
 * candidate has no erasure marker (lib/store/copies.ts), so an erasure reaches every one.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  awaitedOfferFromItem,
  offerFromItem,
  offerVersionFromItem,
  TERM_FIELDS,
  type OfferRecord,
  type OfferVersionRecord,
} from '../entities/offer';
import type { OfferStatusPlan, OfferTermsPlan } from '../domain/offer-rules';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, queryAll, tableName } from './client';
import type { Item } from './codec';
import { ledgerItem, notErasedCheck } from './copies';
import { decisionOf, type StoredDecision } from './offer-approvals';
import { offerExpiryDelete, offerExpiryPut } from './offer-expiry';
import { changes as changesWaiting, type AwaitingChange } from './awaiting-set';
import { awaitingActions, awaitingAttr, awaitingCondition } from './offer-awaiting';
import { candidateOffersIndexKey, candidateOffersPartition, counter, keys, TABLE_DEF } from './table';
import { writeParts, type TxOutcome } from './tx';
import { $remove, update } from './update';

const { byRequisitionOrUser } = TABLE_DEF.indexes;

/** An offer as a create writes it: the record's fields (without `null`s) plus its keys. */
export function offerItem(tenantId: string, o: OfferRecord): Item {
  const attrs = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
  return { ...keys.offer(tenantId, o.id), ...candidateOffersIndexKey(tenantId, o.candidate_id, o.id), type: 'offer', ...attrs };
}

/** A version: the offer's terms as they are now, numbered. */
export function versionItem(tenantId: string, o: Item, version: number, at: string): Item {
  const terms = Object.fromEntries(TERM_FIELDS.filter((f) => o[f] !== null && o[f] !== undefined).map((f) => [f, o[f]]));
  return {
    ...keys.offerVersion(tenantId, String(o.id), version),
    type: 'offer_version',
    offer_id: o.id,
    candidate_id: o.candidate_id,
    version,
    ...terms,
    created_at: at,
  };
}

/** One offer, read consistently; undefined when the workspace has none of that id. */
export async function getOffer(tenantId: string, id: string): Promise<OfferRecord | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.offer(tenantId, id), ConsistentRead: true }));
  return Item && awaitedOfferFromItem(Item);
}

/** The candidate's open offer's id, read consistently from its open-offer slot; undefined when none is open. */
export async function getOpenOfferId(tenantId: string, candidateId: string): Promise<string | undefined> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.openOffer(tenantId, candidateId), ConsistentRead: true }),
  );
  return typeof Item?.offer_id === 'string' ? Item.offer_id : undefined;
}

/** An offer with its versions, oldest first: one Query over the offer's sort-key range. */
export async function getOfferWithVersions(
  tenantId: string,
  id: string,
): Promise<{ offer: OfferRecord; versions: OfferVersionRecord[]; decisions: StoredDecision[] } | undefined> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':p': keys.offerWithVersionsPrefix(id) },
    ConsistentRead: true,
  });
  const own = items.filter((i) => (i.type === 'offer' ? i.SK === keys.offer(tenantId, id).SK : i.offer_id === id));
  const head = own.find((i) => i.type === 'offer');
  if (!head) return undefined;
  return {
    offer: awaitedOfferFromItem(head),
    versions: own.filter((i) => i.type === 'offer_version').map(offerVersionFromItem),
    decisions: own.filter((i) => i.type === 'offer_approval').map(decisionOf),
  };
}

/** A candidate's offers, newest first: one Query of GSI2 (a candidate has a handful). */
export async function listCandidateOffers(tenantId: string, candidateId: string): Promise<OfferRecord[]> {
  const { Items = [] } = await ddb.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: byRequisitionOrUser.name,
      KeyConditionExpression: `${byRequisitionOrUser.partitionKey} = :pk`,
      ExpressionAttributeValues: { ':pk': candidateOffersPartition(tenantId, candidateId) },
      ScanIndexForward: false,
    }),
  );
  return Items.map(offerFromItem);
}

export type CreateParts = 'erased' | 'open' | 'offer' | 'version' | 'ledger' | 'audit';

/**
 * Create an offer in one transaction: the candidate's open-offer guard (refused when it has one:
 * the refusal's item names that offer), the offer, its first version, their ledger entry, the
 * erasure check and the audit intent.
 */
export function writeOfferCreate(tenantId: string, o: OfferRecord, audit: AuditEntry | undefined): Promise<TxOutcome<CreateParts>> {
  const item = offerItem(tenantId, o);
  const version = versionItem(tenantId, item, 1, o.created_at);
  return writeParts<CreateParts>({
    erased: notErasedCheck(tenantId, o.candidate_id),
    open: {
      Put: {
        TableName: tableName(),
        Item: { ...keys.openOffer(tenantId, o.candidate_id), type: 'open_offer', offer_id: o.id, candidate_id: o.candidate_id },
        ConditionExpression: 'attribute_not_exists(PK)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    offer: { Put: { TableName: tableName(), Item: item } },
    version: { Put: { TableName: tableName(), Item: version } },
    ledger: { Put: { TableName: tableName(), Item: ledgerItem(tenantId, o.candidate_id, [item, version]) } },
    audit: audit && auditPuts(tenantId, audit),
  });
}

/**
 * The offer's update on the condition that it is as the rule read it (status and version; and,
 * when the change moves who the offer waits for, the set read), with that set written.
 */
const offerUpdate = (tenantId: string, current: OfferRecord, changes: Item, awaiting?: AwaitingChange) => {
  const waits = awaiting && changesWaiting(awaiting) ? awaitingCondition(awaiting) : undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.offer(tenantId, current.id),
      ...update(waits ? { ...changes, ...awaitingAttr(awaiting!) } : changes, {
        expression: `attribute_exists(PK) AND #st = :from AND #ver = :ver${waits ? ` AND ${waits.expression}` : ''}`,
        names: { '#st': 'status', '#ver': 'version', ...waits?.names },
        values: { ':from': current.status, ':ver': current.version, ...waits?.values },
      }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
};

/** The members' list items of a change of who the offer waits for (none when it changes nobody). */
const waitingParts = (tenantId: string, o: OfferRecord, awaiting?: AwaitingChange) =>
  awaiting && changesWaiting(awaiting) ? awaitingActions(tenantId, o, awaiting) : undefined;

const withRemovals = (set: Item, remove: readonly string[]): Item => ({ ...set, ...Object.fromEntries(remove.map((f) => [f, $remove()])) });

export type StatusParts = 'offer' | 'open' | 'pending' | 'expiry' | 'waiting' | 'audit';

/** How a status change moves its requisition's count of sent offers: +1 into `sent`, -1 out of it. */
const sentDelta = (from: OfferRecord['status'], to: unknown): number => (to === 'sent' ? 1 : 0) - (from === 'sent' ? 1 : 0);

/**
 * Write a status change: the offer as read, when it closes the candidate's open-offer guard freed,
 * the requisition's count of sent offers (`offers_pending`) moved, and a sent offer's expiry due
 * item (lib/store/offer-expiry.ts) put or deleted, in the same transaction.
 */
export async function writeOfferStatus(
  tenantId: string,
  plan: OfferStatusPlan,
  awaiting?: AwaitingChange,
): Promise<{ outcome: TxOutcome<StatusParts>; after: OfferRecord }> {
  const { current } = plan;
  const outcome = await writeParts<StatusParts>({
    offer: offerUpdate(tenantId, current, withRemovals(plan.set, plan.remove), awaiting),
    open: plan.closes && {
      Delete: {
        TableName: tableName(),
        Key: keys.openOffer(tenantId, current.candidate_id),
        ConditionExpression: 'offer_id = :id',
        ExpressionAttributeValues: { ':id': current.id },
      },
    },
    pending: pendingUpdate(tenantId, current, plan.set.status),
    expiry: expiryUpdate(tenantId, current, plan.set.status),
    waiting: waitingParts(tenantId, current, awaiting),
    audit: plan.audit && auditPuts(tenantId, plan.audit),
  });
  return { outcome, after: applied(current, plan.set, plan.remove) };
}

/** A sent offer with an expiry has its due item: put as it enters `sent`, deleted as it leaves. */
function expiryUpdate(tenantId: string, current: OfferRecord, to: unknown) {
  const at = current.offer_expires_at;
  if (!at || (to === 'sent') === (current.status === 'sent')) return undefined;
  return to === 'sent' ? offerExpiryPut(tenantId, current.id, at) : offerExpiryDelete(tenantId, current.id, at);
}

/** The requisition's count of sent offers, when the change enters or leaves `sent`. */
function pendingUpdate(tenantId: string, current: OfferRecord, to: unknown) {
  const delta = sentDelta(current.status, to);
  if (!current.req_id || delta === 0) return undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.requisition(tenantId, current.req_id),
      UpdateExpression: 'ADD #n :d',
      // Only an existing requisition: an ADD alone would create a bare item.
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#n': counter.offersSent },
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}

export type TermsParts = 'erased' | 'offer' | 'version' | 'ledger' | 'waiting' | 'audit';

/**
 * Write a change of terms: the offer as read, and its version: the next one (put once, never
 * overwritten) with its ledger entry, or, before any approval request, the first one again.
 */
export async function writeOfferTerms(
  tenantId: string,
  plan: OfferTermsPlan,
  awaiting?: AwaitingChange,
): Promise<{ outcome: TxOutcome<TermsParts>; after: OfferRecord }> {
  const { current } = plan;
  const after = applied(current, plan.set, plan.remove);
  const version = versionItem(tenantId, after as unknown as Item, plan.version, String(plan.set.updated_at));
  const outcome = await writeParts<TermsParts>({
    erased: notErasedCheck(tenantId, current.candidate_id),
    offer: offerUpdate(tenantId, current, withRemovals(plan.set, plan.remove), awaiting),
    version: {
      Put: { TableName: tableName(), Item: version, ...(plan.newVersion && { ConditionExpression: 'attribute_not_exists(PK)' }) },
    },
    ledger: plan.newVersion && { Put: { TableName: tableName(), Item: ledgerItem(tenantId, current.candidate_id, [version]) } },
    waiting: waitingParts(tenantId, current, awaiting),
    audit: plan.audit && auditPuts(tenantId, plan.audit),
  });
  return { outcome, after };
}

function applied(current: OfferRecord, set: Item, remove: readonly string[]): OfferRecord {
  const out: Item = { ...current, ...set };
  for (const f of remove) out[f] = null;
  return out as OfferRecord;
}
