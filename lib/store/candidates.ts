/**
 * Candidates. Every write changes the tenant's and the requisition's counters in the same
 * transaction, so counts are exact and reading them costs one GetItem at any tenant size.
 */
import { auditPuts, type AuditEntry } from './audit';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError, StaleStageError } from '../errors';
import { newId } from '../ids';
import { candidate, candidateFromItem } from '../entities/candidate';
import { STAGES, type Stage } from '../model';
import { checkTimeBudget } from '../time-budget';
import { ddb, tableName } from './client';
import { oneOf, optStr, str } from './codec';
import { changeIndexKey, counter, keys, reqCandidatesIndexKey, reqStageIndexKey, stageIndexKey, TABLE_DEF } from './table';
import { searchWrites } from './search';
import { copyPuts } from './copies';
import { stageMovePut, type ActorRef } from './stage-history';
import { reqCounterWrite } from './requisition-counters';
import { believedThresholds, learnThresholds, stuckAttrs, thresholdsUnchanged, type Thresholds } from './stuck';
import { backoff, cancellationReasons, isTransactionConflict, itemSeen, MAX_ATTEMPTS } from './tx';
import { $add, $remove, patchDiff, update } from './update';

export interface CandidateRecord {
  id: string;
  name: string;
  email?: string;
  phone?: string;
  resume_url?: string;
  stage: Stage;
  req_id?: string;
  req_title?: string;
  created_at: string;
  updated_at: string;
  /** When the candidate entered its current stage; orders the stuck index. */
  stage_entered_at: string;
}

type Item = Record<string, unknown>;

/** The candidate item; `thresholds` place it in the stuck index (the defaults when left out). */
export function candidateItem(tenantId: string, c: CandidateRecord, thresholds: Thresholds = { version: 0, overrides: {} }): Item {
  return {
    ...keys.candidate(tenantId, c.id),
    ...stageIndexKey(tenantId, c.stage, c.stage_entered_at, c.id),
    ...stuckAttrs(tenantId, thresholds, c).set,
    ...(c.req_id ? reqCandidatesIndexKey(tenantId, c.req_id, c.id) : {}),
    ...(c.req_id ? reqStageIndexKey(tenantId, c.req_id, c.stage, c.stage_entered_at, c.id) : {}),
    ...changeIndexKey(tenantId, c.updated_at, c.id),
    type: 'candidate',
    tenant_id: tenantId,
    ...c,
  };
}

/** A counter item's update in a transaction (shared with the batched create, candidate-batch.ts). */
export const counterUpdate = (
  key: Item,
  changes: Partial<Record<string, number>>,
  mustExist = false,
  guard?: { ConditionExpression: string; values: Record<string, number> },
) => {
  const adds = Object.fromEntries(Object.entries(changes).map(([attr, delta]) => [attr, $add(delta!)]));
  // The stuck thresholds this write used are still in force; if not, hand back the new ones.
  const condition = guard
    ? { expression: guard.ConditionExpression, values: guard.values }
    : mustExist
      ? { expression: 'attribute_exists(PK)' }
      : undefined;
  return {
    Update: {
      TableName: tableName,
      Key: key,
      ...update(adds, condition),
      ...(guard && { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const }),
    },
  };
};

/** What a created candidate adds to the workspace's counters, and to its requisition's. */
export const createdStats = (c: CandidateRecord): Record<string, number> => ({ total: 1, [counter.stage(c.stage)]: 1 });
export const createdReqCounts = (c: CandidateRecord): Record<string, number> => ({ c_total: 1, [counter.stage(c.stage)]: 1 });

