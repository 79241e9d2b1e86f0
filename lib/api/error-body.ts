/**
 * The error body as the OpenAPI document and the tests describe it. Apart from lib/api/fields.ts
 * because a schema's construction stays in every bundle that imports its module, and no function
 * validates its own refusals: here, the list of every error code weighs on no Lambda.
 */
import * as z from 'zod/mini';
import { ERROR_CODES } from '../errors';
import { OFFER_STATUSES, REQ_STATUSES } from '../model';

// The statuses an `allowed` list may name: the requisition's, then the offer's (draft is both).
const TRANSITION_STATUSES = [...new Set([...REQ_STATUSES, ...OFFER_STATUSES])] as [string, ...string[]];

/**
 * Every refusal: `error` is a sentence for people; `code` is for programs (always sent by this
 * API; optional in the schema because the spec's bodies are `{ error }` alone); `field` names the
 * one input at fault, as the client wrote it (`name`, `scopes[0]`).
 */
export const ErrorBody = z.object({
  error: z.string(),
  code: z.optional(z.enum(ERROR_CODES)),
  field: z.optional(z.string()),
  /** Only with code `invalid_transition`: the statuses the requisition (or offer) may change to from its current one. */
  allowed: z.optional(z.array(z.enum(TRANSITION_STATUSES))),
  /** Only with code `duplicate_candidate` (the candidate the person already is) and `email_taken` (the person who holds the email). */
  existing_id: z.optional(z.string()),
});
