/**
 * A requisition's part in a candidate's write: its counters, its open-and-headcount condition,
 * and the automatic `filled` a hire may cause, all in the candidate's transaction.
 */
import { placementOutcome, HeadcountReachedError } from '../domain/requisition-rules';
import { RequisitionNotOpenError } from '../errors';
import { tableName } from './client';
import type { Item } from './codec';
import {
  BY_STATUS,
  hireStateOf,
  reqHeadcount,
  reqStageCount,
  reqVersion,
  requisitionItem,
  statusChangePut,
  SYSTEM,
  versionIs,
} from './requisitions';
import { counter, keys, reqStatusIndexKey } from './table';

/**
 * The requisition's part of a candidate write that adds to its counters: a candidate created on
 * it or moved onto it (`mustBeOpen`), or moved into `placed` on it (`placing`). `seen` is the
 * requisition as last read (or as a failed condition saw it); without it the write assumes the
 * common case (open when it must be, and a hire that neither fills nor exceeds the headcount)
 * and its condition checks that. A placement that fills the requisition sets it `filled` in the
 * same transaction, with a history record by `system` and the tenant's status counters
 * (`stats`, for the caller's own update of the STATS item).
 */
export function reqCounterWrite(
  tenantId: string,
  reqId: string,
  deltas: Record<string, number>,
  opts: { mustBeOpen?: boolean; placing?: boolean; seen?: Item; at: string },
): { update: Item; extra: Item[]; stats: Record<string, number> } {
  // Only a read of this requisition counts: a retry after the candidate changed requisition may
  // still hold the old one's.
  const seen = opts.seen && opts.seen.id === reqId ? requisitionItem(opts.seen) : undefined;
  if (seen && opts.mustBeOpen && seen.status !== 'open') throw new RequisitionNotOpenError(seen.status);
  const outcome = opts.placing && seen ? placementOutcome(hireStateOf(seen)) : 'counts';
  if (outcome === 'full') throw new HeadcountReachedError(reqStageCount(seen!, 'placed'), reqHeadcount(seen!)!);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = Object.entries(deltas).map(([attr, delta], i) => {
    names[`#c${i}`] = attr;
    values[`:c${i}`] = delta;
    return `#c${i} :c${i}`;
  });
  const conditions = ['attribute_exists(PK)'];
  if (opts.mustBeOpen || outcome === 'fills') {
    names['#status'] = 'status';
    values[':open'] = 'open';
    conditions.push('#status = :open');
  }
  let sets = '';
  const extra: Item[] = [];
  let stats: Record<string, number> = {};
  if (opts.placing) {
    Object.assign(names, { '#status': 'status', '#placed': counter.stage('placed'), '#hc': 'headcount', '#fill': 'fill_at' });
    values[':open'] = 'open';
    if (outcome === 'fills') {
      const version = reqVersion(seen!) + 1;
      const cond = versionIs(seen!);
      names['#v'] = 'version';
      Object.assign(values, cond.values, {
        ':filled': 'filled',
        ':nv': version,
        ':at': opts.at,
        ':gpk': reqStatusIndexKey(tenantId, 'filled', reqId)[BY_STATUS.partitionKey],
      });
      conditions.push(cond.expr, '#placed >= #fill', '#placed < #hc');
      names['#gpk'] = BY_STATUS.partitionKey;
      sets = ' SET #status = :filled, #v = :nv, updated_at = :at, #gpk = :gpk';
      extra.push(statusChangePut(tenantId, seen!, version, { from: 'open', to: 'filled', reason: null, actor: SYSTEM, at: opts.at }));
      stats = { [counter.reqStatus('open')]: -1, [counter.reqStatus('filled')]: 1 };
    } else {
      conditions.push('(attribute_not_exists(#hc) OR #placed < #fill OR (#status <> :open AND #placed < #hc))');
    }
  }
  return {
    update: {
      Update: {
        TableName: tableName,
        Key: keys.requisition(tenantId, reqId),
        UpdateExpression: `ADD ${adds.join(', ')}${sets}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    extra,
    stats,
  };
}
