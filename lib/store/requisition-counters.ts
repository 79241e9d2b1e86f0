/**
 * A requisition's part in a candidate's write: its counters, its open-and-headcount condition,
 * and the automatic `filled` a hire may cause, all in the candidate's transaction.
 */
import type { RequisitionPart } from '../domain/requisition-rules';
import { tableName } from './client';
import type { Item } from './codec';
import { BY_STATUS, statusChangePut, SYSTEM, versionIs } from './requisitions';
import { counter, keys, reqStatusIndexKey } from './table';

/**
 * The requisition's part of a candidate write that changes its counters by `deltas`, as the rule
 * decided it (requisitionPart): its update, conditioned on what the rule assumed, and for a hire
 * that fills it the status change (`filled`: its history record by `system`, and the tenant's
 * status counters in `stats`, for the caller's own update of the STATS item). The update returns
 * the requisition its condition saw, so a refusal decides again without a read.
 */
export function reqCounterWrite(
  tenantId: string,
  part: RequisitionPart,
  deltas: Record<string, number>,
  at: string,
): { update: Item; filled: Item[]; stats: Record<string, number> } {
  const reqId = part.id;
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = Object.entries(deltas).map(([attr, delta], i) => {
    names[`#c${i}`] = attr;
    values[`:c${i}`] = delta;
    return `#c${i} :c${i}`;
  });
  const conditions = ['attribute_exists(PK)'];
  if (part.mustBeOpen || part.fills) {
    names['#status'] = 'status';
    values[':open'] = 'open';
    conditions.push('#status = :open');
  }
  let sets = '';
  const filled: Item[] = [];
  let stats: Record<string, number> = {};
  if (part.placing) {
    Object.assign(names, { '#status': 'status', '#placed': counter.stage('placed'), '#hc': 'headcount', '#fill': 'fill_at' });
    values[':open'] = 'open';
    if (part.fills) {
      const version = part.fills.version + 1;
      const cond = versionIs({ version: part.fills.version });
      names['#v'] = 'version';
      Object.assign(values, cond.values, {
        ':filled': 'filled',
        ':nv': version,
        ':at': at,
        ':gpk': reqStatusIndexKey(tenantId, 'filled', reqId)[BY_STATUS.partitionKey],
      });
      conditions.push(cond.expr, '#placed >= #fill', '#placed < #hc');
      names['#gpk'] = BY_STATUS.partitionKey;
      sets = ' SET #status = :filled, #v = :nv, updated_at = :at, #gpk = :gpk';
      filled.push(
        statusChangePut(tenantId, { id: reqId, title: part.fills.title }, version, {
          from: 'open',
          to: 'filled',
          reason: null,
          actor: SYSTEM,
          at,
        }),
      );
      stats = { [counter.reqStatus('open')]: -1, [counter.reqStatus('filled')]: 1 };
    } else {
      conditions.push('(attribute_not_exists(#hc) OR #placed < #fill OR (#status <> :open AND #placed < #hc))');
    }
  }
  return {
    update: {
      Update: {
        TableName: tableName(),
        Key: keys.requisition(tenantId, reqId),
        UpdateExpression: `ADD ${adds.join(', ')}${sets}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    filled,
    stats,
  };
}