/** The new candidate's item, written only if its id is free. */
export const candidatePut = (tenantId: string, c: CandidateRecord, thresholds: Thresholds) => ({
  Put: { TableName: tableName, Item: candidateItem(tenantId, c, thresholds), ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Created straight into `placed`: the placement exists as it does after a move there. */
export const createdPlacement = (tenantId: string, c: CandidateRecord) =>
  c.stage === 'placed' ? copyPuts(tenantId, c.id, placementItem(tenantId, c, c.created_at)) : [];

/**
 * Insert a candidate and bump the counters. A requisition must be open (`reqSeen` is it as the
 * caller read it); one created straight into `placed` counts as a hire and may fill it.
 */
export async function insertCandidate(tenantId: string, c: CandidateRecord, reqSeen?: Item, audit?: AuditEntry): Promise<void> {
  let seen = reqSeen;
  const transactItems = (thresholds: Thresholds) => {
    const req = c.req_id
      ? reqCounterWrite(tenantId, c.req_id, createdReqCounts(c), {
          mustBeOpen: true,
          placing: c.stage === 'placed',
          seen,
          at: c.created_at,
        })
      : undefined;
    return [
      candidatePut(tenantId, c, thresholds),
      counterUpdate(keys.stats(tenantId), { ...createdStats(c), ...req?.stats }, false, thresholdsUnchanged(thresholds)),
      ...(req ? [req.update] : []),
      ...createdPlacement(tenantId, c),
      ...(req?.extra ?? []),
      // Last, so the cancellation reasons above keep their positions.
      ...searchWrites(tenantId, c as unknown as Item),
      ...(audit ? auditPuts(tenantId, audit) : []),
    ];
  };
  for (let attempt = 1; ; attempt++) {
    // No attempt the request's time cannot hold: a write after its answer would land unseen.
    checkTimeBudget();
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems: transactItems(believedThresholds(tenantId)) }));
      return;
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      if (reasons[0]?.Code === 'ConditionalCheckFailed') throw new ConflictError('candidate id already exists');
      if (c.req_id && reasons[2]?.Code === 'ConditionalCheckFailed') {
        // The requisition is gone, closed, full or just filled: decide again on what was seen.
        seen = itemSeen(reasons[2]);
        if (!seen) throw new NotFoundError('requisition');
      }
      // The stuck thresholds changed since this container last saw them: retry with the new ones.
      else if (reasons[1]?.Code === 'ConditionalCheckFailed') learnThresholds(tenantId, itemSeen(reasons[1]));
      else if (!isTransactionConflict(reasons)) throw err;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('too many concurrent writes; try again');
      await backoff(attempt);
    }
  }
}

export async function getCandidate(tenantId: string, id: string): Promise<Item | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName, Key: keys.candidate(tenantId, id), ConsistentRead: true }));
  return Item;
}

/**
 * Move a candidate to `stage`. The candidate update is conditioned on the stage it was read
 * with; a concurrent move makes the condition fail and the whole read-decide-write repeats,
 * so the counters never drift. Returns undefined `after` when the candidate is already there.
 * A real move writes its stage-history item in the same transaction. With `fromStage`, a
 * candidate found in any other stage (now, or after a lost race) is a StaleStageError.
 */
