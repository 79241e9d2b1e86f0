/**
 * Request and response schemas. They validate input, type the handlers and feed the OpenAPI
 * document (lib/openapi.ts); nothing is described twice. zod/mini keeps Lambda bundles small.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { PASSWORD_MAX, PASSWORD_MIN } from './auth/password';
import { ERROR_CODES } from './errors';
import {
  CREATE_STATUSES,
  EVENT_TYPES,
  JOB_TYPES,
  LIST_STAGES,
  MAX_HEADCOUNT,
  MAX_OFFSET,
  MAX_RETENTION_DAYS,
  MAX_STUCK_DAYS,
  RETENTION_RULES,
  type RetentionRule,
  SCRUBBED_KINDS,
  REASON_MAX,
  REQ_STATUSES,
  ROLES,
  SCOPES,
  STAGES,
  STUCK_STAGES,
} from './model';
import type * as model from './model';

// Only the English messages: the full locale set would add ~280 KB to every bundle.
z.config(en());

/**
 * An integer query parameter: digits only, then the bounds. A bare coercion took `1e2`, `0x10`,
 * ` 5 ` and an empty value (as 0) for numbers.
 */
const intParam = (name: string, min: number, max: number) => {
  const error = `${name} must be an integer between ${min} and ${max}`;
  return z.pipe(
    z.string({ error }).check(z.regex(/^\d+$/, { error })),
    z.coerce.number<string>({ error }).check(z.int({ error }), z.gte(min, { error }), z.lte(max, { error })),
  );
};

const uuid = (name: string) => z.uuid({ error: `${name} must be a UUID` });

// ---- requests ----------------------------------------------------------------------------

export const ListCandidatesQuery = z.strictObject({
  stage: z.optional(z.enum(LIST_STAGES, { error: `stage must be one of ${LIST_STAGES.join(', ')}` })),
  req_id: z.optional(uuid('req_id')),
  limit: z._default(intParam('limit', 1, 200), 50),
  offset: z._default(intParam('offset', 0, MAX_OFFSET), 0),
  /** Opaque: the `next_cursor` of the previous page, with the same filters. */
  cursor: z.optional(
    z
      .string({ error: 'cursor must be a string' })
      .check(z.minLength(1, { error: 'cursor must not be empty' }), z.maxLength(2048, { error: 'cursor must be at most 2048 characters' })),
  ),
  /**
   * Search: candidates with a word of the name, or the email, starting with each word of `q`
   * (case and accents ignored), in matched word then id order. Pages with cursor, not offset;
   * not with updated_after. `count` is then the page's length.
   */
  q: z.optional(
    z.string({ error: 'q must be a string' }).check(
      z.trim(),
      z.minLength(1, { error: 'q must not be empty' }),
      z.maxLength(100, { error: 'q must be at most 100 characters' }),
      z.refine((s) => /[\p{L}\p{N}]/u.test(s), { error: 'q must contain a letter or a digit' }),
    ),
  ),
  /**
   * ISO 8601 date-time with Z or an offset: only candidates created or changed at or after it,
   * oldest change first (a sync feed). Not with stage, req_id or offset; page with cursor.
   */
  updated_after: z.optional(
    z.iso.datetime({
      offset: true,
      error: 'updated_after must be an ISO 8601 date-time with Z or an offset, such as 2026-01-31T09:00:00Z',
    }),
  ),
});
export type ListCandidatesQuery = z.output<typeof ListCandidatesQuery>;

const stageEnum = z.enum(STAGES, { error: `stage must be one of ${STAGES.join(', ')}` });
/**
 * Something a person can see: a character that is neither white space, nor default-ignorable
 * (zero-width space and joiners, BOM, word joiner, bidi controls, variation selectors, Hangul
 * fillers, tags), nor a control character, nor the blank braille pattern.
 */
const VISIBLE = /[^\s\p{Default_Ignorable_Code_Point}\p{Cc}\u2800]/u;
const hasVisible = (s: string) => VISIBLE.test(s);

/**
 * What human text may not hold: control characters (NUL, CR, LF, escapes...) and lone surrogates
 * (no valid UTF-8 stands for them), and the bidirectional embeddings, overrides and isolates
 * (U+202A-U+202E, U+2066-U+2069), which make text read in another order than it is stored
 * ("Trojan Source"). Right-to-left names need none of them; the marks (U+200E, U+200F) stay allowed.
 */
const plainText = (name: string) => [
  z.regex(/^[^\p{Cc}\p{Cs}]*$/u, { error: `${name} must not contain control characters` }),
  z.regex(/^[^\u202A-\u202E\u2066-\u2069]*$/, { error: `${name} must not contain bidirectional control characters` }),
];

