/**
 * The import's batched create: many candidates per transaction, each written exactly as the
 * single create (candidate-parts.ts) writes one, with the shared builders and summed counters. A
 * batch's candidates given a person are each a new person's (a row whose email is known goes alone).
 * The domain runs it (lib/domain/candidate-writes.ts insertCandidates).
 */
import { AUDIT_GROUP_COPIES, auditGroupPuts, sameGroup, type AuditEntry } from './audit';
import { candidatePut, counterUpdate, createdPlacement, createdReqCounts, createdStats, type CandidateRecord } from './candidates';
import { COPY_PUT_ACTIONS } from './copies';
import { reqCounterWrite } from './requisition-counters';
import { candidateTokens, searchWrites } from './search';
import { believedThresholds, learnThresholds, statsKeyFor, thresholdsUnchanged } from './stuck';
import { personCreateParts } from './people';
import { backoff, cancellationReasons, MAX_ATTEMPTS, writeParts, type TxOutcome, type TxPart } from './tx';

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
  /** Decided alone, as the single create decides it: a row that joins a person someone already is. */
  alone?: boolean;
}

/**
 * Each row's fate in a batch: created now, found already there (its id taken), or to be decided
 * alone, as the single create decides it (lib/domain/candidate-writes.ts insertCandidate): a
 * hire on a requisition (it may fill it), a row whose requisition refused the batch, or a row
 * whose refusals kept coming back.
 */
export type BatchResult = { kind: 'created' } | { kind: 'exists' } | { kind: 'alone' };

/** Whether a candidate goes through the single create: a hire on a requisition may fill it. */
const hiresOnRequisition = (c: CandidateRecord) => c.req_id !== undefined && c.stage === 'placed';

/**
 * Actions a candidate adds to a batch besides the batch's own: its item, a placement, its search
 * entries, and for a candidate with a (new) person the person (their guard is on their item)
 * and their email's claim. Its audit record takes none of its own: it rides in its batch's one intent.
 */
const ownActions = (c: CandidateRecord) =>
  1 + (c.stage === 'placed' ? COPY_PUT_ACTIONS : 0) + candidateTokens(c).length + (c.person_id ? (c.email ? 2 : 1) : 0);

/** Actions a batch takes besides its candidates': the workspace's counter, and its audit intent. */
const batchActions = (audited: boolean) => 1 + (audited ? AUDIT_GROUP_COPIES : 0);

/**
 * The rows of a create of many, in order, as transactions: each group is a batch of rows as many
 * as one transaction holds (the workspace's counter and the audit intent once, each requisition's
 * counter once, each row's own actions), or one row to be created alone (a hire on a requisition).
 */
export function transactionGroups(entries: NewCandidate[]): ({ batch: number[] } | { alone: number })[] {
  const audits = entries.flatMap((e) => e.audit ?? []);
  if (audits.some((a) => !sameGroup(a, audits[0]!))) throw new Error('insertCandidates records one action of one actor from one request');
  const base = batchActions(audits.length > 0);
  const groups: ({ batch: number[] } | { alone: number })[] = [];
  let batch: number[] = [];
  let actions = base;
  let reqs = new Set<string>();
  const flush = () => {
    if (batch.length) groups.push({ batch });
    batch = [];
    actions = base;
    reqs = new Set();
  };
  for (let i = 0; i < entries.length; i++) {
    const c = entries[i]!.record;
    if (hiresOnRequisition(c) || entries[i]!.alone) {
      flush();
      groups.push({ alone: i });
      continue;
    }
    const more = ownActions(c) + (c.req_id && !reqs.has(c.req_id) ? 1 : 0);
    if (actions + more > MAX_TRANSACT_ITEMS) flush();
    batch.push(i);
    actions += ownActions(c) + (c.req_id && !reqs.has(c.req_id) ? 1 : 0);
    if (c.req_id) reqs.add(c.req_id);
  }
  flush();
  return groups;
}

