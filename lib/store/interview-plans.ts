/**
 * Interview plans in the table: one item per requisition (`IPLAN#<req id>`), the whole plan as one
 * document. Not under `REQ#<id>`, so the requisition's own Query never reads it. A plan holds no
 * candidate's personal data (member ids, step names, the kit).
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { PlanStep } from '../api/interview-plans';
import type { StoredPlan } from '../domain/interview-plan-rules';
import { auditPuts, type AuditEntry } from './audit';
import { ddb, tableName } from './client';
import type { Item } from './codec';
import { requisitionItem, type RequisitionItem } from './requisitions';
import { keys } from './table';
import { writeParts, type TxOutcome } from './tx';

const planFromItem = (item: Item): StoredPlan => ({
  steps: Array.isArray(item.steps) ? (item.steps as PlanStep[]) : [],
  version: typeof item.version === 'number' ? item.version : 0,
  updated_at: typeof item.updated_at === 'string' ? item.updated_at : null,
});

/**
 * A requisition and its plan, read consistently in one BatchGetItem; the requisition undefined when
 * the workspace has none of that id, the plan undefined when it has never been written.
 */
export async function getRequisitionAndPlan(
  tenantId: string,
  reqId: string,
): Promise<{ requisition: RequisitionItem | undefined; plan: StoredPlan | undefined }> {
  const wanted = [keys.requisition(tenantId, reqId), keys.interviewPlan(tenantId, reqId)];
  let pending: Record<string, unknown>[] = wanted;
  const found: Item[] = [];
  // BatchGet may leave keys unprocessed under throttling: ask again for those alone.
  while (pending.length) {
    const out = await ddb.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
    found.push(...((out.Responses?.[tableName()] ?? []) as Item[]));
    pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, unknown>[];
  }
  const req = found.find((i) => i.type === 'requisition');
  const plan = found.find((i) => i.type === 'interview_plan');
  return { requisition: req && requisitionItem(req), plan: plan && planFromItem(plan) };
}

export type PlanParts = 'requisition' | 'plan' | 'audit';

/**
 * Write the plan on condition that it is still the version the rule read (none for version 0) and
 * that the requisition still exists; the audit intent with it.
 */
export function writePlan(
  tenantId: string,
  reqId: string,
  readVersion: number,
  plan: StoredPlan,
  audit: AuditEntry,
): Promise<TxOutcome<PlanParts>> {
  return writeParts<PlanParts>({
    requisition: {
      ConditionCheck: { TableName: tableName(), Key: keys.requisition(tenantId, reqId), ConditionExpression: 'attribute_exists(PK)' },
    },
    plan: {
      Put: {
        TableName: tableName(),
        Item: { ...keys.interviewPlan(tenantId, reqId), type: 'interview_plan', req_id: reqId, ...plan },
        ConditionExpression: readVersion === 0 ? 'attribute_not_exists(PK)' : 'version = :v',
        ...(readVersion !== 0 && { ExpressionAttributeValues: { ':v': readVersion } }),
      },
    },
    audit: auditPuts(tenantId, audit),
  });
}
