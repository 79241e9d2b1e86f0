/**
 * A requisition's field or status change in named parts, built from the plan a rule decided
 * (lib/domain/requisition-rules.ts): the requisition at the version read, its history record,
 * the tenant's status counters and the audit intent. It answers what happened by part name.
 */
import type { FieldsPlan, StatusPlan } from '../domain/requisition-changes';
import { auditPuts } from './audit';
import { tableName } from './client';
import type { Item } from './codec';
import { actorAttrs, BY_STATUS, requisitionItem, statsStatusMove, statusChangePut, versionIs, type RequisitionItem } from './requisitions';
import { boardStatusPart, postingCopiesPart } from './posting-index';
import { counter, keys, reqStatusIndexKey } from './table';
import { writeParts, type TxOutcome } from './tx';

export type FieldParts = 'requisition' | 'posting' | 'audit';

/**
 * Write a field change: one update conditioned on the version read (and, for a headcount, on the
 * hires staying at or below it: placements do not change the version). A transaction, not an
 * UpdateItem, so the audit record goes with the change; it returns no item, so `after` is the one
 * read with the changes applied.
 */
export async function writeFields(tenantId: string, plan: FieldsPlan): Promise<{ outcome: TxOutcome<FieldParts>; after: RequisitionItem }> {
  const { current, version, actor } = plan;
  const set: Item = { ...plan.set };
  const remove = [...plan.remove];
  if (typeof set.headcount === 'number') set.fill_at = set.headcount - 1;
  Object.assign(set, { updated_at: plan.at, version, ...actorAttrs(actor) });
  // An actor without a name or email must not keep the previous actor's.
  if (actor.type === 'system' || actor.name === undefined) remove.push('actor_name');
  if (actor.type === 'system' || actor.email === undefined) remove.push('actor_email');
  if (actor.type === 'system') remove.push('actor_id');
  const cond = versionIs(current);
  const names: Record<string, string> = { '#v': 'version' };
  const values: Record<string, unknown> = { ...cond.values };
  const sets = Object.entries(set).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  const removes = remove.map((k, i) => {
    names[`#r${i}`] = k;
    return `#r${i}`;
  });
  let condition = `attribute_exists(PK) AND ${cond.expr}`;
  if (typeof set.headcount === 'number') {
    names['#placed'] = counter.stage('placed');
    values[':hc'] = set.headcount;
    condition += ' AND (attribute_not_exists(#placed) OR #placed <= :hc)';
  }
  const after = { ...current, ...set } as RequisitionItem;
  for (const f of remove) delete (after as Item)[f];
  const outcome = await writeParts<FieldParts>({
    requisition: {
      Update: {
        TableName: tableName(),
        Key: keys.requisition(tenantId, current.id),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    // The posting's copies of the fields a board listing shows.
    posting: postingCopiesPart(tenantId, current, set, remove),
    audit: plan.audit && auditPuts(tenantId, plan.audit),
  });
  return { outcome, after: requisitionItem(after) };
}

export type StatusParts = 'requisition' | 'history' | 'stats' | 'board' | 'audit';

/**
 * Write a status change: the requisition at the version read (and in the status read), its
 * history record numbered by the new version, the tenant's status counters.
 */
export async function writeStatus(
  tenantId: string,
  plan: StatusPlan,
): Promise<{ outcome: TxOutcome<StatusParts>; after: RequisitionItem }> {
  const { current, to, version, actor, at } = plan;
  const { id } = current;
  const from = current.status;
  const cond = versionIs(current);
  const after = { ...current, ...reqStatusIndexKey(tenantId, to, id), status: to, version, updated_at: at };
  const outcome = await writeParts<StatusParts>({
    requisition: {
      Update: {
        TableName: tableName(),
        Key: keys.requisition(tenantId, id),
        UpdateExpression: 'SET #status = :to, #v = :nv, updated_at = :at, #gpk = :gpk, #gsk = :gsk',
        ConditionExpression: `attribute_exists(PK) AND #status = :from AND ${cond.expr}`,
        ExpressionAttributeNames: { '#status': 'status', '#v': 'version', '#gpk': BY_STATUS.partitionKey, '#gsk': BY_STATUS.sortKey },
        ExpressionAttributeValues: {
          ...cond.values,
          ':to': to,
          ':from': from,
          ':nv': version,
          ':at': at,
          ':gpk': after[BY_STATUS.partitionKey],
          ':gsk': after[BY_STATUS.sortKey],
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    history: statusChangePut(tenantId, current, version, { from, to, reason: plan.reason, actor, at }),
    stats: statsStatusMove(tenantId, { [counter.reqStatus(from)]: -1, [counter.reqStatus(to)]: 1 }),
    // A published posting is on the public board exactly while its requisition is open.
    board: boardStatusPart(tenantId, current, from === 'open', to === 'open'),
    audit: plan.audit && auditPuts(tenantId, plan.audit),
  });
  return { outcome, after };
}