/**
 * Insert a batch of rows (a group of transactionGroups) in one transaction, each exactly as the
 * single create writes one: the same items (shared builders), and ONE counter update per counter
 * item carrying the summed deltas, so the counters stay exact and the workspace's counter item is
 * written once per transaction instead of once per candidate. The audit records of a transaction's
 * candidates are written as one intent (auditIntentItem). A requisition's update keeps the single
 * create's condition (it exists and is open).
 *
 * A cancelled transaction never fails its neighbours: a candidate whose id is taken is `exists`;
 * the candidates of a requisition that refused are `alone`; changed stuck thresholds are learned
 * and the rest retried; lost races are retried; anything else splits the batch in halves.
 */
export async function insertBatch(tenantId: string, entries: NewCandidate[], rows: number[]): Promise<Map<number, BatchResult>> {
  const results = new Map<number, BatchResult>();
  await writeBatch(tenantId, entries, rows, results);
  return results;
}

/** One transaction of insertBatch, retried, narrowed or split until every row has its result. */
async function writeBatch(tenantId: string, entries: NewCandidate[], rows: number[], results: Map<number, BatchResult>): Promise<void> {
  const alone = (i: number) => results.set(i, { kind: 'alone' });
  let left = rows;
  for (let attempt = 1; left.length; attempt++) {
    if (left.length === 1) {
      alone(left[0]!);
      return;
    }
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
    // Named parts: the workspace's counter, each requisition's (`req:<id>`), each row's item
    // (`row:<n>`, refused when its id is taken) and the rest of its actions, the audit intent.
    const parts: Record<string, TxPart> = {
      stats: counterUpdate(statsKeyFor(tenantId, thresholds), stats, false, thresholdsUnchanged(thresholds)),
    };
    for (const id of reqIds) {
      parts[`req:${id}`] = reqCounterWrite(
        tenantId,
        { id, mustBeOpen: true, placing: false },
        byReq.get(id)!,
        records[0]!.created_at,
      ).update;
    }
    records.forEach((c, n) => {
      parts[`row:${n}`] = candidatePut(tenantId, c, thresholds);
      // A new person of their own (their email's claim put if absent: taken meanwhile, the row goes alone and joins them).
      if (c.person_id) {
        const person = personCreateParts(tenantId, { kind: 'new', personId: c.person_id, claim: c.email !== undefined }, c);
        parts[`claim:${n}`] = person.claim;
        parts[`person:${n}`] = person.person;
      }
      parts[`copies:${n}`] = [...createdPlacement(tenantId, c), ...searchWrites(tenantId, c as unknown as Item)];
    });
    // The batch's records as one intent.
    parts.audit = auditGroupPuts(
      tenantId,
      left.flatMap((i) => entries[i]!.audit ?? []),
    );
    let outcome: TxOutcome<string> | undefined;
    try {
      outcome = await writeParts(parts);
    } catch (err) {
      // Any other refusal: halves (below), so one row's trouble stays its own.
      if (!cancellationReasons(err) && (err as Error).name !== 'ValidationException') throw err;
    }
    if (outcome && 'written' in outcome) {
      for (const i of left) results.set(i, { kind: 'created' });
      return;
    }
    if (outcome && 'refused' in outcome) {
      // Rows whose id is taken were created before (an earlier run): they are done. Rows on a
      // requisition that refused are decided one by one, as the single create decides them.
      const rest: number[] = [];
      left.forEach((i, n) => {
        const c = records[n]!;
        if (`row:${n}` in outcome.all) results.set(i, { kind: 'exists' });
        else if ((c.req_id && `req:${c.req_id}` in outcome.all) || `claim:${n}` in outcome.all) alone(i);
        else rest.push(i);
      });
      if ('stats' in outcome.all) learnThresholds(tenantId, outcome.all.stats);
      left = rest;
      if (attempt >= MAX_ATTEMPTS) break;
      continue;
    }
    if (outcome && attempt < MAX_ATTEMPTS) {
      await backoff(attempt);
      continue;
    }
    // Races that do not clear, or a transaction DynamoDB would not take: halves.
    const half = Math.ceil(left.length / 2);
    await writeBatch(tenantId, entries, left.slice(0, half), results);
    await writeBatch(tenantId, entries, left.slice(half), results);
    return;
  }
  // Refusals that kept coming back: each row decides alone.
  for (const i of left) alone(i);
}
