/**
 * A candidate write's transaction in named parts, built from the plan a rule decided
 * (lib/domain/candidate-rules.ts): the candidate, the workspace's counters (`stats`), the
 * requisition's, the placement, the stage history, the search entries and the audit intent. It
 * answers what happened by part name (writeParts); the domain decides what that means.
 */
import type { CreatePlan, MovePlan, ProfilePlan } from '../domain/candidate-rules';
import { auditGroupPuts, auditPuts, type AuditEntry } from './audit';
import { candidatePut, counterUpdate, createdPlacement, createdReqCounts, createdStats, placementItem } from './candidates';
import { tableName } from './client';
import { copyPuts } from './copies';
import { personCreateParts, type PersonCreateParts } from './people';
import { guardMoveParts, personEditParts, type PersonEditParts } from './person-parts';

const NO_PERSON_EDIT = { person: undefined, claimOut: undefined, claimIn: undefined, others: undefined, othersSearch: undefined };
import { placementCancelUpdate } from './placements';
import { reqCounterWrite } from './requisition-counters';
import { searchWrites } from './search';
import { requisitionMovePut, stageMovePut } from './stage-history';
import { believedThresholds, learnThresholds, statsKeyFor, stuckAttrs, thresholdsUnchanged } from './stuck';
import { changeIndexKey, counter, keys, reqCandidatesIndexKey, reqStageIndexKey, stageIndexKey, TABLE_DEF } from './table';
import { writeParts, type TxOutcome, type TxPart } from './tx';
import { $remove, update } from './update';

type Item = Record<string, unknown>;

/** The record of a candidate's change names its person, so the feed's expansion reads no candidate. */
const aboutPerson = (entry: AuditEntry, personId: unknown): AuditEntry =>
  typeof personId === 'string' ? { ...entry, person_id: personId } : entry;

/**
 * Write parts whose `stats` part carries the stuck thresholds this container believes in force:
 * when they changed, the refusal hands back the new ones, learned here for the next attempt.
 */
async function withThresholds<N extends string>(tenantId: string, parts: Record<N, TxPart>): Promise<TxOutcome<N>> {
  const outcome = await writeParts(parts);
  if ('refused' in outcome && 'stats' in outcome.all) learnThresholds(tenantId, (outcome.all as Record<string, Item | undefined>).stats);
  return outcome;
}

export type CreateParts =
  | 'candidate'
  | 'stats'
  | 'requisition'
  | 'placement'
  | 'filled'
  | 'search'
  | PersonCreateParts
  | 'audit'
  | 'screened'
  | 'history'
  | 'due';

/** A new candidate: its item (if its id is free), the counters, a placement if created placed. */
export function writeNewCandidate(tenantId: string, plan: CreatePlan): Promise<TxOutcome<CreateParts>> {
  const c = plan.record;
  const thresholds = believedThresholds(tenantId);
  const req = plan.requisition && reqCounterWrite(tenantId, plan.requisition, createdReqCounts(c), c.created_at);
  // In the order the single writes always had them (DynamoDB Local locks items in that order).
  return withThresholds<CreateParts>(tenantId, {
    candidate: candidatePut(tenantId, c, thresholds),
    stats: counterUpdate(statsKeyFor(tenantId, thresholds), { ...createdStats(c), ...req?.stats }, false, thresholdsUnchanged(thresholds)),
    requisition: req?.update,
    placement: createdPlacement(tenantId, c),
    filled: req?.filled,
    search: searchWrites(tenantId, c as unknown as Item),
    ...(plan.person ? personCreateParts(tenantId, plan.person, c) : { claim: undefined, person: undefined, guard: undefined }),
    audit: plan.audit && auditPuts(tenantId, aboutPerson(plan.audit, c.person_id)),
    // Another actor's records (screening's), so an intent of their own.
    screened: plan.screening && auditGroupPuts(tenantId, plan.screening.audits),
    history: plan.screening?.history,
    due: plan.screening?.due,
  });
}

