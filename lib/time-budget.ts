/**
 * The time a request has left, from its Lambda context. A function that runs out of time is
 * answered by middy's early timeout (a 500) while its promise goes on: a write retried after that
 * answer commits after it (the client was told it failed; a count read after its last answer can
 * still change). So work on an API request asks before each step that may take a DynamoDB round
 * trip or more (another attempt of a write that lost a race, the next page of a list) whether it
 * still fits, and answers 429 `busy` with nothing more written when it does not.
 *
 * A step fits when the time left covers twice the slowest DynamoDB call the request has made so
 * far, and at least MIN_RESERVE_MS: deployed a call takes milliseconds, so the floor decides;
 * DynamoDB Local on a loaded machine has taken seconds, and then the next attempt is expected to
 * as well. Kept per invocation in an AsyncLocalStorage (the local runtime runs many at once in
 * one process); outside an API request (background functions, scripts) there is no budget.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { BusyError } from './errors';

interface Budget {
  remaining: () => number;
  slowestCallMs: number;
}
const budgets = new AsyncLocalStorage<Budget>();

/** The least time kept back for a step and the answer. */
export const MIN_RESERVE_MS = 1_000;

/** Run `fn` with `remaining()` (the context's getRemainingTimeInMillis) as its budget. */
export const withTimeBudget = <T>(remaining: (() => number) | undefined, fn: () => Promise<T>): Promise<T> =>
  remaining ? budgets.run({ remaining, slowestCallMs: 0 }, fn) : fn();

/** Milliseconds the current request has left; Infinity outside one. */
export function timeLeftMs(): number {
  return budgets.getStore()?.remaining() ?? Number.POSITIVE_INFINITY;
}

/** How long a DynamoDB call of the current request took (lib/store/client.ts measures each). */
export function noteCallMs(ms: number): void {
  const budget = budgets.getStore();
  if (budget && ms > budget.slowestCallMs) budget.slowestCallMs = ms;
}

/**
 * Throw BusyError (429) unless the next step fits the budget. `field` names the input that made
 * the request long (`offset`), for the answer.
 */
export function checkTimeBudget(field?: string): void {
  const budget = budgets.getStore();
  if (!budget || budget.remaining() >= Math.max(MIN_RESERVE_MS, 2 * budget.slowestCallMs)) return;
  throw new BusyError(field);
}
