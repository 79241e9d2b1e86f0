/** Domain vocabulary shared by schemas, store, authorizer and docs (spec sections 3 and 5). */

export const STAGES = [
  'applied',
  'ai_screened',
  'interview_scheduled',
  'interviewed',
  'offer_sent',
  'offer_accepted',
  'onboarding',
  'placed',
  'rejected',
] as const;
export type Stage = (typeof STAGES)[number];

/** The spec's list filter does not accept `rejected`. */
export const LIST_STAGES = STAGES.filter((s) => s !== 'rejected') as Exclude<Stage, 'rejected'>[];

/** Stages that count towards `total_active`: everyone still moving through the pipeline. */
export const ACTIVE_STAGES = STAGES.filter((s) => s !== 'placed' && s !== 'rejected');

export const REQ_STATUSES = ['open', 'on_hold', 'filled', 'draft', 'closed'] as const;
export type ReqStatus = (typeof REQ_STATUSES)[number];

/**
 * The published requisition status matrix: from each status, the statuses a change may go to.
 * Nothing goes back to `draft`; a change to the current status is a no-op, not an entry here.
 */
export const REQ_TRANSITIONS: Readonly<Record<ReqStatus, readonly ReqStatus[]>> = {
  draft: ['open', 'closed'],
  open: ['on_hold', 'filled', 'closed'],
  on_hold: ['open', 'closed'],
  filled: ['open', 'closed'],
  closed: ['open'],
};
/** Statuses a change into needs a `reason` (1 to 500 characters). */
export const REASON_REQUIRED: readonly ReqStatus[] = ['on_hold', 'closed'];
export const REASON_MAX = 500;
/** Statuses a requisition may be created in. */
export const CREATE_STATUSES = ['draft', 'open'] as const;

/**
 * An offer's statuses. The service enforces the order (OFFER_TRANSITIONS); `expired` is set only by
 * the scheduled run once `expires_at` has passed.
 */
