/**
 * Offers: their routes (a candidate's offers, one offer with its versions, changes of terms and of
 * status) and the request and answer schemas. The status matrix and the version rule are
 * lib/domain's (offer-rules.ts); the items hold the compensation flat (lib/entities/offer.ts).
 */
import * as z from 'zod/mini';
import { JOB_TYPES, OFFER_NOTE_MAX, OFFER_STATUSES, PAY_PERIODS, REASON_MAX } from '../model';
import { IdParam, dataOf, text, timestamp } from './fields';
import { DOCS, IDEM_CONFLICT, IDEM_MISMATCH, type Route } from './route';

const AMOUNT_MAX = 1_000_000_000;
const amountError = `compensation.amount must be a number above 0 and at most ${AMOUNT_MAX}, with at most 2 decimals`;
// ISO 4217 codes the runtime knows (Node's Intl); a code it does not know is refused.
let currencies: Set<string> | undefined;
const isCurrency = (c: string) => (currencies ??= new Set(Intl.supportedValuesOf('currency'))).has(c);

export const Compensation = z.strictObject({
  amount: z.number({ error: amountError }).check(
    z.gt(0, { error: amountError }),
    z.lte(AMOUNT_MAX, { error: amountError }),
    z.refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, { error: amountError }),
  ),
  currency: z
    .string({ error: 'compensation.currency must be an ISO 4217 code such as EUR' })
    .check(z.refine((c) => /^[A-Z]{3}$/.test(c) && isCurrency(c), { error: 'compensation.currency must be an ISO 4217 code such as EUR' })),
  period: z.enum(PAY_PERIODS, { error: `compensation.period must be one of ${PAY_PERIODS.join(', ')}` }),
});
export type Compensation = z.output<typeof Compensation>;

const startDate = z.iso.date({ error: 'start_date must be a date such as 2026-03-01' });
const expiresAt = z.iso.datetime({ offset: true, error: 'expires_at must be an ISO 8601 date-time with Z or an offset' });
const employmentType = z.enum(JOB_TYPES, { error: `employment_type must be one of ${JOB_TYPES.join(', ')}` });

export const CreateOfferBody = z.strictObject({
  compensation: Compensation,
  bonus: z.optional(text('bonus', 500)),
  equity: z.optional(text('equity', 500)),
  start_date: startDate,
  /** After it, the scheduled run sets an offer not yet answered `expired`. */
  expires_at: z.optional(expiresAt),
  employment_type: z.optional(employmentType),
  location: z.optional(text('location', 200)),
  note: z.optional(text('note', OFFER_NOTE_MAX)),
});
export type CreateOfferBody = z.output<typeof CreateOfferBody>;

/** Any of the terms, at least one; null clears an optional one; `compensation` is replaced whole. */
export const UpdateOfferBody = z
  .strictObject({
    compensation: z.optional(Compensation),
    bonus: z.optional(z.nullable(text('bonus', 500))),
    equity: z.optional(z.nullable(text('equity', 500))),
    start_date: z.optional(startDate),
    expires_at: z.optional(z.nullable(expiresAt)),
    employment_type: z.optional(z.nullable(employmentType)),
    location: z.optional(z.nullable(text('location', 200))),
    note: z.optional(z.nullable(text('note', OFFER_NOTE_MAX))),
  })
  .check(
    z.refine((b) => Object.values(b).some((v) => v !== undefined), {
      error: 'body must change at least one of compensation, bonus, equity, start_date, expires_at, employment_type, location, note',
    }),
  );
export type UpdateOfferBody = z.output<typeof UpdateOfferBody>;

export const ChangeOfferStatusBody = z.strictObject({
  status: z.enum(OFFER_STATUSES, { error: `status must be one of ${OFFER_STATUSES.join(', ')}` }),
  /** Required (1 to 500 characters) when the offer becomes declined or rescinded. */
  reason: z.optional(text('reason', REASON_MAX)),
});
export type ChangeOfferStatusBody = z.output<typeof ChangeOfferStatusBody>;

export const CandidateIdParam = IdParam;

// ---- answers -----------------------------------------------------------------------------

/** The amount is null once the candidate was erased. */
const CompensationAnswer = z.object({ amount: z.nullable(z.number()), currency: z.string(), period: z.enum(PAY_PERIODS) });

const termsAnswer = {
  compensation: CompensationAnswer,
  bonus: z.nullable(z.string()),
  equity: z.nullable(z.string()),
  start_date: z.string(),
  expires_at: z.nullable(timestamp),
  employment_type: z.nullable(z.enum(JOB_TYPES)),
  location: z.nullable(z.string()),
  note: z.nullable(z.string()),
};

