/**
 * The error boundary (lib/http.ts): typed errors become `{ error, code, field? }`, a code given by
 * the thrower wins over the status's default, and anything else is a 500 with `internal_error`
 * that tells nothing of the error.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { AppError, ConflictError, defaultCode, ERROR_CODES, TooManyRequestsError, ValidationError } from '../../lib/errors';
import { ErrorBody } from '../../lib/schemas';
import { apiHandler } from '../../lib/http';
import { fieldPath } from '../../lib/validate';

const route = {
  method: 'GET',
  path: '/api/v1/pipeline',
  handler: 'get-pipeline',
  auth: 'none',
  access: 'none',
  summary: 'Test',
  status: 200,
  response: ErrorBody,
} as const;
const context = { functionName: 'test', awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const event = {
  httpMethod: 'GET',
  path: '/api/v1/pipeline',
  headers: {},
  requestContext: { requestId: 'req-1' },
} as unknown as APIGatewayProxyEvent;

async function answer(err: unknown) {
  const handler = apiHandler(route as never, async () => {
    throw err;
  });
  const res = (await handler(event, context)) as APIGatewayProxyResult;
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers ?? {} };
}

describe('the error boundary', () => {
  it('a field error: invalid_field and the field', async () => {
    expect(await answer(new ValidationError('name is required', { field: 'name' }))).toMatchObject({
      status: 400,
      body: { error: 'name is required', code: 'invalid_field', field: 'name' },
    });
  });

  it('a code named by the thrower wins (what Idempotency-Key and rate limits use)', async () => {
    expect(
      (await answer(new AppError(422, 'Idempotency-Key was used with another request', {}, { code: 'idempotency_mismatch' }))).body,
    ).toEqual({
      error: 'Idempotency-Key was used with another request',
      code: 'idempotency_mismatch',
    });
    expect((await answer(new ConflictError('still running', { code: 'idempotency_conflict' }))).body.code).toBe('idempotency_conflict');
    const limited = await answer(new TooManyRequestsError('slow down', 2500));
    expect(limited.body).toEqual({ error: 'slow down', code: 'rate_limited' });
    expect(limited.headers['Retry-After']).toBe('3');
  });

  it('an unexpected error: 500 internal_error, without its message', async () => {
    const res = await answer(new Error('secret table name and an email'));
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('internal_error');
    expect(JSON.stringify(res.body)).not.toMatch(/secret|email/);
  });

  it('every status gets a default code from the enum', () => {
    for (const status of [400, 401, 403, 404, 409, 413, 415, 418, 422, 429, 431, 500, 502, 503]) {
      expect(ERROR_CODES).toContain(defaultCode(status));
    }
    expect(defaultCode(400)).toBe('invalid_request');
    expect(defaultCode(400, 'name')).toBe('invalid_field');
  });
});

describe('fieldPath', () => {
  it('writes paths as a client would', () => {
    expect(fieldPath(['name'])).toBe('name');
    expect(fieldPath(['scopes', 0])).toBe('scopes[0]');
    expect(fieldPath(['stuck_days', 'applied'])).toBe('stuck_days.applied');
    expect(fieldPath(['a b', 'c-d'])).toBe('["a b"]["c-d"]');
  });
});
