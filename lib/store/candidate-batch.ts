/**
 * The import's batched create: many candidates per transaction, each written exactly as
 * insertCandidate (candidates.ts) writes one, with the shared builders and summed counters.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_GROUP_COPIES, auditGroupPuts, sameGroup, type AuditEntry } from './audit';
import {
  candidatePut,
  counterUpdate,
  createdPlacement,
  createdReqCounts,
  createdStats,
  insertCandidate,
  type CandidateRecord,
} from './candidates';
import { ddb } from './client';
import { COPY_PUT_ACTIONS } from './copies';
import { reqCounterWrite } from './requisition-counters';
import { candidateTokens, searchWrites } from './search';
import { believedThresholds, learnThresholds, thresholdsUnchanged } from './stuck';
import { keys } from './table';
import { backoff, cancellationReasons, isTransactionConflict, itemSeen, MAX_ATTEMPTS } from './tx';

type Item = Record<string, unknown>;

/** DynamoDB's limit of actions per TransactWriteItems. */
export const MAX_TRANSACT_ITEMS = 100;

/** One candidate of insertCandidates, with its requisition as the caller read it (open). */
export interface NewCandidate {
  record: CandidateRecord;
  reqSeen?: Item;
  /**
   * Its audit record, written in the same transaction as the candidate. The records of one call
   * are one action of one actor from one request (sameGroup): each transaction records its
   * candidates as one group (one intent, auditIntentItem).
   */
  audit?: AuditEntry;
}

/** Each candidate's fate: created now, found already there (its id taken), or what insertCandidate threw for it. */
export type InsertResult = { kind: 'created' } | { kind: 'exists' } | { kind: 'error'; error: unknown };

/** Whether a candidate goes through insertCandidate alone: a hire on a requisition may fill it. */
const hiresOnRequisition = (c: CandidateRecord) => c.req_id !== undefined && c.stage === 'placed';

/**
 * Actions a candidate adds to a batch of insertCandidates besides the batch's own (batchActions):
 * its item, a placement, its search entries. Its audit record takes none of its own: it rides in
 * its batch's one intent.
 */
export const ownActions = (c: CandidateRecord, _audited = false) =>
  1 + (c.stage === 'placed' ? COPY_PUT_ACTIONS : 0) + candidateTokens(c).length;

/** Actions a batch of insertCandidates takes besides its candidates': the workspace's counter, and its audit intent. */
export const batchActions = (audited: boolean) => 1 + (audited ? AUDIT_GROUP_COPIES : 0);

/**
 * Insert many candidates, as many per transaction as DynamoDB allows, each exactly as
 * insertCandidate would: the same items (shared builders), and ONE counter update per counter
 * item per transaction carrying the summed deltas, so the counters stay exact and the workspace's
 * counter item is written once per transaction instead of once per candidate. The audit records
 * of a transaction's candidates are written as one intent (auditIntentItem), expanded into their
 * records by the table maintenance consumer. A requisition's
 * update keeps the single create's condition (it exists and is open). A hire on a requisition
 * (which may fill it) goes alone through insertCandidate.
 *
 * A cancelled transaction never fails its neighbours: a candidate whose id is taken is `exists`;
 * the candidates of a requisition that refused go through insertCandidate one by one (which
 * refuses them as the single create does); changed stuck thresholds are learned and the rest
 * retried; lost races are retried; anything else splits the batch in halves down to single rows.
 */
export async function insertCandidates(tenantId: string, entries: NewCandidate[]): Promise<InsertResult[]> {
  const audits = entries.flatMap((e) => e.audit ?? []);
  if (audits.some((a) => !sameGroup(a, audits[0]!))) throw new Error('insertCandidates records one action of one actor from one request');
  const results = new Array<InsertResult>(entries.length);
  const alone = async (i: number) => {
    try {
      await insertCandidate(tenantId, entries[i]!.record, entries[i]!.reqSeen, entries[i]!.audit);
      results[i] = { kind: 'created' };
    } catch (error) {
      results[i] = { kind: 'error', error };
    }
  };
  const sizes = entries.map((e) => ownActions(e.record, e.audit !== undefined));
  const base = batchActions(audits.length > 0);
  let batch: number[] = [];
  let actions = base;
  let reqs = new Set<string>();
  const flush = async () => {
    if (batch.length) await insertBatch(tenantId, entries, batch, results, alone);
    batch = [];
    actions = base;
    reqs = new Set();
  };
  for (let i = 0; i < entries.length; i++) {
    const c = entries[i]!.record;
    if (hiresOnRequisition(c)) {
      await alone(i);
      continue;
    }
    const more = sizes[i]! + (c.req_id && !reqs.has(c.req_id) ? 1 : 0);
    if (actions + more > MAX_TRANSACT_ITEMS) await flush();
    batch.push(i);
    actions += sizes[i]! + (c.req_id && !reqs.has(c.req_id) ? 1 : 0);
    if (c.req_id) reqs.add(c.req_id);
  }
  await flush();
  return results;
}

