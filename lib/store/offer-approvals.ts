/**
 * Offer approvals in the table: the workspace's chain (an attribute of the tenant item) and each
 * approver's decision, one immutable item per decision right after its offer
 * (`OFFER#<id>#A#<n>`), numbered in the order they landed. The number is the race's referee: two
 * approvers deciding at once both want decision n, one put wins, the other decides again on what
 * it left. A decision's comment is personal data: the item is written with its copy-ledger entry
 * and the erasure check, as the offer is.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovalDecision, ApprovalPlan, ApprovalStep } from '../domain/offer-approvals';
import type { OfferRecord } from '../entities/offer';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, tableName } from './client';
import type { Item } from './codec';
import { ledgerItem, notErasedCheck } from './copies';
import { keys } from './table';
import { writeParts, type TxOutcome } from './tx';
import { changes as changesWaiting, type AwaitingChange } from './awaiting-set';
import { awaitingActions, awaitingAttr, awaitingCondition } from './offer-awaiting';
import { update } from './update';

/** A decision as stored: the rule's fields and the approver's comment. */
export interface StoredDecision extends ApprovalDecision {
  comment: string | null;
}

export const approvalKey = (tenantId: string, offerId: string, n: number) => ({
  PK: keys.tenantPartition(tenantId),
  SK: `${keys.offerWithVersionsPrefix(offerId)}#A#${String(n).padStart(6, '0')}`,
});

/** A decision item read back (lib/store/offers.ts reads them with the offer). */
export const decisionOf = (i: Item): StoredDecision => ({
  step: Number(i.step),
  user_id: String(i.user_id),
  decision: i.decision === 'reject' ? 'reject' : 'approve',
  version: Number(i.version),
  at: String(i.at),
  comment: typeof i.comment === 'string' ? i.comment : null,
});

/** The chain in force; read strongly, so a decision right after a change obeys it. */
export async function getApprovalChain(tenantId: string): Promise<ApprovalStep[]> {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId), ConsistentRead: true, ProjectionExpression: 'offer_approvals' }),
  );
  return Array.isArray(Item?.offer_approvals) ? (Item.offer_approvals as ApprovalStep[]) : [];
}

/** Save the chain, in one transaction with its audit record. */
export async function setApprovalChain(tenantId: string, steps: ApprovalStep[], audit: AuditEntry): Promise<void> {
  await ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.tenant(tenantId),
            UpdateExpression: 'SET offer_approvals = :s',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':s': steps },
          },
        },
        ...auditPuts(tenantId, audit),
      ],
    }),
  );
}

export type DecisionParts = 'erased' | 'decision' | 'offer' | 'ledger' | 'waiting' | 'audit';

/**
 * Write one decision: the decision item numbered after the ones read (put once), the offer still
 * pending approval at the version decided on and still waiting for whom it was read waiting for
 * (its status set when the decision ends the chain, and who it waits for next), the members' list
 * items of that change (lib/store/offer-awaiting.ts), the ledger entry and the erasure check when
 * a comment is kept, and the audit intent.
 */
export function writeDecision(
  tenantId: string,
  o: OfferRecord,
  plan: ApprovalPlan,
  comment: string | undefined,
  audit: AuditEntry | undefined,
  awaiting: AwaitingChange = {},
): Promise<TxOutcome<DecisionParts>> {
  const d = plan.decision;
  const item: Item = {
    ...approvalKey(tenantId, o.id, plan.seen),
    type: 'offer_approval',
    offer_id: o.id,
    candidate_id: o.candidate_id,
    ...d,
    ...(comment !== undefined && { comment }),
  };
  const offerKey = keys.offer(tenantId, o.id);
  const waits = changesWaiting(awaiting) ? awaitingCondition(awaiting) : undefined;
  const condition = {
    expression: `attribute_exists(PK) AND #st = :pending AND #ver = :ver${waits ? ` AND ${waits.expression}` : ''}`,
    names: { '#st': 'status', '#ver': 'version', ...waits?.names },
    values: { ':pending': 'pending_approval', ':ver': o.version, ...waits?.values },
  };
  const set = { ...(plan.status && { status: plan.status, updated_at: d.at }), ...(waits && awaitingAttr(awaiting)) };
  return writeParts<DecisionParts>({
    erased: comment !== undefined && notErasedCheck(tenantId, o.candidate_id),
    decision: { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
    offer:
      Object.keys(set).length > 0
        ? { Update: { TableName: tableName(), Key: offerKey, ...update(set, condition) } }
        : {
            ConditionCheck: {
              TableName: tableName(),
              Key: offerKey,
              ConditionExpression: condition.expression,
              ExpressionAttributeNames: condition.names,
              ExpressionAttributeValues: condition.values,
            },
          },
    ledger: comment !== undefined && { Put: { TableName: tableName(), Item: ledgerItem(tenantId, o.candidate_id, [item]) } },
    waiting: waits && awaitingActions(tenantId, o, awaiting),
    audit: audit && auditPuts(tenantId, audit),
  });
}