/** Human text (names): trimmed, bounded, and not made only of characters nobody can see. */
const text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .check(
      z.trim(),
      z.minLength(1, { error: `${name} must not be empty` }),
      z.maxLength(max, { error: `${name} must be at most ${max} characters` }),
      ...plainText(name),
      z.refine(hasVisible, { error: `${name} must contain a visible character` }),
    );

const candidateEmail = z
  .email({ error: 'email must be an email address' })
  .check(z.maxLength(254, { error: 'email must be at most 254 characters' }));
const candidatePhone = z.string({ error: 'phone must be a string' }).check(
  z.trim(),
  z.regex(/^\+?[0-9 ().\-/]{3,40}$/, {
    error: 'phone must be 3 to 40 digits, spaces or + ( ) . - /',
  }),
);
const resumeUrl = z
  .url({ protocol: /^https?$/, error: 'resume_url must be an http(s) URL' })
  .check(z.maxLength(2048, { error: 'resume_url must be at most 2048 characters' }));

export const CreateCandidateBody = z.strictObject({
  name: text('name', 200),
  email: z.optional(candidateEmail),
  phone: z.optional(candidatePhone),
  resume_url: z.optional(resumeUrl),
  req_id: z.optional(uuid('req_id')),
  stage: z._default(stageEnum, 'applied'),
});
export type CreateCandidateBody = z.output<typeof CreateCandidateBody>;

export const ListRequisitionsQuery = z.strictObject({
  status: z._default(z.enum(REQ_STATUSES, { error: `status must be one of ${REQ_STATUSES.join(', ')}` }), 'open'),
  limit: z._default(intParam('limit', 1, 200), 50),
});
export type ListRequisitionsQuery = z.output<typeof ListRequisitionsQuery>;

/**
 * A profile change: any of the fields, at least one. `null` clears an optional field (and
 * `req_id: null` takes the candidate off its requisition). Stage changes go through POST /pipeline.
 */
export const UpdateCandidateBody = z
  .strictObject({
    name: z.optional(text('name', 200)),
    email: z.optional(z.nullable(candidateEmail)),
    phone: z.optional(z.nullable(candidatePhone)),
    resume_url: z.optional(z.nullable(resumeUrl)),
    req_id: z.optional(z.nullable(uuid('req_id'))),
  })
  .check(
    z.refine((b) => Object.values(b).some((v) => v !== undefined), {
      error: 'body must change at least one of name, email, phone, resume_url, req_id',
    }),
  );
export type UpdateCandidateBody = z.output<typeof UpdateCandidateBody>;

export const ChangeStageBody = z.strictObject({
  candidate_id: uuid('candidate_id'),
  stage: stageEnum,
  /** The stage the caller believes the candidate is in: a stale belief is a 409, not a move. */
  from_stage: z.optional(z.enum(STAGES, { error: `from_stage must be one of ${STAGES.join(', ')}` })),
});
export type ChangeStageBody = z.output<typeof ChangeStageBody>;

export const EmptyQuery = z.strictObject({});

// ---- requisitions (writes) -----------------------------------------------------------------

const jobType = z.enum(JOB_TYPES, { error: `job_type must be one of ${JOB_TYPES.join(', ')}` });
const headcountError = `headcount must be a whole number between 1 and ${MAX_HEADCOUNT}`;
const headcount = z
  .number({ error: headcountError })
  .check(z.int({ error: headcountError }), z.gte(1, { error: headcountError }), z.lte(MAX_HEADCOUNT, { error: headcountError }));

export const CreateRequisitionBody = z.strictObject({
  title: text('title', 200),
  department: z.optional(text('department', 200)),
  location: z.optional(text('location', 200)),
  job_type: z.optional(jobType),
  headcount: z._default(headcount, 1),
  /** A requisition starts open (taking candidates) or as a draft. */
  status: z._default(z.enum(CREATE_STATUSES, { error: `status must be one of ${CREATE_STATUSES.join(', ')}` }), 'open'),
});
export type CreateRequisitionBody = z.output<typeof CreateRequisitionBody>;

/** Any of the fields, at least one; `null` clears department, location or job_type. Status changes go through /status. */
export const UpdateRequisitionBody = z
  .strictObject({
    title: z.optional(text('title', 200)),
    department: z.optional(z.nullable(text('department', 200))),
    location: z.optional(z.nullable(text('location', 200))),
    job_type: z.optional(z.nullable(jobType)),
    headcount: z.optional(headcount),
  })
  .check(
    z.refine((b) => Object.values(b).some((v) => v !== undefined), {
      error: 'body must change at least one of title, department, location, job_type, headcount',
    }),
  );
export type UpdateRequisitionBody = z.output<typeof UpdateRequisitionBody>;

const reqStatusEnum = (name: string) => z.enum(REQ_STATUSES, { error: `${name} must be one of ${REQ_STATUSES.join(', ')}` });