export const Offer = z.object({
  id: z.uuid(),
  candidate_id: z.uuid(),
  /** The candidate's requisition when the offer was made. */
  req_id: z.nullable(z.uuid()),
  status: z.enum(OFFER_STATUSES),
  /** The current version's number, from 1. */
  version: z.int(),
  ...termsAnswer,
  /** Why it was declined or rescinded. */
  reason: z.nullable(z.string()),
  /** When approval was first asked for: from then on every change of terms makes a new version. */
  requested_at: z.nullable(timestamp),
  /** When approval was last asked for: the chain decides on the decisions made since (a rejected round stays in `approvals`). */
  approval_round_at: z.nullable(timestamp),
  sent_at: z.nullable(timestamp),
  created_at: timestamp,
  updated_at: timestamp,
  /** Only on the offers of an erased candidate: the amounts, bonus, equity, notes and reason are gone. */
  erased_at: z.optional(timestamp),
});
export type Offer = z.infer<typeof Offer>;

/** One version of an offer's terms, as it was made; a version once asked to be approved never changes. */
export const OfferVersion = z.object({ version: z.int(), ...termsAnswer, created_at: timestamp });
export type OfferVersion = z.infer<typeof OfferVersion>;

/** One approver's decision, as the offer lists it (the comment is null once the candidate was erased). */
export const OfferApproval = z.object({
  step: z.int(),
  user_id: z.string(),
  decision: z.enum(['approve', 'reject']),
  /** The offer version decided on: a change of terms asks the chain again. */
  version: z.int(),
  comment: z.nullable(z.string()),
  at: timestamp,
});
export type OfferApproval = z.infer<typeof OfferApproval>;

export const OfferDetail = z.object({
  ...Offer.shape,
  versions: z.array(OfferVersion),
  /** Every approver's decision, in the order they landed, on every version (each names its version). */
  approvals: z.array(OfferApproval),
});
export type OfferDetail = z.infer<typeof OfferDetail>;

export const OfferList = z.object({ data: z.array(Offer) });

// ---- routes ------------------------------------------------------------------------------

export const createOffer = {
  method: 'POST',
  path: '/api/v1/candidates/{id}/offers',
  console: true,
  handler: 'create-offer',
  idempotent: true,
  auth: 'token',
  scope: 'offers:write',
  access: 'write',
  summary: DOCS && 'Draft an offer for a candidate (one open offer per candidate)',
  params: CandidateIdParam,
  body: CreateOfferBody,
  ...(DOCS && {
    errors: {
      409: `The candidate has an open offer (code offer_open); or was erased (code candidate_erased); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
  }),
  status: 201,
  response: dataOf(Offer),
} as const satisfies Route;

export const listOffers = {
  method: 'GET',
  path: '/api/v1/candidates/{id}/offers',
  console: true,
  handler: 'list-offers',
  auth: 'token',
  scope: 'offers:read',
  access: 'read',
  summary: DOCS && "A candidate's offers, newest first (the current version of each)",
  params: CandidateIdParam,
  status: 200,
  response: OfferList,
} as const satisfies Route;

export const getOffer = {
  method: 'GET',
  path: '/api/v1/offers/{id}',
  console: true,
  handler: 'get-offer',
  auth: 'token',
  scope: 'offers:read',
  access: 'read',
  summary: DOCS && 'One offer: its current terms and every version, oldest first',
  params: IdParam,
  status: 200,
  response: dataOf(OfferDetail),
} as const satisfies Route;

export const updateOffer = {
  method: 'PATCH',
  path: '/api/v1/offers/{id}',
  console: true,
  handler: 'update-offer',
  idempotent: true,
  auth: 'token',
  scope: 'offers:write',
  access: 'write',
  summary: DOCS && "Change an offer's terms (a new version once approval was asked for)",
  params: IdParam,
  body: UpdateOfferBody,
  ...(DOCS && {
    errors: {
      409: `The offer was sent or has an outcome (code offer_locked); or the candidate was erased (code candidate_erased); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
  }),
  status: 200,
  response: dataOf(Offer),
} as const satisfies Route;

export const changeOfferStatus = {
  method: 'POST',
  path: '/api/v1/offers/{id}/status',
  console: true,
  handler: 'change-offer-status',
  idempotent: true,
  auth: 'token',
  scope: 'offers:write',
  access: 'write',
  summary: DOCS && "Change an offer's status",
  params: IdParam,
  body: ChangeOfferStatusBody,
  ...(DOCS && {
    errors: {
      409: `Refused by the matrix (code invalid_transition, with allowed); or sending past expires_at (code conflict, field expires_at); or ${IDEM_CONFLICT}`,
      422: IDEM_MISMATCH,
    },
  }),
  status: 200,
  response: dataOf(Offer),
} as const satisfies Route;
