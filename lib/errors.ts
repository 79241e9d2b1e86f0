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
  /** 401: the API token expired; the message says when. */
  'token_expired',
  /** 401: the token was rotated and this, its old secret, is past its grace period; the message says when it ended. */
  'token_rotated',
  /** 403: signed in but not allowed (role, cross-site request, a token scope beyond the caller's role). */
  'forbidden',
  /** 403: the API token lacks the scope the route requires. */
  'missing_scope',
  /** 403: the signed-in user has a temporary password; only reading the session, changing the password and signing out work until it is changed. */
  'password_change_required',
  /**
   * 403: the session is half signed in: the password was right, and the second step (a two-factor
   * code, or enrolling when the workspace requires it) is still to come; only that step, reading
   * the session and signing out work until then.
   */
  'two_factor_required',
  /** 404: unknown route, or no such resource in the caller's tenant. */
  'not_found',
  /** 409: the change conflicts with the current state (limits, last admin, concurrent writes). */
  'conflict',
  /** 409: this email cannot be added as a member (it signs in to another account); never says where. */
  'email_unavailable',
  /** 409: `from_stage` is no longer the candidate's stage. */
  'stale_stage',
  /** 409: a screening overturn with nothing to overturn (not screened, passed, already overturned, or moved since). */
  'nothing_to_overturn',
  /** 409: the requisition (or offer) status matrix does not allow this change; `allowed` lists the statuses it allows. */
  'invalid_transition',
  /** 409: the candidate already has an open offer (draft, pending approval, approved or sent); the message names it. */
  'offer_open',
  /** 409: the offer is approved through the workspace's approval chain, not its status route. */
  'approval_required',
  /** 409: the offer was sent or has an outcome: its terms cannot change (rescind it and make another). */
  'offer_locked',
  /** 409: the workspace requires an approved or sent offer before a move into `offer_sent`. */
  'offer_required',
  /** 409: a cancelled placement's dates no longer change. */
  'placement_cancelled',
  /** 409: the candidate already has an active placement; `existing_id` names it when known. */
  'placement_exists',
  /** 409: the candidate has an accepted offer: their move into `placed` makes the placement. */
  'offer_accepted',
  /** 409: `from_status` is no longer the requisition's status. */
  'stale_status',
  /** 409: the requisition a candidate is added or moved to is not open; the message names its status. */
  'requisition_not_open',
  /** 409: a placement would take the requisition's hires beyond its headcount. */
  'headcount_reached',
  /** 409: a headcount below the requisition's current hires. */
  'headcount_below_hires',
  /** 409: the candidate was erased; its personal fields cannot be set again. */
  'candidate_erased',
  /** 409: the requisition's decision is made (candidate placed or rejected, requisition closed): scorecards no longer change. */
  'scorecard_locked',
  /** 409: the same person is already a candidate on this requisition (or without one); `existing_id` names that candidate. */
  'duplicate_candidate',
  /** 409: the email belongs to another person of the workspace; `existing_id` names that person (merge them instead). */
  'email_taken',
  /** 409: the person has as many candidates as one person may have, or too many to change in one write. */
  'person_limit',
  /** 409: a resend of an event type the endpoint is no longer subscribed to, without `force: true`. */
  'event_not_subscribed',
  /** 404: no upload of this id in the caller's workspace (never issued, already attached, or older than a day). */
  'upload_not_found',
  /** 409: the file is still processing, or was refused: it has no text or bytes to serve. */
  'file_not_ready',
  /** 409 (with malware scanning): the malware scan has not cleared the file yet, or could not judge it. */
  'scan_pending',
  /** 409 (with malware scanning), or a refused file's `refusal_code`: the scan found a threat; its bytes and text are gone. */
  'file_infected',
  /** 422 (attach) or a refused file's `refusal_code`: the bytes are not an allowed type, whatever the name or declared type. */
  'file_type_not_allowed',
  /** 422 or `refusal_code`: the bytes, or the content type sent, are another allowed type than the one declared. */
  'file_type_mismatch',
  /** 422 or `refusal_code`: larger than the published limit. */
  'file_too_large',
  /** 422: not the size declared for the upload. */
  'file_size_mismatch',
  /** 422 or `refusal_code`: no bytes. */
  'file_empty',
  /** `refusal_code`: a DOCX or ODT that expands past sane bounds (a zip bomb); nothing was read from it. */
  'archive_too_large',
  /** 412: If-Match names an ETag the requisition no longer has. */
  'stale_requisition',
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
  /**
   * 429: the request could not be finished within its function's time budget (a busy service, or
   * an offset too deep to reach in time); nothing more was written once it stopped. See Retry-After.
   */
  'busy',
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
  /** `invalid_transition` only: the statuses the requisition (or offer) may move to from where it is. */
  allowed?: readonly string[];
  /** `duplicate_candidate`, `email_taken` and `placement_exists` only: the id of the record that already holds it. */
  existingId?: string;
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
export const errorBody = (message: string, code: ErrorCode, field?: string, allowed?: readonly string[], existingId?: string) => ({
  error: message,
  code,
  ...(field !== undefined && { field }),
  ...(allowed !== undefined && { allowed: [...allowed] }),
  ...(existingId !== undefined && { existing_id: existingId }),
});

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly allowed: readonly string[] | undefined;
  readonly existingId: string | undefined;
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
    this.allowed = detail.allowed;
    this.existingId = detail.existingId;
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

/** The request ran out of its time budget (lib/time-budget.ts); `field` names the input that made it long. */
export class BusyError extends TooManyRequestsError {
  constructor(field?: string) {
    super(
      field === 'offset'
        ? 'offset could not be reached in time (skipping reads each candidate); page with next_cursor, or retry later'
        : 'the service is busy and could not finish this request in time; retry after Retry-After',
      2_000,
      { code: 'busy', field },
    );
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
    super(`candidate is in stage ${current}, not ${expected}; read it again before moving it`, {
      code: 'stale_stage',
      field: 'from_stage',
    });
  }
}

/** A requisition status change the matrix does not allow; names and lists the allowed ones. */
export class InvalidTransitionError extends ConflictError {
  constructor(from: string, to: string, allowed: readonly string[], what: 'requisition' | 'offer' = 'requisition') {
    const next = allowed.length ? `it may move to ${allowed.join(' or ')}` : 'it may not move to any other status';
    super(`${what === 'offer' ? 'an offer' : 'a requisition'} cannot go from ${from} to ${to}; from ${from} ${next}`, {
      code: 'invalid_transition',
      field: 'status',
      allowed,
    });
  }
}

/** A status change whose `from_status` is no longer the requisition's status. */
export class StaleStatusError extends ConflictError {
  constructor(current: string, expected: string) {
    super(`requisition is ${current}, not ${expected}; read it again before changing its status`, {
      code: 'stale_status',
      field: 'from_status',
    });
  }
}

/** If-Match names an earlier version of the requisition. */
export class StaleRequisitionError extends AppError {
  constructor() {
    super(
      412,
      'the requisition changed since this ETag was read; read it again and apply the change to what is there now',
      {},
      { code: 'stale_requisition', field: 'If-Match' },
    );
  }
}

/** A candidate added or moved to a requisition that is not open. */
export class RequisitionNotOpenError extends ConflictError {
  constructor(status: string) {
    super(`the requisition is ${status}; candidates can only be added to an open requisition`, {
      code: 'requisition_not_open',
      field: 'req_id',
    });
  }
}