export const ChangeRequisitionStatusBody = z.strictObject({
  status: reqStatusEnum('status'),
  /** Required (1 to 500 characters) when the status becomes on_hold or closed; kept in the history. */
  reason: z.optional(text('reason', REASON_MAX)),
  /** The status the caller believes the requisition is in: a stale belief is a 409, not a change. */
  from_status: z.optional(reqStatusEnum('from_status')),
});
export type ChangeRequisitionStatusBody = z.output<typeof ChangeRequisitionStatusBody>;

// ---- responses ---------------------------------------------------------------------------

const timestamp = z.iso.datetime();

const erasedName = z.string().check(z.meta({ description: 'Empty once erased (erased_at).' }));
const erasedOptional = z.nullable(z.string()).check(z.meta({ description: 'Null once erased (erased_at).' }));

export const Candidate = z.object({
  id: z.uuid(),
  name: erasedName,
  email: erasedOptional,
  phone: erasedOptional,
  stage: z.enum(STAGES),
  resume_url: erasedOptional,
  req_title: z.nullable(z.string()),
  req_id: z.nullable(z.uuid()),
  created_at: timestamp,
  updated_at: timestamp,
  /** When the candidate entered its current stage (its creation, until it first moves). */
  stage_entered_at: timestamp,
  /** Only on an erased candidate: when its personal data was erased; name is then empty and email, phone and resume_url null. */
  erased_at: z.optional(timestamp),
});
export type Candidate = z.infer<typeof Candidate>;

/**
 * Who made a change: the API token (its id, and its name) or the workspace user (their id, and
 * their email). Records made before names were kept have the id alone.
 */
export const Actor = z.object({
  type: z.enum(['token', 'user']),
  id: z.string(),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
});
export type Actor = z.infer<typeof Actor>;

/**
 * One stay in a stage, oldest first (like Greenhouse v3 `application_stages`). The first stay
 * starts when the candidate was created; `actor` and `from_stage` are null for it.
 */
export const StageStay = z.object({
  stage: z.enum(STAGES),
  from_stage: z.nullable(z.enum(STAGES)),
  entered_at: timestamp,
  /** Null for the current stage. */
  exited_at: z.nullable(timestamp),
  actor: z.nullable(Actor),
});
export type StageStay = z.infer<typeof StageStay>;

/** One candidate: the list shape plus its stage history. */
export const CandidateDetail = z.object({ ...Candidate.shape, stage_history: z.array(StageStay) });
export type CandidateDetail = z.infer<typeof CandidateDetail>;

/** What create answers: the candidate as listed, without updated_at. */
export const CreatedCandidate = z.omit(Candidate, { updated_at: true });
export type CreatedCandidate = z.infer<typeof CreatedCandidate>;

export const StageChange = z.object({
  id: z.uuid(),
  name: z.string(),
  stage: z.enum(STAGES),
  updated_at: timestamp,
});
export type StageChange = z.infer<typeof StageChange>;

/** How many stored items of each kind an erasure scrubbed (lib/store/erasure.ts SCRUBBED_KINDS). */
export const ScrubCounts = z.object(
  Object.fromEntries(SCRUBBED_KINDS.map((k) => [k, z.int()])) as Record<(typeof SCRUBBED_KINDS)[number], z.ZodMiniInt>,
);

/** The answer to an erasure; a later call answers it with what its sweep found added to the counts. */
export const ErasureReceipt = z.object({
  id: z.uuid(),
  erased_at: timestamp,
  scrubbed: ScrubCounts,
});
export type ErasureReceipt = z.infer<typeof ErasureReceipt>;

const digits = z.string().check(z.regex(/^\d+$/));

export const Requisition = z.object({
  id: z.uuid(),
  title: z.string(),
  department: z.nullable(z.string()),
  location: z.nullable(z.string()),
  job_type: z.nullable(z.string()),
  status: z.enum(REQ_STATUSES),
  candidate_count: digits,
  offers_pending: digits,
  created_at: timestamp,
});
export type Requisition = z.infer<typeof Requisition>;

/** Who changed a requisition: a token (id, name), a user (id, email), or `system` (an automatic filled). */
export const ReqActor = z.object({
  type: z.enum(['token', 'user', 'system']),
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  email: z.optional(z.string()),
});

/** One requisition status change, oldest first; the first is the creation (`from` null). */
export const ReqStatusChange = z.object({
  from: z.nullable(z.enum(REQ_STATUSES)),
  to: z.enum(REQ_STATUSES),
  reason: z.nullable(z.string()),
  actor: ReqActor,
  at: timestamp,
});

