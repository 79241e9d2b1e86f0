/**
 * POST /candidates/{id}/placement: a hire made without an offer in the service. The candidate
 * moves into `placed` and the placement is written in that move's transaction, with the counters,
 * the headcount's condition and the automatic `filled` every hire has (lib/store/candidate-parts.ts
 * writeMove); its stream record is `placement.created`, as for any hire.
 */
import type { CreatePlacementBody, Placement } from '../api/placements';
import { ValidationError } from '../errors';
import { newId, nowIso } from '../ids';
import { candidateRead, getCandidate } from '../store/candidates';
import { writeMove } from '../store/candidate-parts';
import { readPlacementContext } from '../store/placement-context';
import { getPlacementItem } from '../store/placements';
import { requisitionSeen } from '../store/requisitions';
import { decidePlacementCreate, type PlacementCreateState } from './placement-rules';
import { toPlacement } from './placements';
import { actorOf, auditBy, type Principal } from './principal';
import { decideAndWrite } from './retry';

type Item = Record<string, unknown>;

/** The request's terms as a placement item holds them (the compensation flat, as offers keep it). */
function termsOf(b: CreatePlacementBody): Item {
  const { compensation, ...rest } = b;
  const terms: Item = { ...rest, amount: compensation.amount, currency: compensation.currency, period: compensation.period };
  return Object.fromEntries(Object.entries(terms).filter(([, v]) => v !== undefined));
}

export async function createPlacement(p: Principal, candidateId: string, body: CreatePlacementBody): Promise<Placement> {
  if (body.end_date !== undefined && body.end_date < body.start_date) {
    throw new ValidationError(`end_date must not be before start_date (${body.start_date})`, { field: 'end_date' });
  }
  const { tenantId } = p;
  const id = newId();
  // The candidate, then (unless placed already) the requisition, the offer it follows and its latest placement, at once.
  const read = async (seen?: Item): Promise<PlacementCreateState> => {
    const item = seen ?? (await getCandidate(tenantId, candidateId));
    if (!item || item.stage === 'placed') return { candidate: candidateRead(item) };
    const priorId = typeof item.placement_id === 'string' ? item.placement_id : undefined;
    const [{ requisition, terms }, prior] = await Promise.all([
      readPlacementContext(tenantId, item),
      priorId ? getPlacementItem(tenantId, priorId) : undefined,
    ]);
    return { candidate: candidateRead(item), reqSeen: requisitionSeen(requisition), placementTerms: terms, prior };
  };
  const placement = await decideAndWrite({
    state: read(),
    decide: (state) =>
      decidePlacementCreate(state, {
        id,
        terms: termsOf(body),
        at: nowIso(),
        actor: actorOf(p),
        audit: auditBy(p, 'candidate.stage_changed', { type: 'candidate', id: candidateId }),
      }),
    write: async (plan) => {
      const { outcome, placement } = await writeMove(tenantId, plan);
      return { outcome, result: placement };
    },
    again: async (state, lost) => {
      if ('conflict' in lost || lost.refused === 'stats') return state;
      // Moved meanwhile (perhaps placed, or onto another requisition): decide again on what it is now.
      if (lost.refused === 'candidate') return read(lost.seen);
      // The hire would fill the requisition, or exceed it, or someone filled it first.
      if (lost.refused === 'requisition') return { ...state, reqSeen: requisitionSeen(lost.seen) };
      throw new Error(`placement refused by its ${lost.refused} part`);
    },
    busy: 'candidate is being changed concurrently; try again',
  });
  return toPlacement(placement as Item);
}
