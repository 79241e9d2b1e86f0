/**
 * What the bundles of UNTRACED_MODULES (infra/constructs/table-function.ts) use in place of
 * `@aws-lambda-powertools/tracer` (an esbuild alias of those functions only): the Tracer as it is
 * outside Lambda, off, handing every client back untouched. Those functions' bundles already
 * carry the API Gateway client, the SQS client or Powertools Idempotency; with the Tracer and the
 * X-Ray SDK (~78 KB) they would pass the 400 KB budget per API function. They keep the segments of
 * Lambda's and API Gateway's active tracing; only their SDK calls are not subsegments. It has only
 * the members lib/tracer.ts and the clients' modules use: types come from the real package, so a
 * call of any other member type-checks but fails in these bundles.
 */
export class Tracer {
  readonly provider = { setContextMissingStrategy: (_strategy: unknown) => undefined };

  // biome-ignore lint/complexity/noUselessConstructor: it gives the stand-in the real Tracer's one-argument signature
  constructor(_options?: unknown) {}

  isTracingEnabled(): boolean {
    return false;
  }

  captureAWSv3Client<T>(client: T): T {
    return client;
  }
}