export async function moveCandidate(
  tenantId: string,
  id: string,
  stage: Stage,
  now: () => string,
  opts: { actor?: ActorRef; fromStage?: Stage; audit?: AuditOf } = {},
): Promise<{ before: Item; after?: Item }> {
  let current = await getCandidate(tenantId, id);
  // The requisition as a failed placement condition saw it (none read up front: most moves are not hires).
  let reqSeen: Item | undefined;
  for (let attempt = 1; ; attempt++) {
    if (!current) throw new NotFoundError('candidate');
    const from = candidateStage(current);
    if (opts.fromStage && from !== opts.fromStage) throw new StaleStageError(from, opts.fromStage);
    if (from === stage) return { before: current };
    checkTimeBudget();
    const at = now();
    const reqId = candidateReqId(current);
    const after: Item = {
      ...current,
      ...stageIndexKey(tenantId, stage, at, id),
      ...changeIndexKey(tenantId, at, id),
      stage,
      updated_at: at,
      stage_entered_at: at,
    };
    const board = reqId ? reqStageIndexKey(tenantId, reqId, stage, at, id) : undefined;
    Object.assign(after, board);
    const deltas = { [counter.stage(from)]: -1, [counter.stage(stage)]: 1 };
    const thresholds = believedThresholds(tenantId);
    const stuck = stuckAttrs(tenantId, thresholds, { id, stage, stage_entered_at: at });
    Object.assign(after, stuck.set);
    for (const attr of stuck.remove) delete after[attr];
    // A move into placed is a hire: it may fill the requisition, and never exceeds its headcount.
    const hire = reqId && stage === 'placed' ? reqCounterWrite(tenantId, reqId, deltas, { placing: true, seen: reqSeen, at }) : undefined;
    try {
      await ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.candidate(tenantId, id),
                ...update(
                  {
                    stage,
                    updated_at: at,
                    stage_entered_at: at,
                    ...stageIndexKey(tenantId, stage, at, id),
                    ...changeIndexKey(tenantId, at, id),
                    ...board,
                    ...stuck.set,
                    ...Object.fromEntries(stuck.remove.map((a) => [a, $remove()])),
                  },
                  // The counters moved are the requisition's that was read: a PATCH may change it.
                  // And not erased since it was read: the search entries it writes copy what it read.
                  {
                    expression: `#stage = :from AND ${reqId ? '#req = :req' : 'attribute_not_exists(#req)'} AND ${
                      current.erased_at ? 'attribute_exists(#erased)' : 'attribute_not_exists(#erased)'
                    }`,
                    names: { '#stage': 'stage', '#req': 'req_id', '#erased': 'erased_at' },
                    values: { ':from': from, ...(reqId && { ':req': reqId }) },
                  },
                ),
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            counterUpdate(keys.stats(tenantId), { ...deltas, ...hire?.stats }, false, thresholdsUnchanged(thresholds)),
            ...(hire ? [hire.update] : reqId ? [counterUpdate(keys.requisition(tenantId, reqId), deltas)] : []),
            ...(stage === 'placed' ? copyPuts(tenantId, id, placementItem(tenantId, current, at)) : []),
            stageMovePut(tenantId, { candidate_id: id, from_stage: from, to_stage: stage, at, actor: opts.actor ?? null }),
            ...(hire?.extra ?? []),
            ...searchWrites(tenantId, after),
            ...(opts.audit ? auditPuts(tenantId, opts.audit(current, after)) : []),
          ],
        }),
      );
      return { before: current, after };
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      const lost = reasons[0];
      if (lost?.Code === 'ConditionalCheckFailed') {
        // Someone moved it first: decide again from what they left (or deleted). Their change
        // may have put it on another requisition, so the one seen before no longer counts.
        current = itemSeen(lost) ?? (await getCandidate(tenantId, id));
        reqSeen = undefined;
      } else if (reasons[1]?.Code === 'ConditionalCheckFailed') {
        // The stuck thresholds changed since this container last saw them: use the new ones.
        learnThresholds(tenantId, itemSeen(reasons[1]));
      } else if (hire && reasons[2]?.Code === 'ConditionalCheckFailed') {
        // The hire would fill the requisition, or exceed it, or someone filled it first.
        reqSeen = itemSeen(reasons[2]);
      } else if (!isTransactionConflict(reasons)) {
        throw err;
      }
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('candidate is being changed concurrently; try again');
      await backoff(attempt);
    }
  }
}

/** The placement a move to `placed` creates; its stream record becomes placement.created. */
function placementItem(tenantId: string, candidate: Item | CandidateRecord, at: string): Item {
  const id = newId();
  const key = keys.placement(tenantId, id);
  return {
    ...key,
    // It copies the candidate's name: written with its ledger entry (copyPuts), so erasure finds it.
    type: 'placement',
    id,
    tenant_id: tenantId,
    candidate_id: candidate.id,
    candidate_name: candidate.name,
    req_id: candidate.req_id,
    req_title: candidate.req_title,
    placed_at: at,
    created_at: at,
  };
}

/** The candidate item's codec: the declaration's (lib/entities/candidate.ts). */
export const toCandidate = candidateFromItem;

/** The attributes a write reads from the item it changes, narrowed like the codec's. */
const candidateStage = (item: Item): Stage => oneOf(item, 'stage', STAGES, 'candidate');
const candidateReqId = (item: Item): string | undefined => optStr(item, 'req_id', 'candidate');

/** The profile fields PATCH may change; `null` removes an optional one. */
export interface ProfilePatch {
  name?: string;
  email?: string | null;
  phone?: string | null;
  resume_url?: string | null;
  /** A new requisition (its title is denormalized onto the candidate), or null for none. */
  requisition?: { id: string; title: string; item?: Item } | null;
}

/** The fields an erasure empties, so they cannot be set again on an erased candidate. */
const PROFILE_FIELDS = candidate.personal;
const ERASED_FIELDS = `${PROFILE_FIELDS.slice(0, -1).join(', ')} and ${PROFILE_FIELDS.at(-1)}`;

/** The audit record of a write, made from the item as read and as written (each retry decides anew). */
export type AuditOf = (before: Item, after: Item) => AuditEntry;

/**
 * Change a candidate's profile. The update is conditioned on the stage and requisition it was
 * read with (the counters depend on both) and on its updated_at; a lost race reads again and
 * decides again. Moving to another requisition moves its counters in the same transaction.
 * Returns undefined `after` when nothing would change (no write, so no event).
 */
