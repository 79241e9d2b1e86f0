/**
 * Requisition rules as pure functions: the status matrix, the reason rule and the `filled`
 * rule. The store applies them inside its conditions; nothing here reads or writes.
 */
import { ConflictError, InvalidTransitionError, ValidationError } from '../errors';
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