export type MoveParts = 'candidate' | 'stats' | 'requisition' | 'placement' | 'unplace' | 'history' | 'filled' | 'search' | 'audit';

/**
 * A stage move. The candidate's update is conditioned on the stage and requisition it was read
 * with (the counters moved are that requisition's) and on its erasure as read (the search entries
 * copy what was read); a refusal returns the candidate as it is now. `after` is the item written.
 */
export async function writeMove(
  tenantId: string,
  plan: MovePlan,
): Promise<{ outcome: TxOutcome<MoveParts>; after: Item; placement?: Item }> {
  const { candidate: c, to, at } = plan;
  const current = c.item;
  const id = c.id;
  const reqId = c.reqId;
  const placement = to === 'placed' ? placementItem(tenantId, current, at, plan.placementTerms, plan.placementId) : undefined;
  const thresholds = believedThresholds(tenantId);
  const stuck = stuckAttrs(tenantId, thresholds, { id, stage: to, stage_entered_at: at });
  const r = plan.rejection;
  // The reason goes on the item as one map, its note apart (a personal field, erased by name).
  const rejection: Item = r
    ? { rejection: { reason_id: r.reason_id, label: r.label, type: r.type }, ...(r.note !== undefined && { rejection_note: r.note }) }
    : {};
  const set: Item = {
    stage: to,
    updated_at: at,
    stage_entered_at: at,
    ...stageIndexKey(tenantId, to, at, id),
    ...changeIndexKey(tenantId, at, id),
    ...(reqId && reqStageIndexKey(tenantId, reqId, to, at, id)),
    ...stuck.set,
    ...rejection,
    ...(plan.offer && { offer_ref: plan.offer }),
    // The candidate's latest placement: a second one is refused while it is active.
    ...(placement && { placement_id: placement.id }),
  };
  // A move out of `rejected` (or into it without a reason) leaves no reason behind; a move no
  // offer made leaves no offer behind.
  const removed = [...stuck.remove, ...['rejection', 'rejection_note', 'offer_ref'].filter((a) => !(a in set) && a in current)];
  const after: Item = { ...current, ...set };
  for (const attr of removed) delete after[attr];
  const deltas = { [counter.stage(c.stage)]: -1, [counter.stage(to)]: 1 };
  const hire = plan.hire && reqCounterWrite(tenantId, plan.hire, deltas, at);
  const outcome = await withThresholds<MoveParts>(tenantId, {
    candidate: {
      Update: {
        TableName: tableName(),
        Key: keys.candidate(tenantId, id),
        ...update(
          { ...set, ...Object.fromEntries(removed.map((a) => [a, $remove()])) },
          {
            expression: `#stage = :from AND ${reqId ? '#req = :req' : 'attribute_not_exists(#req)'} AND ${
              c.erased ? 'attribute_exists(#erased)' : 'attribute_not_exists(#erased)'
            }`,
            names: { '#stage': 'stage', '#req': 'req_id', '#erased': 'erased_at' },
            values: { ':from': c.stage, ...(reqId && { ':req': reqId }) },
          },
        ),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    stats: counterUpdate(statsKeyFor(tenantId, thresholds), { ...deltas, ...hire?.stats }, false, thresholdsUnchanged(thresholds)),
    requisition: hire ? hire.update : reqId ? counterUpdate(keys.requisition(tenantId, reqId), deltas) : undefined,
    placement: placement && copyPuts(tenantId, id, placement),
    // A hire leaving `placed` no longer counts: its placement is cancelled with it.
    unplace: plan.cancelsPlacement
      ? placementCancelUpdate(tenantId, plan.cancelsPlacement, at, `the candidate moved from placed to ${to}`)
      : undefined,
    history: stageMovePut(tenantId, {
      candidate_id: id,
      from_stage: c.stage,
      to_stage: to,
      at,
      actor: plan.actor,
      ...(r && { reason: { id: r.reason_id, label: r.label, type: r.type } }),
    }),
    filled: hire?.filled,
    search: searchWrites(tenantId, after),
    audit: plan.audit && auditPuts(tenantId, aboutPerson(plan.audit, current.person_id)),
  });
  return { outcome, after, placement };
}

const titleOf = (i: Item, f: string) => (typeof i[f] === 'string' ? (i[f] as string) : null);

/** The history record of a candidate's move from one requisition to another, by whom. */
function transferOf(id: string, before: Item, after: Item, at: string, actor: AuditEntry['actor'] | undefined) {
  return {
    candidate_id: id,
    from_req_id: titleOf(before, 'req_id'),
    from_req_title: titleOf(before, 'req_title'),
    to_req_id: titleOf(after, 'req_id'),
    to_req_title: titleOf(after, 'req_title'),
    at,
    actor:
      actor && actor.type !== 'system'
        ? { type: actor.type, id: actor.id, ...(actor.name && { name: actor.name }), ...(actor.email && { email: actor.email }) }
        : null,
  };
}

export type ProfileParts =
  | 'candidate'
  | 'leaves'
  | 'requisition'
  | 'filled'
  | 'stats'
  | 'search'
  | PersonEditParts
  | 'guards'
  | 'guardOut'
  | 'guardIn'
  | 'transfer'
  | 'audit';

/**
 * A profile change. The update is conditioned on the stage, requisition and updated_at it was
 * read with (the counters depend on the first two); moving to another requisition moves its
 * counters in the same transaction.
 */
export async function writeProfile(tenantId: string, plan: ProfilePlan): Promise<{ outcome: TxOutcome<ProfileParts>; after: Item }> {
  const { candidate: c, at } = plan;
  const { id, item: current } = c;
  const set: Item = { ...plan.set };
  const remove = [...plan.remove];
  if (plan.moves && plan.onto) {
    const entered = typeof current.stage_entered_at === 'string' ? current.stage_entered_at : String(current.created_at);
    Object.assign(set, reqCandidatesIndexKey(tenantId, plan.onto.id, id), reqStageIndexKey(tenantId, plan.onto.id, c.stage, entered, id));
  } else if (plan.moves) {
    const { byRequisitionOrUser, byRequisitionStage } = TABLE_DEF.indexes;
    remove.push(byRequisitionOrUser.partitionKey, byRequisitionOrUser.sortKey, byRequisitionStage.partitionKey, byRequisitionStage.sortKey);
  }
  Object.assign(set, { updated_at: at }, changeIndexKey(tenantId, at, id));
  const after: Item = { ...current, ...set };
  for (const f of remove) delete after[f];
  const stageCounter = counter.stage(c.stage);
  const onto = plan.onto && reqCounterWrite(tenantId, plan.onto, { c_total: 1, [stageCounter]: 1 }, at);
  const oldReq = c.reqId;
  const outcome = await writeParts<ProfileParts>({
    candidate: {
      Update: {
        TableName: tableName(),
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
    leaves: plan.moves && oldReq !== undefined && counterUpdate(keys.requisition(tenantId, oldReq), { c_total: -1, [stageCounter]: -1 }),
    requisition: onto?.update,
    filled: onto?.filled,
    stats: onto && Object.keys(onto.stats).length > 0 && counterUpdate(statsKeyFor(tenantId), onto.stats),
    // Every copy changes (updated_at at least); tokens the new name or email lost go.
    search: searchWrites(tenantId, after, current),
    ...(plan.person ? personEditParts(tenantId, plan.person, at, plan.guard && { candidateId: id, move: plan.guard }) : NO_PERSON_EDIT),
    ...(plan.guard
      ? guardMoveParts(tenantId, id, plan.guard, Boolean(plan.person))
      : { guards: undefined, guardOut: undefined, guardIn: undefined }),
    // A move to another job is a record of the candidate's history, with the counters it moves.
    transfer: plan.moves && requisitionMovePut(tenantId, transferOf(id, current, after, at, plan.audit?.actor)),
    audit: plan.audit && auditPuts(tenantId, aboutPerson(plan.audit, after.person_id)),
  });
  return { outcome, after };
}