/** One transaction of insertCandidates (see there), retried, narrowed or split until every row has its result. */
async function insertBatch(
  tenantId: string,
  entries: NewCandidate[],
  rows: number[],
  results: InsertResult[],
  alone: (i: number) => Promise<void>,
): Promise<void> {
  let left = rows;
  for (let attempt = 1; left.length; attempt++) {
    if (left.length === 1) return alone(left[0]!);
    const thresholds = believedThresholds(tenantId);
    const records = left.map((i) => entries[i]!.record);
    const stats: Record<string, number> = {};
    const byReq = new Map<string, Record<string, number>>();
    for (const c of records) {
      for (const [k, d] of Object.entries(createdStats(c))) stats[k] = (stats[k] ?? 0) + d;
      if (!c.req_id) continue;
      const sums = byReq.get(c.req_id) ?? {};
      for (const [k, d] of Object.entries(createdReqCounts(c))) sums[k] = (sums[k] ?? 0) + d;
      byReq.set(c.req_id, sums);
    }
    const reqIds = [...byReq.keys()];
    // Counters first (stats at 0, each requisition at 1 + its index), then each candidate's own
    // actions, so the cancellation reasons say which counter or which candidate refused.
    const putAt: number[] = [];
    const transactItems: unknown[] = [
      counterUpdate(keys.stats(tenantId), stats, false, thresholdsUnchanged(thresholds)),
      ...reqIds.map((id) => reqCounterWrite(tenantId, id, byReq.get(id)!, { mustBeOpen: true, at: records[0]!.created_at }).update),
    ];
    for (const c of records) {
      putAt.push(transactItems.length);
      transactItems.push(
        candidatePut(tenantId, c, thresholds),
        ...createdPlacement(tenantId, c),
        ...searchWrites(tenantId, c as unknown as Item),
      );
    }
    // Last: the batch's records as one intent.
    const audits = left.flatMap((i) => entries[i]!.audit ?? []);
    transactItems.push(...auditGroupPuts(tenantId, audits));
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: transactItems as never }));
      for (const i of left) results[i] = { kind: 'created' };
      return;
    } catch (err) {
      const reasons = cancellationReasons(err);
      const refused = (at: number) => reasons?.[at]?.Code === 'ConditionalCheckFailed';
      if (reasons && (refused(0) || reasons.slice(1).some((r) => r.Code === 'ConditionalCheckFailed'))) {
        // Rows whose id is taken were created before (an earlier run): they are done. Rows on a
        // requisition that refused are decided one by one, as the single create decides them.
        const closedReqs = new Set(reqIds.filter((_, n) => refused(1 + n)));
        const rest: number[] = [];
        const single: number[] = [];
        left.forEach((i, n) => {
          const c = records[n]!;
          if (refused(putAt[n]!)) results[i] = { kind: 'exists' };
          else if (c.req_id && closedReqs.has(c.req_id)) single.push(i);
          else rest.push(i);
        });
        if (refused(0)) learnThresholds(tenantId, itemSeen(reasons[0]));
        for (const i of single) await alone(i);
        left = rest;
        if (attempt >= MAX_ATTEMPTS) break;
        continue;
      }
      if (reasons && isTransactionConflict(reasons) && attempt < MAX_ATTEMPTS) {
        await backoff(attempt);
        continue;
      }
      // Any other refusal (or races that do not clear): halves, so one row's trouble stays its own.
      if (!reasons && (err as Error).name !== 'ValidationException') throw err;
      const half = Math.ceil(left.length / 2);
      await insertBatch(tenantId, entries, left.slice(0, half), results, alone);
      await insertBatch(tenantId, entries, left.slice(half), results, alone);
      return;
    }
  }
  // Refusals that kept coming back: each row decides alone.
  for (const i of left) await alone(i);
}
