/**
 * The read-decide-write loop every conditional write of the domain runs: decide on what was read
 * (a pure rule), write the plan with its conditions, and on a lost race or a refused condition
 * decide again on what the refusal saw (or on a fresh read), with backoff, up to MAX_ATTEMPTS.
 */
import type { AppError } from '../errors';
import { ConflictError } from '../errors';
import { checkTimeBudget } from '../time-budget';
import { backoff, MAX_ATTEMPTS, type TxOutcome } from '../store/tx';

/**
 * A rule's answer on what was read: a plan to write, an answer that needs no write (`done`, such
 * as a move to the stage the candidate is already in), or a refusal (a typed error, answered 4xx).
 */
export type Decision<P, R> = { write: P } | { done: R } | { refuse: AppError };

/** A refusal or a lost race: what the loop decides again on. */
export type Retry<N extends string> = Exclude<TxOutcome<N>, { written: true }>;

export interface Loop<S, P, R, N extends string> {
  /** What the rule decides on; re-read by `again` when a write loses. */
  state: S | Promise<S>;
  decide(state: S): Decision<P, R>;
  /** Write the plan; the answer once written. */
  write(plan: P): Promise<{ outcome: TxOutcome<N>; result?: R }>;
  /** The state to decide on next after `lost` (the seen item of a refusal, or a new read). */
  again(state: S, lost: Retry<N>): S | Promise<S>;
  /** The 409's sentence when the races never clear. */
  busy: string;
}

/**
 * Run the loop. Each write first asks whether the request's time still holds it (a write after
 * the answer would land unseen); refusals are thrown as the rule gave them.
 */
export async function decideAndWrite<S, P, R, N extends string>(loop: Loop<S, P, R, N>): Promise<R> {
  let state = await loop.state;
  for (let attempt = 1; ; attempt++) {
    const decision = loop.decide(state);
    if ('refuse' in decision) throw decision.refuse;
    if ('done' in decision) return decision.done;
    checkTimeBudget();
    const { outcome, result } = await loop.write(decision.write);
    if ('written' in outcome) return result as R;
    if (attempt >= MAX_ATTEMPTS) throw new ConflictError(loop.busy);
    state = await loop.again(state, outcome);
    await backoff(attempt);
  }
}
