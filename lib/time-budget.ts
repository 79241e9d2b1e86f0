/**
 * The time a request has left, from its Lambda context. A function that runs out of time is
 * answered by middy's early timeout (a 500) while its promise goes on: a write retried after that
 * answer commits after it (the client was told it failed; a count read after its last answer can
 * still change). So work on an API request asks before each step that may take a DynamoDB round
 * trip or more (another attempt of a write that lost a race, the next page of a list) whether it
 * still fits, and answers 429 `busy` with nothing more written when it does not.
 *
 * Kept per invocation in an AsyncLocalStorage (the local runtime runs many at once in one
 * process); outside an API request (background functions, scripts) there is no budget.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BusyError } from './errors';

const budgets = new AsyncLocalStorage<() => number>();

/**
 * Time kept back for a step and the answer. Deployed a DynamoDB call takes milliseconds. Kept
 * back in proportion to the slowest call of the request instead, it refused, on a loaded
 * machine, moves that would have ended in time: DynamoDB Local serializes transactions, so the
 * first ones of a burst wait for the others.
 */
export const TIME_RESERVE_MS = 1_000;

/** Run `fn` with `remaining()` (the context's getRemainingTimeInMillis) as its budget. */
export const withTimeBudget = <T>(remaining: (() => number) | undefined, fn: () => Promise<T>): Promise<T> =>
  remaining ? budgets.run(remaining, fn) : fn();

/** Milliseconds the current request has left; Infinity outside one. */
export function timeLeftMs(): number {
  return budgets.getStore()?.() ?? Number.POSITIVE_INFINITY;
}

/**
 * Throw BusyError (429) unless the next step fits the budget. `field` names the input that made
 * the request long (`offset`), for the answer.
 */
export function checkTimeBudget(field?: string): void {
  if (timeLeftMs() < TIME_RESERVE_MS) throw new BusyError(field);
}