export const OFFER_STATUSES = ['draft', 'pending_approval', 'approved', 'sent', 'accepted', 'declined', 'rescinded', 'expired'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
/**
 * The published offer status matrix. Back to `draft` from `pending_approval` withdraws the request
 * (or follows a rejection); the four outcomes are final. A change to the current status is a no-op.
 */
export const OFFER_TRANSITIONS: Readonly<Record<OfferStatus, readonly OfferStatus[]>> = {
  draft: ['pending_approval', 'rescinded'],
  pending_approval: ['approved', 'draft', 'rescinded', 'expired'],
  approved: ['sent', 'rescinded', 'expired'],
  sent: ['accepted', 'declined', 'rescinded', 'expired'],
  accepted: [],
  declined: [],
  rescinded: [],
  expired: [],
};
/** Statuses of an open offer: a candidate has at most one. */
export const OPEN_OFFER_STATUSES: readonly OfferStatus[] = ['draft', 'pending_approval', 'approved', 'sent'];
/** Statuses a change into needs a `reason`. */
export const OFFER_REASON_REQUIRED: readonly OfferStatus[] = ['declined', 'rescinded'];
/** Only the service sets these (the scheduled expiry run). */
export const OFFER_SYSTEM_STATUSES: readonly OfferStatus[] = ['expired'];
/** The period a compensation amount is paid for. */
export const PAY_PERIODS = ['year', 'month', 'hour'] as const;
export type PayPeriod = (typeof PAY_PERIODS)[number];
export const OFFER_NOTE_MAX = 2000;

/** The job types a requisition may have (`job_type`). */
export const JOB_TYPES = ['direct_hire', 'contract', 'contract_to_hire', 'temporary', 'internship'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const MAX_HEADCOUNT = 1000;

export const SCOPES = [
  'candidates:read',
  'candidates:write',
  /** Erase a candidate's personal data everywhere (POST /candidates/{id}/erase); `candidates:write` does not imply it. */
  'candidates:erase',
  'requisitions:read',
  'requisitions:write',
  'pipeline:read',
  'pipeline:write',
  /** Read offers (compensation included) and their versions. */
  'offers:read',
  /** Draft, change and move offers along their statuses. */
  'offers:write',
  /** Read interviews (times, interviewers, location; never a scorecard). */
  'interviews:read',
  /** Schedule, reschedule and cancel interviews. */
  'interviews:write',
  /** Read scorecards, as far as the blind rule lets the token's creator see them. */
  'scorecards:read',
  /** Submit and edit the token creator's own scorecards (a workspace token: any interviewer's). */
  'scorecards:write',
  '*',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The most hiring managers a requisition names: a bounded list, read whole with the requisition.
 */
export const MAX_HIRING_MANAGERS = 10;

/**
 * A workspace user's role: what they may call is the permission table (lib/permissions.ts), what
 * they see is `maySee` (lib/domain/visibility.ts).
 */
export const ROLES = ['admin', 'recruiter', 'hiring_manager', 'interviewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The role users and sessions stored before roles were split hold: it reads as `recruiter` (the
 * codecs), and the API still accepts it as that role's alias, so no stored item is migrated.
 */
export const LEGACY_MEMBER_ROLE = 'member';

/** A stored or given role name as a role: the legacy `member` is a recruiter; anything else, undefined. */
export const roleFrom = (v: unknown): Role | undefined =>
  v === LEGACY_MEMBER_ROLE ? 'recruiter' : (ROLES as readonly unknown[]).includes(v) ? (v as Role) : undefined;

/**
 * Default stuck thresholds in whole days per stage. A candidate is stuck once it has been in
 * its stage for at least this many days. Terminal stages are never stuck. Tenants override
 * these per stage (tenant item `stuck_days`).
 */
export const DEFAULT_STUCK_DAYS: Partial<Record<Stage, number>> = {
  applied: 3,
  ai_screened: 2,
  interview_scheduled: 7,
  interviewed: 5,
  offer_sent: 5,
  offer_accepted: 10,
  onboarding: 14,
};

/** Stages that can have a stuck threshold: the active ones (placed and rejected are never stuck). */
export const STUCK_STAGES = ACTIVE_STAGES;
/** The highest threshold a workspace may set: a year. */
export const MAX_STUCK_DAYS = 365;

/** The scheduled retention run's timeout (the stack's and `npm start`'s): the most a function may run. */
export const RETENTION_TIMEOUT_S = 900;
/**
 * The `kind` of the event the retention function gets every minute (the stack's schedule,
 * `npm start`'s timer): run the erasures' follow-up sweeps that are due, not the rules.
 */
export const ERASURE_FOLLOW_UP_KIND = 'erasure-follow-up';

/**
 * Retention rules (lib/domain/retention.ts): a workspace may erase candidates some days after they
 * were rejected, or after some days without any change. Both off (null) by default; at least a
 * day, at most ten years.
 */
export const RETENTION_RULES = ['rejected_days', 'inactive_days'] as const;
export type RetentionRule = (typeof RETENTION_RULES)[number];
export const MAX_RETENTION_DAYS = 3650;

/**
 * API token lifetimes, in days, until a workspace admin changes them: 90 by default, at most 366
 * (a year and a leap day, as GitHub caps fine-grained tokens). MAX_TOKEN_LIFETIME_DAYS is the
 * ceiling of the workspace's own maximum.
 */
export const DEFAULT_TOKEN_LIFETIME = { default_days: 90, max_days: 366 } as const;
export const MAX_TOKEN_LIFETIME_DAYS = 366;
/** A rotated token's old secret keeps working this long by default, and at most MAX (24 hours). */
export const DEFAULT_ROTATION_GRACE_SECONDS = 3600;
export const MAX_ROTATION_GRACE_SECONDS = 86_400;

/** Kinds of stored items an erasure scrubs, as its receipt counts them (lib/store/erasure.ts). */
export const SCRUBBED_KINDS = [
  'candidate',
  'search_entries',
  'webhook_events',
  'delivery_attempts',
  'placements',
  'idempotency_records',
  'offers',
  'offer_versions',
  'offer_approvals',
] as const;

/** At most this many stuck candidates are returned by GET /pipeline. */
export const STUCK_LIMIT = 50;

/** Deepest `offset` accepted on a list: skipping costs reads, so it is bounded. */
export const MAX_OFFSET = 10_000;

/**
 * Beyond this `offset` a page is a deep page: its skip costs more than one read (about 1,200
 * candidates fill DynamoDB's 1 MB per read), so a caller may run only DEEP_PAGES_AT_ONCE of them
 * at once (lib/store/leases.ts). The cursor reaches any depth in one read per page.
 */
export const DEEP_OFFSET = 1_000;
/** Deep pages one API token or one member may have in flight at once. */
export const DEEP_PAGES_AT_ONCE = 2;

/**
 * The most candidates one person may have. A change to the person's fields rewrites every one of
 * them (and their search entries) in one transaction of at most 100 actions, so the cap is what
 * such a write can hold.
 */
export const MAX_CANDIDATES_PER_PERSON = 20;

/** Event types a webhook endpoint can subscribe to (spec section 6). */
export const EVENT_TYPES = [
  'candidate.created',
  'candidate.stage_changed',
  'candidate.updated',
  'candidate.erased',
  'offer.sent',
  'offer.accepted',
  'placement.created',
  'placement.updated',
  'requisition.created',
  'requisition.updated',
  'requisition.status_changed',
  'import.completed',
  'note.created',
  'file.processed',
  'person.merged',
  'interview.scheduled',
  'interview.updated',
  'interview.cancelled',
  'scorecard.submitted',
  'scorecard.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only by the test operation; not subscribable. */
export const TEST_EVENT = 'webhook.test';
/**
 * Sent by the service to a workspace's other active endpoints when it disables one (410 Gone, or
 * failing too long); not subscribable: every active endpoint gets it.
 */
export const ENDPOINT_DISABLED_EVENT = 'webhook.endpoint_disabled';

// ---- domain shapes the store produces ------------------------------------------------------
// The HTTP schemas (lib/schemas.ts) describe these same shapes for the API and are checked
// against them at compile time there, so the store needs no HTTP schema.

/** The workspace user who made a token: its scopes never exceed what their role may do. */
export interface TokenCreator {
  id: string;
  email: string;
}

/**
 * A personal token acts as its creator and stops when they leave; a workspace token, made by an
 * admin for an integration, belongs to the workspace and survives staff changes.
 */
export const TOKEN_KINDS = ['personal', 'workspace'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** An API token as listed: never the token or its digest. */
export interface TokenListing {
  id: string;
  name: string;
  scopes: Scope[];
  /** Prefix and last four characters. */
  hint: string;
  created_at: string;
  last_used_at: string | null;
  /** Null for a workspace token made before creators were recorded, or with the admin CLI. */
  created_by: TokenCreator | null;
  kind: TokenKind;
  /** Null only for a token made before every token had a lifetime. */
  expires_at: string | null;
}

/** A token just created: the only time its value is shown. */
export interface CreatedToken {
  id: string;
  name: string;
  scopes: Scope[];
  token: string;
  created_at: string;
  kind: TokenKind;
  expires_at: string;
}

export interface Requisition {
  id: string;
  title: string;
  department: string | null;
  location: string | null;
  job_type: string | null;
  status: ReqStatus;
  /** Counts are strings of digits, as the spec delivers them. */
  candidate_count: string;
  offers_pending: string;
  created_at: string;
}

/** A candidate as the store reads it and the API answers it: its declaration's (lib/entities/candidate.ts). */
export type { Candidate } from './entities/candidate';

/** One webhook delivery attempt as recorded: its declaration's (lib/entities/delivery-attempt.ts). */
export type { DeliveryAttempt as DeliveryRecord } from './entities/delivery-attempt';

/** Why a candidate was rejected: the workspace turned them down, or they withdrew. */
export const REJECTION_TYPES = ['we_rejected', 'candidate_withdrew'] as const;
export type RejectionType = (typeof REJECTION_TYPES)[number];
export interface RejectionReason {
  id: string;
  label: string;
  type: RejectionType;
}
/** The reasons a workspace has until it saves its own; the ids are stable (stored on moves). */
export const DEFAULT_REJECTION_REASONS: readonly RejectionReason[] = [
  { id: 'not_qualified', label: 'Lacks the required skills or experience', type: 'we_rejected' },
  { id: 'culture_fit', label: 'Not a fit for the team', type: 'we_rejected' },
  { id: 'salary_expectations', label: 'Salary expectations too high', type: 'we_rejected' },
  { id: 'position_filled', label: 'Position filled by another candidate', type: 'we_rejected' },
  { id: 'no_response', label: 'Did not respond', type: 'we_rejected' },
  { id: 'accepted_other_offer', label: 'Accepted another offer', type: 'candidate_withdrew' },
  { id: 'not_interested', label: 'No longer interested', type: 'candidate_withdrew' },
  { id: 'compensation', label: 'Compensation did not meet expectations', type: 'candidate_withdrew' },
];
export const MAX_REJECTION_REASONS = 50;
export const REJECTION_LABEL_MAX = 80;
export const REJECTION_NOTE_MAX = 2000;

/** The workspace's two-factor policy: nobody must, admins must, or every member must use it. */
export const TWO_FACTOR_POLICIES = ['off', 'admins', 'everyone'] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];