export async function updateCandidateProfile(
  tenantId: string,
  id: string,
  patch: ProfilePatch,
  now: () => string,
  audit?: AuditOf,
): Promise<{ before: Item; after?: Item }> {
  let current = await getCandidate(tenantId, id);
  let reqSeen = patch.requisition?.item;
  for (let attempt = 1; ; attempt++) {
    if (!current) throw new NotFoundError('candidate');
    if (current.erased_at && PROFILE_FIELDS.some((f) => patch[f] !== undefined)) {
      throw new ConflictError(`this candidate was erased; its ${ERASED_FIELDS} cannot be set again`, {
        code: 'candidate_erased',
      });
    }
    const { set, remove } = patchDiff(current, patch, PROFILE_FIELDS);
    const oldReq = candidateReqId(current);
    const newReq = patch.requisition === undefined ? oldReq : patch.requisition?.id;
    const reqChanges = newReq !== oldReq;
    if (reqChanges) {
      if (patch.requisition) {
        const entered = optStr(current, 'stage_entered_at', 'candidate') ?? str(current, 'created_at', 'candidate');
        Object.assign(
          set,
          { req_id: patch.requisition.id, req_title: patch.requisition.title },
          reqCandidatesIndexKey(tenantId, patch.requisition.id, id),
          reqStageIndexKey(tenantId, patch.requisition.id, candidateStage(current), entered, id),
        );
      } else {
        const { byRequisitionOrUser, byRequisitionStage } = TABLE_DEF.indexes;
        remove.push(
          'req_id',
          'req_title',
          byRequisitionOrUser.partitionKey,
          byRequisitionOrUser.sortKey,
          byRequisitionStage.partitionKey,
          byRequisitionStage.sortKey,
        );
      }
    }
    if (!Object.keys(set).length && !remove.length) return { before: current };
    checkTimeBudget();
    const at = now();
    set.updated_at = at;
    Object.assign(set, changeIndexKey(tenantId, at, id));
    const after: Item = { ...current, ...set };
    for (const f of remove) delete after[f];
    const stageCounter = counter.stage(candidateStage(current));
    // Moving onto another requisition needs it open; a placed candidate is a hire there too.
    const onto =
      reqChanges && newReq
        ? reqCounterWrite(
            tenantId,
            newReq,
            { c_total: 1, [stageCounter]: 1 },
            { mustBeOpen: true, placing: candidateStage(current) === 'placed', seen: reqSeen, at },
          )
        : undefined;
    const ontoIndex = reqChanges && oldReq ? 2 : 1;
    const TransactItems = [
      {
        Update: {
          TableName: tableName,
          Key: keys.candidate(tenantId, id),
          ...update(
            { ...set, ...Object.fromEntries(remove.map((f) => [f, $remove()])) },
            {
              expression: `#stage = :stage AND #updated = :seen AND ${oldReq ? '#req = :req' : 'attribute_not_exists(#req)'}`,
              names: { '#stage': 'stage', '#updated': 'updated_at', '#req': 'req_id' },
              values: { ':stage': current.stage, ':seen': current.updated_at, ...(oldReq && { ':req': oldReq }) },
            },
          ),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
        },
      },
      ...(reqChanges && oldReq ? [counterUpdate(keys.requisition(tenantId, oldReq), { c_total: -1, [stageCounter]: -1 })] : []),
      ...(onto ? [onto.update, ...onto.extra] : []),
      ...(onto && Object.keys(onto.stats).length ? [counterUpdate(keys.stats(tenantId), onto.stats)] : []),
      // Every copy changes (updated_at at least); tokens the new name or email lost go.
      ...searchWrites(tenantId, after, current),
      ...(audit ? auditPuts(tenantId, audit(current, after)) : []),
    ];
    try {
      await ddb.send(new TransactWriteCommand({ TransactItems }));
      return { before: current, after };
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      if (onto && reasons[ontoIndex]?.Code === 'ConditionalCheckFailed') {
        // Gone, no longer open, full or just filled: decide again on what the condition saw.
        reqSeen = itemSeen(reasons[ontoIndex]);
        if (!reqSeen) throw new NotFoundError('requisition');
      } else if (reasons[0]?.Code === 'ConditionalCheckFailed') {
        current = itemSeen(reasons[0]) ?? (await getCandidate(tenantId, id));
      } else if (!isTransactionConflict(reasons)) {
        throw err;
      }
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError('candidate is being changed concurrently; try again');
      await backoff(attempt);
    }
  }
}
