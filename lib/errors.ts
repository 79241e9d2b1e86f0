/**
 * Typed domain errors. One boundary (lib/http.ts) maps them to status codes and
 * `{ error, code, field? }`: `error` is a sentence for people, `code` is for programs (stable,
 * one of ERROR_CODES), `field` names the one input at fault when there is one.
 */

/**
 * Every machine-readable error code the API answers with, the gateways' own refusals included.
 * Clients branch on these, never on the message; adding a code is fine, renaming one is not.
 */
export const ERROR_CODES = [
  /** 400: the request as a whole is wrong (body not JSON, not an object, conflicting parameters). */
  'invalid_request',
  /** 400: one field is wrong, missing or unknown; `field` names it. */
  'invalid_field',
  /** 401: no credentials, or they are invalid, expired or revoked. */
  'unauthorized',
  /** 403: signed in but not allowed (role, cross-site request, granting `*`). */
  'forbidden',
  /** 403: the API token lacks the scope the route requires. */
  'missing_scope',
  /** 404: unknown route, or no such resource in the caller's tenant. */
  'not_found',
  /** 409: the change conflicts with the current state (limits, last admin, concurrent writes). */
  'conflict',
  /** 409: `from_stage` is no longer the candidate's stage. */
  'stale_stage',
  /** 409: a request with this Idempotency-Key is still in flight. */
  'idempotency_conflict',
  /** 413: the body is larger than the gateway accepts. */
  'payload_too_large',
  /** 415: the body is not application/json. */
  'unsupported_media_type',
  /** 422: this Idempotency-Key was used with a different request. */
  'idempotency_mismatch',
  /** 429: too many requests or failed attempts; see Retry-After. */
  'rate_limited',
  /** 431: the request line or headers are too large (local gateway). */
  'headers_too_large',
  /** 5xx: our fault; the request id is in the logs. */
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What a thrower may say beyond the message. */
export interface ErrorDetail {
  code?: ErrorCode;
  /** The input at fault, as the client wrote it: `name`, `scopes[0]`, `stuck_days.applied`. */
  field?: string;
}

/** The code an error gets when its thrower names none. */
export function defaultCode(status: number, field?: string): ErrorCode {
  switch (status) {
    case 400:
      return field ? 'invalid_field' : 'invalid_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 431:
      return 'headers_too_large';
    default:
      return status >= 500 ? 'internal_error' : 'invalid_request';
  }
}

/** An error body: what every refusal carries, from the handlers and the gateways alike. */
export const errorBody = (message: string, code: ErrorCode, field?: string) => ({
  error: message,
  code,
  ...(field !== undefined && { field }),
});

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, such as Retry-After. */
    readonly headers: Record<string, string> = {},
    detail: ErrorDetail = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.field = detail.field;
    this.code = detail.code ?? defaultCode(status, detail.field);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthorized', detail?: ErrorDetail) {
    super(401, message, {}, detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, detail?: ErrorDetail) {
    super(403, message, {}, detail);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterMs: number, detail?: ErrorDetail) {
    super(429, message, { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) }, detail);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, detail?: ErrorDetail) {
    super(400, message, {}, detail);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string, detail?: ErrorDetail) {
    super(404, `${what} not found`, {}, detail);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, detail?: ErrorDetail) {
    super(409, message, {}, detail);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, message);
  }
}

/** A stage move whose `from_stage` is no longer the candidate's stage (a stale move). */
export class StaleStageError extends ConflictError {
  constructor(current: string, expected: string) {
    super(`candidate is in stage ${current}, not ${expected}; read it again before moving it`, { code: 'stale_stage', field: 'from_stage' });
  }
}