/** A requisition as the write routes answer it: the list shape plus headcount, hires and updated_at. */
export const RequisitionFull = z.object({
  ...Requisition.shape,
  /** Null for requisitions made before headcounts existed (no limit, never filled by itself). */
  headcount: z.nullable(z.int()),
  /** Candidates of this requisition in `placed`. */
  hires: z.int(),
  updated_at: timestamp,
});
export type RequisitionFull = z.infer<typeof RequisitionFull>;
export const RequisitionDetail = z.object({ ...RequisitionFull.shape, status_history: z.array(ReqStatusChange) });
export type RequisitionDetail = z.infer<typeof RequisitionDetail>;

export const StuckCandidate = z.object({
  id: z.uuid(),
  name: z.string(),
  stage: z.enum(STAGES),
  days_in_stage: z.int(),
  req_title: z.nullable(z.string()),
});
export type StuckCandidate = z.infer<typeof StuckCandidate>;

export const PipelineSummary = z.object({
  // An object with one property per stage (not a record keyed by an enum): its JSON Schema then
  // defines every property it requires.
  stage_counts: z.object(Object.fromEntries(STAGES.map((st) => [st, z.int()])) as Record<(typeof STAGES)[number], z.ZodMiniInt>),
  total_active: z.int(),
  stuck_candidates: z.array(StuckCandidate),
});
export type PipelineSummary = z.infer<typeof PipelineSummary>;

/**
 * Every refusal: `error` is a sentence for people; `code` is for programs (always sent by this
 * API; optional in the schema because the spec's bodies are `{ error }` alone); `field` names the
 * one input at fault, as the client wrote it (`name`, `scopes[0]`).
 */
export const ErrorBody = z.object({
  error: z.string(),
  code: z.optional(z.enum(ERROR_CODES)),
  field: z.optional(z.string()),
  /** Only with code `invalid_transition`: the statuses the requisition may change to from its current one. */
  allowed: z.optional(z.array(z.enum(REQ_STATUSES))),
});

export const CandidateList = z.object({
  data: z.array(Candidate),
  count: z.int(),
  offset: z.int(),
  limit: z.int(),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.nullable(z.string()),
});
export const RequisitionList = z.object({ data: z.array(RequisitionFull), count: z.int() });
export const dataOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });

// ---- workspace identity (session routes) --------------------------------------------------

export const LoginBody = z.strictObject({
  email: z
    .string({ error: 'email must be a string' })
    .check(
      z.trim(),
      z.minLength(3, { error: 'email must be an email address' }),
      z.maxLength(254, { error: 'email must be at most 254 characters' }),
    ),
  password: z
    .string({ error: 'password must be a string' })
    .check(z.minLength(1, { error: 'password must not be empty' }), z.maxLength(256, { error: 'password must be at most 256 characters' })),
});
export type LoginBody = z.output<typeof LoginBody>;

export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;
export const SessionInfo = z.object({
  user: z.object({
    id: z.uuid(),
    email: z.string(),
    role: Role,
    /** Set after an admin created the user or reset the password: the console asks for a new one first. */
    must_change_password: z.boolean(),
  }),
  tenant: z.object({ slug: z.string(), name: z.string() }),
});

// The message names the array; the boundary says which element (`scopes[1] must be one of …`).
const scopeEnum = z.enum(SCOPES, { error: `scopes must be one of ${SCOPES.join(', ')}` });
export const CreateTokenBody = z.strictObject({
  name: text('name', 100),
  scopes: z
    .array(scopeEnum, { error: 'scopes must be an array of scopes' })
    .check(
      z.minLength(1, { error: 'scopes must name at least one scope' }),
      z.maxLength(SCOPES.length, { error: `scopes must name at most ${SCOPES.length} scopes` }),
    ),
});
export type CreateTokenBody = z.output<typeof CreateTokenBody>;

export const CreatedToken = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  token: z.string(),
  created_at: timestamp,
});

/** The workspace user who made a token (their id and email). */
export const TokenCreator = z.object({ id: z.string(), email: z.string() });

export const TokenListing = z.object({
  ...z.pick(CreatedToken, { id: true, name: true, scopes: true, created_at: true }).shape,
  /** Prefix and last four characters; never the token or its digest. */
  hint: z.string(),
  last_used_at: z.nullable(timestamp),
  /** Null for a workspace token: made before creators were recorded, or with the admin CLI. */
  created_by: z.nullable(TokenCreator),
});

export const IdParam = z.strictObject({ id: uuid('id') });
export const Success = z.object({ success: z.boolean() });

// ---- webhook management (session routes) --------------------------------------------------

const webhookUrl = z.url({ protocol: /^https$/, error: 'url must be an https:// URL' }).check(
  z.maxLength(2048, { error: 'url must be at most 2048 characters' }),
  z.refine(
    (u) => {
      const url = URL.parse(u);
      return !url?.username && !url?.password;
    },
    { error: 'url must not contain credentials' },
  ),
);
const eventTypes = z
  .array(z.enum(EVENT_TYPES, { error: `events must be one of ${EVENT_TYPES.join(', ')}` }), {
    error: 'events must be an array of event types',
  })
  .check(z.minLength(1, { error: 'events must name at least one event type (omit it for all)' }));
