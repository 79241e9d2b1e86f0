/**
 * The rule of a placement made without an offer in the service (POST /candidates/{id}/placement):
 * a move into `placed` whose placement takes its terms from the request, refused when the
 * candidate already has an active placement (one per candidate) or an accepted offer (then the
 * move into `placed` makes the placement, from that offer's terms).
 */
import { ConflictError, NotFoundError } from '../errors';
import { decideMove, type MovePlan, type MoveRequest, type MoveState } from './candidate-rules';
import type { Decision } from './retry';

type Item = Record<string, unknown>;

export interface PlacementCreateState extends MoveState {
  /** The placement the candidate's `placement_id` names, read when it names one. */
  prior?: Item;
}

/** Refused: the candidate has an active placement; `existing_id` names it when known. */
export class PlacementExistsError extends ConflictError {
  constructor(existingId: string | undefined) {
    super(
      `the candidate already has an active placement${existingId ? ` (${existingId})` : ''}; cancel it (POST /api/v1/placements/{id}/cancel) before recording another`,
      { code: 'placement_exists', ...(existingId && { existingId }) },
    );
  }
}

/** Refused: an accepted offer makes the placement when the candidate moves to `placed`. */
export class OfferAcceptedError extends ConflictError {
  constructor(offerId: string) {
    super(
      `the candidate has an accepted offer (${offerId}); move them to placed (POST /api/v1/pipeline) and the placement takes that offer's terms`,
      { code: 'offer_accepted' },
    );
  }
}

/**
 * Decide the placement: the candidate's move into `placed` (counters, headcount, the automatic
 * `filled`, as every hire), its placement holding `terms` and the requisition's team, with `id`.
 */
export function decidePlacementCreate(
  state: PlacementCreateState,
  req: Omit<MoveRequest, 'stage' | 'fromStage' | 'rejection' | 'offer'> & { id: string; terms: Item },
): Decision<MovePlan, never> {
  const c = state.candidate;
  if (!c) return { refuse: new NotFoundError('candidate') };
  if (c.erased) {
    return { refuse: new ConflictError('the candidate was erased; no placement can be recorded for them', { code: 'candidate_erased' }) };
  }
  const prior = state.prior && state.prior.status !== 'cancelled' ? String(state.prior.id) : undefined;
  if (prior || c.stage === 'placed') return { refuse: new PlacementExistsError(prior ?? optId(c.item.placement_id)) };
  const context = state.placementTerms ?? {};
  if (typeof context.offer_id === 'string') return { refuse: new OfferAcceptedError(context.offer_id) };
  const decided = decideMove(
    { ...state, placementTerms: { ...context, ...req.terms } },
    { stage: 'placed', at: req.at, actor: req.actor, audit: req.audit },
  );
  if ('done' in decided) return { refuse: new PlacementExistsError(undefined) };
  return 'refuse' in decided ? decided : { write: { ...decided.write, placementId: req.id } };
}

const optId = (v: unknown) => (typeof v === 'string' ? v : undefined);
