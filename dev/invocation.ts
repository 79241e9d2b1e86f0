/**
 * One Lambda invocation, as the local runtime runs it. The local runtime runs many invocations
 * at once in one process, as Lambda's multi-concurrency runtime (Managed Instances) does, and, as
 * that runtime does, gives each its own InvokeStore context. Powertools keys its per-invocation
 * state on that context when AWS_LAMBDA_MAX_CONCURRENCY is set (`npm start` sets it), so each
 * log line carries its own request's correlation id and tenant, and metric state is not shared.
 * Without the variable (tests, bench) Powertools ignores the store and this only calls `fn`.
 */
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';

export async function invocation<T>(awsRequestId: string, fn: () => Promise<T>): Promise<T> {
  const store = await InvokeStore.getInstanceAsync();
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: awsRequestId }, fn);
}

/**
 * Load a function module in a context of its own, as Lambda runs a function's init: Powertools'
 * constructors (Metrics) touch the per-invocation store, which has no context outside one.
 */
export const init = <T>(load: () => Promise<T>): Promise<T> => invocation('init', load);
