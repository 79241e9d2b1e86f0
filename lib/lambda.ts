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

export function lambdaHandler<E, R>(fn: (event: E, context: Context) => Promise<R>) {
  return (
    middy<E, R, Error, Context>()
      // resetKeys: one invocation's keys (tenant, correlation id) never reach the next one's lines.
      .use(injectLambdaContext(logger, { resetKeys: true }))
      .use(logMetrics(metrics, { captureColdStartMetric: true }))
      .handler(fn)
  );
}
