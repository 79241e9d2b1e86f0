/** Typed domain errors. One boundary (lib/http.ts) maps them to status codes and `{ error }`. */

export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, such as Retry-After. */
    readonly headers: Record<string, string> = {},
    /** A machine-readable `code` and the `field` at fault, added to the body when set. */
    readonly details: { code?: string; field?: string } = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Unauthorized') {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterMs: number) {
    super(429, message, { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) });
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class NotFoundError extends AppError {
  constructor(what: string) {
    super(404, `${what} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
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
    super(`candidate is in stage ${current}, not ${expected}; read it again before moving it`);
  }
}
