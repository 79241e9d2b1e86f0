/**
 * Requisition rules as pure functions: the status matrix, the reason rule, the `filled` rule and
 * a requisition's part in a candidate write (open, headcount, the hire that fills it). They
 * decide on what was read; the store's conditions hold the decision at the write.
 */
import { ConflictError, InvalidTransitionError, NotFoundError, RequisitionNotOpenError, ValidationError, type AppError } from '../errors';
import { REASON_MAX, REASON_REQUIRED, REQ_TRANSITIONS, type ReqStatus } from '../model';

/** The statuses a requisition in `from` may change to. */
export const allowedNext = (from: ReqStatus): readonly ReqStatus[] => REQ_TRANSITIONS[from];

/**
 * Judge a status change: `noop` for the current status (answered 200, nothing written),
 * `change` for one the matrix allows; anything else is an InvalidTransitionError.
 */
export function judgeTransition(from: ReqStatus, to: ReqStatus): 'noop' | 'change' {
  if (from === to) return 'noop';
  if (allowedNext(from).includes(to)) return 'change';
  throw new InvalidTransitionError(from, to, allowedNext(from));
}

/** The reason a change into `to` records: required (1 to 500 characters) for on_hold and closed. */
export function checkReason(to: ReqStatus, reason: string | undefined): string | undefined {
  if (reason === undefined) {
    if (REASON_REQUIRED.includes(to)) {
      throw new ValidationError(`reason is required when the status becomes ${to} (1 to ${REASON_MAX} characters)`, { field: 'reason' });
    }
    return undefined;
  }
  return reason;
}

/** What a requisition's counters and status say about one more hire. */
export interface HireState {
  status: ReqStatus;
  hires: number;
  /** Null for requisitions made before headcounts existed: no limit, never filled by itself. */
  headcount: number | null;
}

/**
 * One more candidate entering `placed` on a requisition: `full` when its hires already reach its
 * headcount (hires never exceed it), `fills` when the hire brings an open requisition to its
 * headcount (it becomes filled in the same write), else `counts`.
 */
export function placementOutcome(r: HireState): 'full' | 'fills' | 'counts' {
  if (r.headcount === null) return 'counts';
  if (r.hires >= r.headcount) return 'full';
  return r.status === 'open' && r.hires + 1 >= r.headcount ? 'fills' : 'counts';
}

/** A placement refused because the requisition has all the hires its headcount asks for. */
export class HeadcountReachedError extends ConflictError {
  constructor(hires: number, headcount: number) {
    super(`the requisition has ${hires} of ${headcount} hires; raise its headcount to place another candidate on it`, {
      code: 'headcount_reached',
    });
  }
}

/** A headcount below the hires already made. */
export class HeadcountBelowHiresError extends ConflictError {
  constructor(hires: number, headcount: number) {
    super(
      `headcount ${headcount} is below the requisition's ${hires} hires; move candidates out of placed first or keep headcount at ${hires} or more`,
      {
        code: 'headcount_below_hires',
        field: 'headcount',
      },
    );
  }
}

/** A requisition as a candidate write's rule reads it (lib/store/requisitions.ts requisitionSeen). */
export interface RequisitionSeen extends HireState {
  id: string;
  title: string;
  /** 0 for requisitions written before they had one. */
  version: number;
}

/**
 * A requisition's part in a candidate write, as decided: its counters change, on the condition
 * that it exists, is open (`mustBeOpen`), and, for a hire (`placing`), that the hire neither
 * exceeds nor (unless `fills`) fills it. With `fills` the hire fills it: it becomes `filled` at
 * version `fills.version + 1`, with a history record by `system`, in the same transaction.
 */
export interface RequisitionPart {
  id: string;
  mustBeOpen: boolean;
  placing: boolean;
  fills?: { version: number; title: string };
}

/**
 * Decide a requisition's part in a candidate write. `seen` is the requisition as last read (or as
 * a refused condition saw it; `null`: the condition found no requisition); without it the part
 * assumes the common case (open, and a hire that neither fills nor exceeds it) and its condition
 * checks that. Only a read of this requisition counts: a retry after the candidate changed
 * requisition may still hold the old one's.
 */
export function requisitionPart(
  id: string,
  seen: RequisitionSeen | null | undefined,
  opts: { mustBeOpen?: boolean; placing?: boolean },
): { part: RequisitionPart } | { refuse: AppError } {
  if (seen === null) return { refuse: new NotFoundError('requisition') };
  const own = seen?.id === id ? seen : undefined;
  const mustBeOpen = opts.mustBeOpen ?? false;
  const placing = opts.placing ?? false;
  if (own && mustBeOpen && own.status !== 'open') return { refuse: new RequisitionNotOpenError(own.status) };
  const outcome = placing && own ? placementOutcome(own) : 'counts';
  if (outcome === 'full') return { refuse: new HeadcountReachedError(own!.hires, own!.headcount!) };
  return { part: { id, mustBeOpen, placing, ...(outcome === 'fills' && { fills: { version: own!.version, title: own!.title } }) } };
}