const description = z.string({ error: 'description must be a string' }).check(
  z.maxLength(500, { error: 'description must be at most 500 characters' }),
  // The names' rule: one line of text that reads as it is stored.
  ...plainText('description'),
  // Empty clears it; something non-empty must be something a person can read.
  z.refine((d) => d === '' || hasVisible(d), { error: 'description must contain a visible character (or be empty)' }),
);

export const CreateWebhookBody = z.strictObject({
  url: webhookUrl,
  events: z.optional(eventTypes),
  description: z.optional(description),
});
export type CreateWebhookBody = z.output<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z.strictObject({
  url: z.optional(webhookUrl),
  events: z.optional(eventTypes),
  active: z.optional(z.boolean({ error: 'active must be true or false' })),
  description: z.optional(description),
});
export type UpdateWebhookBody = z.output<typeof UpdateWebhookBody>;

/** `deleted` is a soft delete (disabled_reason "deleted"); `disabled` covers the user and the service. */
export const WEBHOOK_STATUSES = ['active', 'disabled', 'deleted'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const ListWebhooksQuery = z.strictObject({
  status: z.optional(z.enum(WEBHOOK_STATUSES, { error: `status must be one of ${WEBHOOK_STATUSES.join(', ')}` })),
});
export type ListWebhooksQuery = z.output<typeof ListWebhooksQuery>;

const WebhookEndpoint = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  active: z.boolean(),
  description: z.nullable(z.string()),
  last_triggered_at: z.nullable(timestamp),
  failure_count: z.int(),
  created_at: timestamp,
  /** Why the service disabled it (410 Gone, failing for 5 days), if it did; "deleted" once deleted. */
  disabled_reason: z.nullable(z.string()),
  status: z.enum(WEBHOOK_STATUSES),
});
export const WebhookList = z.object({ data: z.array(WebhookEndpoint) });

export const CreatedWebhook = z.object({
  success: z.boolean(),
  webhook: z.object({
    ...z.pick(WebhookEndpoint, { id: true, url: true, events: true, active: true, created_at: true }).shape,
    secret: z.string(),
  }),
});

export const DeliveryRecord = z.object({
  id: z.uuid(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.int(),
  response_status: z.int(),
  success: z.boolean(),
  duration_ms: z.int(),
  created_at: timestamp,
  error: z.nullable(z.string()),
  response_body: z.nullable(z.string()),
  next_attempt_at: z.nullable(timestamp),
  dead_lettered: z.boolean(),
  /** Why the attempt failed, as a category (ERROR_CATEGORIES); null on success. */
  error_category: z.nullable(z.string()),
});

export const WebhookDetail = z.object({
  webhook: z.omit(WebhookEndpoint, { created_at: true }),
  deliveries: z.array(DeliveryRecord),
});

export const UpdatedWebhook = z.object({ success: z.boolean(), webhook: z.object({ id: z.uuid(), active: z.boolean() }) });

/**
 * Why a delivery attempt failed. The same strings appear in the delivery log (`error_category`)
 * and in the test operation's result (`error`).
 */
export const ERROR_CATEGORIES = ['timeout', 'dns', 'tls', 'connection', 'blocked', 'redirect', 'http_status'] as const;
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];

/** Still answered beside its snake_case name for one release; clients should read the new one. */
const deprecatedAlias = <T extends z.ZodMiniType>(schema: T, name: string) =>
  schema.check(z.meta({ deprecated: true, description: `Deprecated: use ${name}. Answered for one more release.` }));

export const WebhookTestResult = z.object({
  success: z.boolean(),
  status: z.int(),
  duration_ms: z.int(),
  response_body: z.string(),
  /** The failure category, null on success. */
  error: z.nullable(z.enum(ERROR_CATEGORIES)),
  /** A secret-free sentence about the failure, null on success. */
  error_message: z.nullable(z.string()),
  durationMs: deprecatedAlias(z.int(), 'duration_ms'),
  responseBody: deprecatedAlias(z.string(), 'response_body'),
  errorMessage: deprecatedAlias(z.nullable(z.string()), 'error_message'),
});

const EVENT_FILTER = /^[a-z]+(\.[a-z_]+)+$/;
export const ListDeliveriesQuery = z.strictObject({
  cursor: z.optional(z.string({ error: 'cursor must be a string' }).check(z.maxLength(512, { error: 'cursor is not valid' }))),
  limit: z._default(intParam('limit', 1, 100), 20),
  status: z.optional(z.enum(['failed', 'succeeded'], { error: 'status must be one of failed, succeeded' })),
  event_type: z.optional(
    z
      .string({ error: 'event_type must be a string' })
      .check(
        z.maxLength(64, { error: 'event_type must be an event type such as candidate.created' }),
        z.regex(EVENT_FILTER, { error: 'event_type must be an event type such as candidate.created' }),
      ),
  ),
});
export type ListDeliveriesQuery = z.output<typeof ListDeliveriesQuery>;

