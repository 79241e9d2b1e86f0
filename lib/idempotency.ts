/**
 * Idempotency-Key for the token write routes (POST /candidates, POST /pipeline, PATCH
 * /candidates/{id}), on Powertools Idempotency. A retry with the same key and the same request
 * within 24 h gets the first answer again (status, body, headers) plus `Idempotent-Replayed:
 * true`, without running the write again, so there is no second item and no second event.
 *
 * - Scope: the tenant (the record sits in the tenant's partition and the tenant is hashed into the
 *   key) and the route (method + path template). Not the token: a worker that retries with a
 *   rotated token of the same workspace still gets its first answer.
 * - Same key, other request (body or path parameters): 422 `idempotency_mismatch`.
 * - Same key while the first request still runs: 409 `idempotency_conflict`, Retry-After 1.
 * - Only successes are kept: a request that failed (4xx/5xx) has its record deleted, so a retry
 *   runs again (the failure wrote nothing).
 */
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AppError } from './errors';
import { header } from './headers';
import { logger } from './logger';
import { emitMetric } from './metrics';
import { idempotencyStore } from './store/idempotency';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key is remembered (Stripe keeps them 24 h too). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** 1 to 255 printable ASCII characters (a UUID is the usual choice). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The key a request carries, undefined without the header; a malformed one is a 400. */
export function idempotencyKeyOf(event: Pick<APIGatewayProxyEvent, 'headers'>): string | undefined {
  const key = header(event, IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key) || !key.trim()) {
    throw new AppError(
      400,
      'Idempotency-Key must be 1 to 255 printable ASCII characters',
      {},
      { code: 'invalid_field', field: 'Idempotency-Key' },
    );
  }
  return key;
}

interface Payload {
  /** Hashed into the record's sort key. */
  key: { tenant: string; key: string };
  /** Hashed and compared on a retry: another request under the same key is a 422. */
  request: { params: unknown; body: unknown };
}

/**
 * Run `respond` once per (tenant, route, key). `route` is the route table's "METHOD /path"; the
 * payload compared on retries is the path parameters and the JSON body. The body is the object
 * middy's http-json-body-parser made of `event.body`, not its bytes, and Powertools sorts keys
 * before hashing, so key order and whitespace between tokens do not matter
 * (test/integration/idempotency-payload.test.ts).
 */
export async function idempotent(
  opts: { tenantId: string; route: string; key: string; event: APIGatewayProxyEvent; context: Context },
  respond: () => Promise<APIGatewayProxyResult>,
): Promise<APIGatewayProxyResult> {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'key',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    hashFunction: 'sha256',
    throwOnNoIdempotencyKey: true,
    responseHook: (response) => {
      logger.info('idempotent replay', { route: opts.route });
      emitMetric('IdempotentReplays');
      const r = response as unknown as APIGatewayProxyResult;
      return { ...r, headers: { ...r.headers, [REPLAYED_HEADER]: 'true' } } as never;
    },
  });
  // The in-flight record expires with the function's remaining time, so a crashed first attempt
  // does not block its key for 24 h.
  config.registerLambdaContext(opts.context);
  const payload: Payload = {
    key: { tenant: opts.tenantId, key: opts.key },
    request: { params: opts.event.pathParameters ?? null, body: opts.event.body ?? null },
  };
  const run = makeIdempotent(async (_p: Payload) => respond(), {
    persistenceStore: idempotencyStore(opts.tenantId),
    config,
    keyPrefix: opts.route,
    dataIndexArgument: 0,
  });
  try {
    return await run(payload);
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'IdempotencyValidationError') {
      throw new AppError(
        422,
        'this Idempotency-Key was already used with a different request; use a new key for a new request',
        {},
        { code: 'idempotency_mismatch', field: 'Idempotency-Key' },
      );
    }
    if (name === 'IdempotencyAlreadyInProgressError') {
      throw new AppError(
        409,
        'a request with this Idempotency-Key is still in progress; retry after it ends',
        { 'Retry-After': '1' },
        { code: 'idempotency_conflict' },
      );
    }
    // Powertools wraps a failure of the persistence layer; what the handler threw is passed through.
    throw err;
  }
}
