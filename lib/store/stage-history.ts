/**
 * Stage history: one immutable item per real stage move, written in the same transaction as the
 * move (see moveCandidate). The API only ever puts these items, conditioned on their absence;
 * nothing updates or deletes them.
 */
import { newId } from '../ids';
import { REJECTION_TYPES, type RejectionType, STAGES, type Stage } from '../model';
import { queryAll, tableName } from './client';
import { type Item, oneOf, str } from './codec';
import { keys } from './table';

/**
 * Who made a change: an API token (its id, and its name when known) or a workspace user (their
 * id, and their email when known). Records made before names were kept carry the id alone.
 */
export interface ActorRef {
  /** `system`: the service itself deciding by a workspace's rule (screening's moves, as `id`). */
  type: 'token' | 'user' | 'system';
  id: string;
  name?: string;
  email?: string;
}

export interface StageMove {
  candidate_id: string;
  from_stage: Stage;
  to_stage: Stage;
  at: string;
  actor: ActorRef | null;
  /** A move into `rejected` with a reason: the reason as it read then (never the note). */
  reason?: { id: string; label: string; type: RejectionType };
}

/** The Put of a move's history item, for the move's own transaction. */
export function stageMovePut(tenantId: string, move: StageMove) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.stageMove(tenantId, move.candidate_id, move.at, newId()),
        type: 'stage_move',
        tenant_id: tenantId,
        candidate_id: move.candidate_id,
        from_stage: move.from_stage,
        to_stage: move.to_stage,
        at: move.at,
        ...(move.actor && { actor_type: move.actor.type, actor_id: move.actor.id }),
        ...(move.actor?.name !== undefined && { actor_name: move.actor.name }),
        ...(move.actor?.email !== undefined && { actor_email: move.actor.email }),
        ...(move.reason && { reason_id: move.reason.id, reason_label: move.reason.label, reason_type: move.reason.type }),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/**
 * A move to another requisition (a PATCH of `req_id`), kept in the candidate's history beside its
 * stage moves (the same key prefix, so the one Query of a candidate's history reads both), written
 * in the move's own transaction.
 */
export interface RequisitionMove {
  candidate_id: string;
  from_req_id: string | null;
  from_req_title: string | null;
  to_req_id: string | null;
  to_req_title: string | null;
  at: string;
  actor: ActorRef | null;
}

export function requisitionMovePut(tenantId: string, move: RequisitionMove) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.stageMove(tenantId, move.candidate_id, move.at, newId()),
        type: 'req_move',
        tenant_id: tenantId,
        ...move,
        actor: move.actor ?? undefined,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The stage-move item's codec. */
const stageMoveFromItem = (item: Item): StageMove => ({
  candidate_id: str(item, 'candidate_id', 'stage_move'),
  from_stage: oneOf(item, 'from_stage', STAGES, 'stage_move'),
  to_stage: oneOf(item, 'to_stage', STAGES, 'stage_move'),
  at: str(item, 'at', 'stage_move'),
  actor:
    item.actor_type === 'token' || item.actor_type === 'user' || item.actor_type === 'system'
      ? {
          type: item.actor_type,
          id: str(item, 'actor_id', 'stage_move'),
          ...(typeof item.actor_name === 'string' && { name: item.actor_name }),
          ...(typeof item.actor_email === 'string' && { email: item.actor_email }),
        }
      : null,
  ...(typeof item.reason_id === 'string' && {
    reason: {
      id: item.reason_id,
      label: str(item, 'reason_label', 'stage_move'),
      type: oneOf(item, 'reason_type', REJECTION_TYPES, 'stage_move'),
    },
  }),
});

/**
 * A candidate's moves, oldest first. One Query: a page holds about 1 MB, thousands of moves,
 * so the loop only ever runs again for a candidate moved more often than any pipeline does.
 */
export async function queryStageMoves(tenantId: string, candidateId: string): Promise<StageMove[]> {
  return (await queryHistory(tenantId, candidateId)).moves;
}

/** A candidate's stage moves and requisition moves, each oldest first: one Query. */
export async function queryHistory(tenantId: string, candidateId: string): Promise<{ moves: StageMove[]; transfers: RequisitionMove[] }> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.tenantPartition(tenantId), ':prefix': keys.stageMovePrefix(candidateId) },
    ScanIndexForward: true,
    ConsistentRead: true,
  });
  return {
    moves: items.filter((i) => i.type !== 'req_move').map(stageMoveFromItem),
    transfers: items.filter((i) => i.type === 'req_move').map(requisitionMoveFromItem),
  };
}

const orNull = (v: unknown) => (typeof v === 'string' ? v : null);
const requisitionMoveFromItem = (item: Item): RequisitionMove => {
  const actor = item.actor as ActorRef | undefined;
  return {
    candidate_id: str(item, 'candidate_id', 'req_move'),
    from_req_id: orNull(item.from_req_id),
    from_req_title: orNull(item.from_req_title),
    to_req_id: orNull(item.to_req_id),
    to_req_title: orNull(item.to_req_title),
    at: str(item, 'at', 'req_move'),
    actor: actor?.type === 'token' || actor?.type === 'user' ? actor : null,
  };
};
