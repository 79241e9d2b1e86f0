/**
 * The wrapper of every function that is not an API route (the authorizers, the stream and queue
 * consumers): Powertools' logger context and cold-start metric, as middy middlewares, around a
 * rule that lives in lib/. The API routes get the same two through apiHandler (lib/http.ts).
 */
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Context } from 'aws-lambda';
import { logger } from './logger';
import { metrics } from './metrics';

/**
 * `resetKeys` for the functions that append keys (the authorizers: tenant, correlation id), so
 * that one invocation's keys never reach the next one's lines. The stream and queue consumers
 * append none, and must not reset: the local runtime runs them in the API's process, beside
 * requests whose correlation id a reset would wipe.
 */
export function lambdaHandler<E, R>(fn: (event: E, context: Context) => Promise<R>, opts: { resetKeys?: boolean } = {}) {
  return middy<E, R, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: opts.resetKeys ?? false }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .handler(fn);
}
