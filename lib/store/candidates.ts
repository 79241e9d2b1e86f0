/**
 * Candidates. Every write changes the tenant's and the requisition's counters in the same
 * transaction, so counts are exact and reading them costs one GetItem at any tenant size.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CandidateRead } from '../domain/candidate-rules';
import { newId } from '../ids';
import { type Candidate, candidateFromItem, type RejectionAnswer } from '../entities/candidate';
import { REJECTION_TYPES, STAGES, type Stage } from '../model';
import { ddb, tableName } from './client';
import { oneOf, optStr, str } from './codec';
import {
  changeIndexKey,
  counter,
  keys,
  personCandidatesIndexKey,
  placementChangeIndexKey,
  reqCandidatesIndexKey,
  reqStageIndexKey,
  stageIndexKey,
} from './table';
import { copyPuts } from './copies';
import { progressOf } from './interview-progress';
import { stuckAttrs, type Thresholds } from './stuck';
import { $add, update } from './update';

export interface CandidateRecord {
  id: string;
  name: string;
  email?: string;
  phone?: string;
  resume_url?: string;
  stage: Stage;
  req_id?: string;
  req_title?: string;
  /** The person the candidate is (lib/store/people.ts); absent on candidates written before people. */
  person_id?: string;
  /** Where the candidate came from: careers, a careers link's src, api, console or import. */
  source?: string;
  /** An application's answers and consent, as JSON (personal data). */
  application?: string;
  /** An application's screening, as JSON (personal data: its reasons quote the answers). */
  screening?: string;
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
    ...(c.person_id ? personCandidatesIndexKey(tenantId, c.person_id, c.id) : {}),
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
      TableName: tableName(),
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
  Put: { TableName: tableName(), Item: candidateItem(tenantId, c, thresholds), ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Created straight into `placed`: the placement exists as it does after a move there. */
export const createdPlacement = (tenantId: string, c: CandidateRecord) =>
  c.stage === 'placed' ? copyPuts(tenantId, c.id, placementItem(tenantId, c, c.created_at)) : [];

export async function getCandidate(tenantId: string, id: string): Promise<Item | undefined> {
  const { Item } = await ddb.send(new GetCommand({ TableName: tableName(), Key: keys.candidate(tenantId, id), ConsistentRead: true }));
  return Item;
}

/**
 * What a placement takes from outside the candidate (lib/store/placement-context.ts): the accepted
 * offer's terms and the requisition's team, when the move into `placed` read them.
 */
export type PlacementTerms = Item;

/** The placement a move to `placed` creates; its stream record becomes placement.created. */
export function placementItem(
  tenantId: string,
  candidate: Item | CandidateRecord,
  at: string,
  terms: PlacementTerms = {},
  id: string = newId(),
): Item {
  return {
    ...keys.placement(tenantId, id),
    ...placementChangeIndexKey(tenantId, at, id),
    // It copies the candidate's name: written with its ledger entry (copyPuts), so erasure finds it.
    type: 'placement',
    id,
    tenant_id: tenantId,
    candidate_id: candidate.id,
    candidate_name: candidate.name,
    person_id: candidate.person_id,
    req_id: candidate.req_id,
    req_title: candidate.req_title,
    status: 'active',
    ...terms,
    placed_at: at,
    created_at: at,
    updated_at: at,
  };
}

/**
 * The candidate item's codec: the declaration's (lib/entities/candidate.ts), with the rejection a
 * move into `rejected` kept (`rejection`, its note apart so that erasure reaches it) as one object.
 */
export function toCandidate(item: Item): Candidate {
  // An application's answers are read on their own, never with every candidate.
  const { rejection_note, application: _application, screening: _screening, ...c } = candidateFromItem(item);
  return { ...c, rejection: rejectionOf(item, rejection_note) };
}

/** The candidate as lists and its own read answer it: with its interview progress (lib/store/interview-progress.ts). */
export const toListedCandidate = (item: Item) => ({ ...toCandidate(item), interview_progress: progressOf(item) });

function rejectionOf(item: Item, note: string | undefined): RejectionAnswer | null {
  const r = item.rejection as Record<string, unknown> | undefined;
  if (!r || typeof r !== 'object') return null;
  return {
    reason_id: str(r, 'reason_id', 'candidate'),
    label: str(r, 'label', 'candidate'),
    type: oneOf(r, 'type', REJECTION_TYPES, 'candidate'),
    note: note ?? null,
  };
}

/** The attributes a write reads from the item it changes, narrowed like the codec's. */
export const candidateStage = (item: Item): Stage => oneOf(item, 'stage', STAGES, 'candidate');
export const candidateReqId = (item: Item): string | undefined => optStr(item, 'req_id', 'candidate');

/** A candidate item as a write's rule reads it (lib/domain/candidate-rules.ts). */
export const candidateRead = (item: Item | undefined): CandidateRead | undefined =>
  item && {
    item,
    id: str(item, 'id', 'candidate'),
    stage: candidateStage(item),
    reqId: candidateReqId(item),
    erased: Boolean(item.erased_at),
  };
