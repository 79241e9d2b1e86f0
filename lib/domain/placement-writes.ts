/**
 * Changes to a placement: its dates (PATCH), and its cancellation when the person never started.
 * A cancellation is three writes, each idempotent, so a retry of the route completes one that
 * stopped half-way: the placement becomes `cancelled` (with its reason and audit record); its
 * candidate, still placed on that requisition, moves back to `onboarding` (the hire stops
 * counting: `hires` drops in that move's transaction); and a requisition the hire had filled
 * reopens, its history naming the reason.
 */
import type { CancelPlacementBody, Placement, UpdatePlacementBody } from '../api/placements';
import { ConflictError, NotFoundError, StaleStageError, ValidationError } from '../errors';
import { nowIso } from '../ids';
import { logger } from '../logger';
import { REASON_MAX } from '../model';
import { getCandidate } from '../store/candidates';
import { getPlacementItem, writePlacementChange } from '../store/placements';
import { getRequisition, reqHeadcount, reqStageCount } from '../store/requisitions';
import { moveCandidate } from './candidate-writes';
import { toPlacement } from './placements';
import { actorOf, auditBy, type Principal } from './principal';
import { changeStatus } from './requisition-writes';

type Item = Record<string, unknown>;

const BUSY = 'placement is being changed concurrently; try again';

async function read(tenantId: string, id: string): Promise<Item> {
  const item = await getPlacementItem(tenantId, id);
  if (!item) throw new NotFoundError('placement');
  return item;
}

const applied = (current: Item, set: Item, remove: readonly string[]): Item => {
  const out = { ...current, ...set };
  for (const f of remove) delete out[f];
  return out;
};

/** Change the start or end date: one read, one conditional write with its audit record. */
export async function updatePlacement(p: Principal, id: string, body: UpdatePlacementBody): Promise<Placement> {
  const current = await read(p.tenantId, id);
  if (current.status === 'cancelled') {
    throw new ConflictError('the placement was cancelled; its dates no longer change', { code: 'placement_cancelled' });
  }
  const set: Item = {};
  const remove: string[] = [];
  if (body.start_date !== undefined && body.start_date !== current.start_date) set.start_date = body.start_date;
  if (body.end_date === null && current.end_date !== undefined) remove.push('end_date');
  else if (body.end_date && body.end_date !== current.end_date) set.end_date = body.end_date;
  const after = applied(current, set, remove);
  if (typeof after.start_date === 'string' && typeof after.end_date === 'string' && after.end_date < after.start_date) {
    throw new ValidationError(`end_date must not be before start_date (${after.start_date})`, { field: 'end_date' });
  }
  if (Object.keys(set).length === 0 && remove.length === 0) return toPlacement(current);
  set.updated_at = nowIso();
  const changes = (['start_date', 'end_date'] as const)
    .filter((f) => f in set || remove.includes(f))
    .map((f) => ({ field: f, before: current[f] ?? null, after: (set[f] as string | undefined) ?? null }));
  const outcome = await writePlacementChange(
    p.tenantId,
    current,
    set,
    remove,
    auditBy(p, 'placement.updated', { type: 'placement', id }, changes),
  );
  if (!('written' in outcome)) throw new ConflictError(BUSY);
  return toPlacement({ ...after, updated_at: set.updated_at });
}

/**
 * Cancel a placement (the person never started). Cancelling one already cancelled changes
 * nothing more than finishing what its cancellation left undone.
 */
export async function cancelPlacement(p: Principal, id: string, body: CancelPlacementBody): Promise<Placement> {
  let placement = await read(p.tenantId, id);
  if (placement.status !== 'cancelled') {
    const at = nowIso();
    const set = { status: 'cancelled', cancelled_at: at, cancel_reason: body.reason, updated_at: at };
    const audit = auditBy(p, 'placement.cancelled', { type: 'placement', id }, [
      { field: 'status', before: placement.status ?? 'active', after: 'cancelled' },
      { field: 'cancel_reason', before: null, after: body.reason },
    ]);
    const outcome = await writePlacementChange(p.tenantId, placement, set, [], audit);
    if ('written' in outcome) placement = applied(placement, set, []);
    else {
      // Someone cancelled it first (then finish their work), or changed its dates meanwhile.
      placement = await read(p.tenantId, id);
      if (placement.status !== 'cancelled') throw new ConflictError(BUSY);
    }
  }
  await unhire(p, placement, String(placement.cancel_reason ?? body.reason));
  return toPlacement(placement);
}

/** The hire stops counting: its candidate leaves `placed`, and a requisition it filled reopens. */
async function unhire(p: Principal, placement: Item, reason: string): Promise<void> {
  const candidateId = String(placement.candidate_id);
  const reqId = typeof placement.req_id === 'string' ? placement.req_id : undefined;
  const candidate = await getCandidate(p.tenantId, candidateId);
  // Only the hire this placement records: a candidate since moved on, or onto another requisition, stays.
  if (candidate?.stage === 'placed' && candidate.req_id === reqId) {
    try {
      await moveCandidate(p.tenantId, candidateId, 'onboarding', nowIso, {
        fromStage: 'placed',
        actor: actorOf(p),
        audit: auditBy(p, 'candidate.stage_changed', { type: 'candidate', id: candidateId }),
      });
    } catch (e) {
      if (!(e instanceof StaleStageError)) throw e;
    }
  }
  if (!reqId) return;
  const r = await getRequisition(p.tenantId, reqId);
  if (r?.status !== 'filled') return;
  const headcount = reqHeadcount(r);
  if (headcount === null || reqStageCount(r, 'placed') >= headcount) return;
  try {
    await changeStatus(p.tenantId, reqId, 'open', {
      reason: `placement cancelled: ${reason}`.slice(0, REASON_MAX),
      fromStatus: 'filled',
      actor: actorOf(p),
      audit: auditBy(p, 'requisition.status_changed', { type: 'requisition', id: reqId }),
    });
  } catch (e) {
    // Reopened (or closed) by someone else meanwhile: theirs stands.
    logger.warn('a cancelled placement did not reopen its requisition', { req_id: reqId, error: (e as Error).name });
  }
}