export const DeliveryPage = z.object({ data: z.array(DeliveryRecord), next_cursor: z.nullable(z.string()) });

/** Event ids as deliveries carry them in `webhook-id`. */
export const EVENT_ID = /^evt_[0-9a-f]{32}$/;
export const ResendBody = z.strictObject({
  event_id: z
    .string({ error: 'event_id must be a string' })
    .check(z.regex(EVENT_ID, { error: 'event_id must be an event id (evt_ and 32 hex digits)' })),
  /**
   * Resend an event of a type the endpoint is no longer subscribed to (otherwise 409
   * `event_not_subscribed`).
   */
  force: z.optional(z.boolean({ error: 'force must be true or false' })),
});
export type ResendBody = z.output<typeof ResendBody>;
export const ResendResult = z.object({ success: z.boolean(), event_id: z.string() });

/** Replay looks back at most this far (Svix's recover window). */
export const MAX_REPLAY_DAYS = 14;
export const ReplayBody = z.strictObject({
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date-time, such as 2026-01-31T09:00:00Z' }),
});
export type ReplayBody = z.output<typeof ReplayBody>;

export const REPLAY_STATUSES = ['running', 'done', 'failed'] as const;
export const ReplayJob = z.object({
  id: z.uuid(),
  since: timestamp,
  status: z.enum(REPLAY_STATUSES),
  /** Deliveries queued so far. */
  queued: z.int(),
  /** Queued deliveries the receiver accepted. */
  sent: z.int(),
  /** Queued deliveries not finished yet (neither accepted nor given up). */
  remaining: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type ReplayJob = z.infer<typeof ReplayJob>;

/** The grace window of a rotation: default 24 h, at most 7 days. */
export const DEFAULT_GRACE_S = 86_400;
export const MAX_GRACE_S = 7 * 86_400;
export const RotateSecretBody = z.strictObject({
  grace_seconds: z.optional(
    z
      .int({ error: `grace_seconds must be an integer between 0 and ${MAX_GRACE_S}` })
      .check(
        z.gte(0, { error: `grace_seconds must be an integer between 0 and ${MAX_GRACE_S}` }),
        z.lte(MAX_GRACE_S, { error: `grace_seconds must be an integer between 0 and ${MAX_GRACE_S}` }),
      ),
  ),
});
export type RotateSecretBody = z.output<typeof RotateSecretBody>;
export const RotatedSecret = z.object({
  success: z.boolean(),
  webhook: z.object({ id: z.uuid(), secret: z.string(), previous_secret_expires_at: z.nullable(timestamp) }),
});

// ---- the workspace console (session routes) ------------------------------------------------

/** Length is what makes a password hard to guess (NIST SP 800-63B); no composition rules. */
const newPassword = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .check(
      z.minLength(PASSWORD_MIN, { error: `${name} must be at least ${PASSWORD_MIN} characters` }),
      z.maxLength(PASSWORD_MAX, { error: `${name} must be at most ${PASSWORD_MAX} characters` }),
    );

export const ChangePasswordBody = z.strictObject({
  current_password: z
    .string({ error: 'current_password must be a string' })
    .check(
      z.minLength(1, { error: 'current_password must not be empty' }),
      z.maxLength(256, { error: 'current_password must be at most 256 characters' }),
    ),
  new_password: newPassword('new_password'),
});
export type ChangePasswordBody = z.output<typeof ChangePasswordBody>;

const roleField = z.enum(['admin', 'member'], { error: 'role must be admin or member' });

export const Member = z.object({
  id: z.uuid(),
  email: z.string(),
  role: Role,
  created_at: timestamp,
  must_change_password: z.boolean(),
});
export type Member = z.infer<typeof Member>;

export const AddMemberBody = z.strictObject({
  email: z.email({ error: 'email must be an email address' }).check(z.maxLength(254, { error: 'email must be at most 254 characters' })),
  role: roleField,
});
export type AddMemberBody = z.output<typeof AddMemberBody>;
export const AddedMember = dataOf(z.object({ member: Member, temporary_password: z.string() }));

export const ChangeRoleBody = z.strictObject({ role: roleField });
export const TemporaryPassword = dataOf(z.object({ temporary_password: z.string() }));
export const LockoutCleared = z.object({ success: z.boolean(), cleared: z.int() });

const stuckDaysValue = (stage: string) =>
  z
    .number({ error: `stuck_days.${stage} must be a whole number of days` })
    .check(
      z.int({ error: `stuck_days.${stage} must be a whole number of days` }),
      z.gte(0, { error: `stuck_days.${stage} must be between 0 and ${MAX_STUCK_DAYS}` }),
      z.lte(MAX_STUCK_DAYS, { error: `stuck_days.${stage} must be between 0 and ${MAX_STUCK_DAYS}` }),
    );
const stuckDaysShape = Object.fromEntries(STUCK_STAGES.map((st) => [st, z.optional(stuckDaysValue(st))])) as {
  [K in (typeof STUCK_STAGES)[number]]: z.ZodMiniOptional<ReturnType<typeof stuckDaysValue>>;
};

const retentionError = `retention days must be null or 1 to ${MAX_RETENTION_DAYS}`;
const retentionDays = z.optional(
  z.nullable(
    z
      .number({ error: retentionError })
      .check(z.int({ error: retentionError }), z.gte(1, { error: retentionError }), z.lte(MAX_RETENTION_DAYS, { error: retentionError })),
  ),
);

export const PipelineSettingsBody = z.strictObject({
  /** Stages left out go back to their default; 0 turns a stage's alert off. */
  stuck_days: z.strictObject(stuckDaysShape, { error: 'stuck_days must be an object of stage: days' }),
  /**
   * Retention rules: erase candidates `rejected_days` after they were rejected, or after
   * `inactive_days` without any change; null is off. Left out, the rules stay as they are.
   */
  retention: z.optional(z.strictObject({ rejected_days: retentionDays, inactive_days: retentionDays })),
});
export type PipelineSettingsBody = z.output<typeof PipelineSettingsBody>;

const stuckDaysMap = z.object(
  Object.fromEntries(STUCK_STAGES.map((st) => [st, z.int()])) as Record<(typeof STUCK_STAGES)[number], z.ZodMiniInt>,
);
/** The retention rules in force: days, or null when the rule is off (the default). */
const perRule = <T extends z.ZodMiniType>(t: T) =>
  z.object(Object.fromEntries(RETENTION_RULES.map((r) => [r, t])) as Record<RetentionRule, T>);
export const RetentionSettings = perRule(z.nullable(z.int()));

/**
 * Rules to preview before saving them (the console's dry run): with either, the answer adds
 * `retention_preview`; a rule left out is off.
 */
export const PipelineSettingsQuery = z.strictObject({
  preview_rejected_days: z.optional(intParam('preview_rejected_days', 1, MAX_RETENTION_DAYS)),
  preview_inactive_days: z.optional(intParam('preview_inactive_days', 1, MAX_RETENTION_DAYS)),
});
export type PipelineSettingsQuery = z.output<typeof PipelineSettingsQuery>;

/** How many candidates the next run would erase under each rule (a candidate matched by both counts once, under rejected_days). */
export const RetentionPreview = z.object({
  ...perRule(z.int()).shape,
  total: z.int(),
  /** A rule matched more than the preview counts: the numbers are lower bounds. */
  capped: z.boolean(),
});
export type RetentionPreview = z.infer<typeof RetentionPreview>;
export const PipelineSettings = dataOf(
  z.object({
    stuck_days: stuckDaysMap,
    defaults: stuckDaysMap,
    retention: RetentionSettings,
    /** Only when the request asked for a preview (preview_rejected_days, preview_inactive_days). */
    retention_preview: z.optional(RetentionPreview),
  }),
);
export type PipelineSettings = z.infer<typeof PipelineSettings>['data'];
/**
 * PUT's answer: the thresholds in force, and the retention rules when the request set them (the
 * save is one transaction with its audit record, which answers no item; GET has the rules).
 */
export const PipelineSettingsSaved = dataOf(
  z.object({ stuck_days: stuckDaysMap, defaults: stuckDaysMap, retention: z.optional(RetentionSettings) }),
);
export type PipelineSettingsSaved = z.infer<typeof PipelineSettingsSaved>['data'];

export const Overview = dataOf(
  z.object({
    pipeline: PipelineSummary,
    /** Open requisitions, newest first, at most 50. */
    requisitions: z.array(RequisitionFull),
    open_requisitions: z.int(),
  }),
);

// ---- the domain shapes (lib/model.ts) and their schemas agree -----------------------------
// The store builds these shapes without the schemas; a field added to one side only fails tsc here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<z.infer<typeof TokenListing>, model.TokenListing>;
true satisfies Same<z.infer<typeof CreatedToken>, model.CreatedToken>;
true satisfies Same<Requisition, model.Requisition>;
true satisfies Same<Candidate, model.Candidate>;
true satisfies Same<z.infer<typeof DeliveryRecord>, model.DeliveryRecord>;
true satisfies Same<Role, model.Role>;

// ---- audit log ------------------------------------------------------------------------------

const auditTime = (name: string) => z.optional(z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 date-time` }));
const auditId = (name: string) =>
  z.optional(z.string({ error: `${name} must be an id` }).check(z.regex(/^[\w.:-]{1,128}$/, { error: `${name} must be an id` })));

/** GET /api/audit: each filter narrows the list; time bounds are inclusive. */
export const AuditQuery = z.strictObject({
  actor: auditId('actor'),
  action: z.optional(
    z
      .string({ error: 'action must be a string' })
      .check(z.regex(/^[a-z_]{1,32}\.[a-z_]{1,48}$/, { error: 'action must be an action name' })),
  ),
  target: auditId('target'),
  from: auditTime('from'),
  to: auditTime('to'),
  cursor: z.optional(z.string({ error: 'cursor must be a string' }).check(z.maxLength(1024, { error: 'cursor is not valid' }))),
  limit: z._default(intParam('limit', 1, 100), 50),
});
export type AuditQuery = z.output<typeof AuditQuery>;

/** A changed field: personal fields by name alone; others with their values before and after. */
const AuditChange = z.object({ field: z.string(), before: z.optional(z.unknown()), after: z.optional(z.unknown()) });

export const AuditRecord = z.object({
  id: z.uuid(),
  at: timestamp,
  action: z.string(),
  actor: z.object({
    type: z.enum(['user', 'token', 'system']),
    id: z.string(),
    email: z.optional(z.string()),
    name: z.optional(z.string()),
    /** A token's creator; absent for workspace tokens and records made before creators were kept. */
    created_by: z.optional(TokenCreator),
  }),
  target: z.object({ type: z.string(), id: z.string() }),
  ip: z.nullable(z.string()),
  user_agent: z.nullable(z.string()),
  request_id: z.nullable(z.string()),
  changes: z.array(AuditChange),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

export const AuditPage = z.object({ data: z.array(AuditRecord), next_cursor: z.nullable(z.string()) });

// ---- bulk import -------------------------------------------------------------------------

export const IMPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const ImportQuery = z.strictObject({
  /** `true`: check every row and write nothing. */
  dry_run: z.optional(z.enum(['true', 'false'], { error: 'dry_run must be true or false' })),
});
export type ImportQuery = z.output<typeof ImportQuery>;

export const ImportErrorsQuery = z.strictObject({
  cursor: ListDeliveriesQuery.shape.cursor,
  limit: z._default(intParam('limit', 1, 500), 100),
});
export type ImportErrorsQuery = z.output<typeof ImportErrorsQuery>;

const importFormat = z.enum(['csv', 'ndjson']);
/** `total`: rows in the file; `skipped`: duplicates (an email already in the workspace or in an earlier row). */
const ImportCounts = z.object({ total: z.int(), created: z.int(), skipped: z.int(), failed: z.int() });

export const ImportJob = z.object({
  id: z.uuid(),
  /**
   * Always false here, true on a dry run's answer. Typed as a literal only in the OpenAPI
   * document (lib/openapi.ts): z.literal would add its zod code to every function's bundle.
   */
  dry_run: z.boolean(),
  status: z.enum(IMPORT_STATUSES),
  format: importFormat,
  counts: ImportCounts,
  /** Rows done so far (created, skipped or failed): processed / counts.total is the progress. */
  processed: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
  completed_at: z.nullable(timestamp),
});
export type ImportJob = z.output<typeof ImportJob>;

/** A row not imported: its number in the file, `failed` or `skipped` (a duplicate), the column at fault, a code and a sentence. */
export const ImportRowError = z.object({
  row: z.int(),
  outcome: z.enum(['failed', 'skipped']),
  field: z.nullable(z.string()),
  code: z.string(),
  error: z.string(),
});
export type ImportRowError = z.output<typeof ImportRowError>;

export const DRY_RUN_ERRORS = 100;
/** A dry run: the counts (`created`: would be created) and the first 100 row errors; nothing is written. */
export const ImportDryRun = z.object({
  /** Always true (see ImportJob). */
  dry_run: z.boolean(),
  format: importFormat,
  counts: ImportCounts,
  errors: z.array(ImportRowError),
  /** More row errors than `errors` holds. */
  errors_truncated: z.boolean(),
});
export type ImportDryRun = z.output<typeof ImportDryRun>;

/**
 * POST /candidates/imports answers a job or a dry run's result: typed as that union for the
 * handler. Only the OpenAPI document reads the schema, and it has its own z.union (lib/openapi.ts
 * RESPONSES), so that no function bundles z.union's code for it.
 */
export const ImportAnswer = ImportJob as unknown as z.ZodMiniType<ImportJob | ImportDryRun>;

export const ImportErrorPage = z.object({ data: z.array(ImportRowError), next_cursor: DeliveryPage.shape.next_cursor });
