/**
 * Single-table layout. Every tenant record lives under partition `T#<tenantId>`; the only
 * items outside a tenant partition are global lookups whose keys are unguessable or unique
 * (token and session digests, tenant slug, user email, login-failure counters), and they hold
 * nothing but a pointer plus what the authorizers need. The CDK stack, DynamoDB Local setup and tests derive the table from TABLE_DEF.
 */
import type { Stage, ReqStatus } from '../model';

export const TABLE_DEF = {
  partitionKey: 'PK',
  sortKey: 'SK',
  /**
   * Overloaded indexes, keyed by what they serve; each access pattern below names the one it
   * uses. The physical names (GSI1..GSI5) and key attributes stay as deployed whatever the keys
   * here are called: renaming a GSI on a live table deletes it and builds a new one, and the
   * queries that need it fail until the backfill ends.
   */
  indexes: {
    /** Candidates by stage, ordered by the time they entered it; requisitions by status. */
    byStageOrStatus: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    /**
     * Candidates by requisition, newest first; a user's sessions; and, sparse, the items that
     * copied one candidate's personal data before the copy ledger existed (`copyIndexKey`).
     */
    byRequisitionOrUser: { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    /**
     * Sparse: active candidates of stages with a threshold, one partition per tenant, ordered by
     * the time each becomes stuck (stage entry + threshold). One Query answers the stuck list
     * (lib/store/stuck.ts).
     */
    byStuckAt: { name: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    /**
     * Candidates by last change, oldest first (the `updated_after` sync feed); placements by
     * last change, in a partition of their own. Sparse: only candidates and placements carry
     * GSI4PK. GSI4, not GSI3, so a stuck index can take GSI3.
     */
    byChange: { name: 'GSI4', partitionKey: 'GSI4PK', sortKey: 'GSI4SK' },
    /**
     * Sparse: candidates on a requisition, one partition per requisition and stage, newest stage
     * entry first: a board column is one Query however large the requisition.
     */
    byRequisitionStage: { name: 'GSI5', partitionKey: 'GSI5PK', sortKey: 'GSI5SK' },
    /**
     * Sparse: a person's candidates, one partition per person, by candidate id: the person's
     * page (GET /people/{id}) reads the person item and this one Query, whatever they applied to.
     */
    byPerson: { name: 'GSI6', partitionKey: 'GSI6PK', sortKey: 'GSI6SK' },
  },
  stream: 'NEW_AND_OLD_IMAGES',
  ttlAttribute: 'expires_at',
} as const;

export type IndexDef = (typeof TABLE_DEF.indexes)[keyof typeof TABLE_DEF.indexes];

/** An item's entry in an index: its partition and sort key attributes, named as TABLE_DEF names them. */
const indexKey = <I extends IndexDef>(index: I, pk: string, sk: string) =>
  ({ [index.partitionKey]: pk, [index.sortKey]: sk }) as { [A in I['partitionKey'] | I['sortKey']]: string };

/**
 * Where a page of a list ends: the attributes of its Query's LastEvaluatedKey, the partition
 * values they must have for the caller's own list, and the shape of the table sort key of the
 * list's items. List cursors (lib/domain/cursor.ts) carry such a key and are checked against it.
 */
export interface PageKeyShape {
  attrs: readonly string[];
  partitions: Record<string, string>;
  sortKey: RegExp;
}

export type Key = { PK: string; SK: string };

const t = (tenantId: string) => `T#${tenantId}`;
/** The suffix IAM matches on: `T#*#WEBHOOKS`. */
export const WEBHOOK_PARTITION_SUFFIX = '#WEBHOOKS';
/** The suffix of audit partitions, `T#*#AUDIT`, on which IAM denies UpdateItem and DeleteItem. */
export const AUDIT_PARTITION_SUFFIX = '#AUDIT';
/** The suffix of audit intent partitions, `T#*#AUDITQ#<shard>`: not matched by `T#*#AUDIT`. */
export const AUDIT_INTENT_SUFFIX = '#AUDITQ#';
/** Intent partitions per workspace: the request path's audit writes spread over this many partitions. */
export const AUDIT_INTENT_SHARDS = 8;
/**
 * The workspace's counters (candidates per stage and in total, requisitions per status) are
 * spread over this many items: each counted write adds to one chosen at random, and a read sums
 * them all in one BatchGetItem. One item takes about 500 transactional writes a second; four
 * take about 2,000 (docs/architecture.md, "Capacity per workspace").
 */
export const STATS_SHARDS = 4;
const auditIntentPartition = (tenantId: string, shard: string) => `${t(tenantId)}${AUDIT_INTENT_SUFFIX}${shard}`;
/** The suffix of lease partitions, `T#*#LEASES`: the only items the candidate list function writes. */
export const LEASE_PARTITION_SUFFIX = '#LEASES';
/** Every attribute a lease item has (lib/store/leases.ts): all IAM lets its writers put there. */
export const LEASE_ATTRIBUTES = ['PK', 'SK', 'type', 'lease_id', 'held_until', TABLE_DEF.ttlAttribute];
/** The application limits' counters (lib/store/application-limits.ts): `APPLYLIMIT#<tenant>#...`. */
export const APPLY_LIMIT_PREFIX = 'APPLYLIMIT#';
/** Every attribute a counter has: all IAM lets its writer set. */
export const APPLY_LIMIT_ATTRIBUTES = ['PK', 'SK', 'n', TABLE_DEF.ttlAttribute];
const loginFailPartition = (emailDigest: string) => `LOGINFAIL#${emailDigest}`;
const webhookPartition = (tenantId: string) => `${t(tenantId)}${WEBHOOK_PARTITION_SUFFIX}`;
/** The tenant of a webhook partition key (`T#<tenant>#WEBHOOKS`); undefined for any other key. */
export const tenantOfWebhookPartition = (pk: string) =>
  pk.startsWith('T#') && pk.endsWith(WEBHOOK_PARTITION_SUFFIX) ? pk.slice(2, -WEBHOOK_PARTITION_SUFFIX.length) : undefined;
const ERASURE_FOLLOW_UPS = 'ERASURE_FOLLOW_UP';
const SCREENING_REJECTIONS_DUE = 'SCREENING_REJECTION_DUE';
/**
 * An upload's record (lib/store/files.ts), alone in its partition `T#<tenant>#UPLOAD#<upload>` so
 * IAM can name it (`T#*#UPLOAD#*`): the file worker records what it found in an upload there and
 * reaches nothing else of the workspace. Outside `keys`, so only the functions that use it bundle it.
 */
export const uploadKey = (tenantId: string, uploadId: string): Key => ({ PK: `${t(tenantId)}#UPLOAD#${uploadId}`, SK: 'UPLOAD' });
const personPartition = (tenantId: string, personId: string) => `${t(tenantId)}#PERSON#${personId}`;
const PERSON_GUARD_PREFIX = 'GUARD#REQ#';

export const keys = {
  tenant: (tenantId: string): Key => ({ PK: t(tenantId), SK: 'TENANT' }),
  /**
   * The tenant's STATS item: its settings (stuck thresholds, retention, rejection reasons) and the
   * first of its counter shards (statsShard).
   */
  stats: (tenantId: string): Key => ({ PK: t(tenantId), SK: 'STATS' }),
  /**
   * Counter shard `k` of STATS_SHARDS: shard 0 is the STATS item, each other one an item alone in
   * its partition, so a workspace's counted writes spread over that many partitions.
   */
  statsShard: (tenantId: string, k: number): Key =>
    k === 0 ? { PK: t(tenantId), SK: 'STATS' } : { PK: `${t(tenantId)}#STATS#${k}`, SK: 'STATS' },
  slug: (slug: string): Key => ({ PK: `SLUG#${slug}`, SK: 'SLUG' }),
  token: (digest: string): Key => ({ PK: `TOKEN#${digest}`, SK: 'TOKEN' }),
  tenantToken: (tenantId: string, tokenId: string): Key => ({ PK: t(tenantId), SK: `TOKEN#${tokenId}` }),
  tokenPrefix: 'TOKEN#',
  user: (tenantId: string, userId: string): Key => ({ PK: t(tenantId), SK: `USER#${userId}` }),
  userPrefix: 'USER#',
  /** Emails are unique across the service; this item points at the user. */
  email: (email: string): Key => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' }),
  /**
   * Failed-login counter per account and client address, keyed by digests of both so it exists
   * for unknown emails too; one partition per account, so an admin can clear them all.
   */
  loginFailures: (emailDigest: string, addressDigest: string): Key => ({
    PK: loginFailPartition(emailDigest),
    SK: `ADDR#${addressDigest}`,
  }),
  loginFailPartition: (emailDigest: string) => loginFailPartition(emailDigest),
  session: (digest: string): Key => ({ PK: `SESSION#${digest}`, SK: 'SESSION' }),
  requisition: (tenantId: string, id: string): Key => ({ PK: t(tenantId), SK: `REQ#${id}` }),
  /**
   * A requisition's status changes, one immutable item each, right after the requisition in
   * sort order and numbered by the version the change made, so one Query reads the requisition
   * with its history and a change can never be recorded twice.
   */
  reqStatusChange: (tenantId: string, reqId: string, version: number): Key => ({
    PK: t(tenantId),
    SK: `REQ#${reqId}#H#${String(version).padStart(10, '0')}`,
  }),
  /** The requisition item and its status changes. */
  reqWithHistoryPrefix: (reqId: string) => `REQ#${reqId}`,
  candidate: (tenantId: string, id: string): Key => ({ PK: t(tenantId), SK: `CAND#${id}` }),
  /** A placement record, written in the same transaction as the move to `placed`. */
  placement: (tenantId: string, id: string): Key => ({ PK: t(tenantId), SK: `PLACEMENT#${id}` }),
  /** An offer (lib/store/offers.ts): its current terms and status. */
  offer: (tenantId: string, id: string): Key => ({ PK: t(tenantId), SK: `OFFER#${id}` }),
  /** One version of an offer's terms, right after the offer in sort order: one Query reads both. */
  offerVersion: (tenantId: string, offerId: string, version: number): Key => ({
    PK: t(tenantId),
    SK: `OFFER#${offerId}#V#${String(version).padStart(10, '0')}`,
  }),
  /** The offer item and its versions. */
  offerWithVersionsPrefix: (offerId: string) => `OFFER#${offerId}`,
  /**
   * A candidate's one open offer: put with the offer, deleted when it closes, so a second open
   * offer fails its condition in the same transaction.
   */
  openOffer: (tenantId: string, candidateId: string): Key => ({ PK: t(tenantId), SK: `OPENOFFER#${candidateId}` }),
  /** A requisition's interview plan (lib/store/interview-plans.ts): one document, apart from `REQ#<id>`'s range. */
  interviewPlan: (tenantId: string, reqId: string): Key => ({ PK: t(tenantId), SK: `IPLAN#${reqId}` }),
  /** An interview (lib/store/interviews.ts): its times, interviewers and status. */
  interview: (tenantId: string, id: string): Key => ({ PK: t(tenantId), SK: `IV#${id}` }),
  /** One change of an interview, numbered by the sequence it made: the source of its events. */
  interviewChange: (tenantId: string, id: string, sequence: number): Key => ({
    PK: t(tenantId),
    SK: `IV#${id}#C#${String(sequence).padStart(6, '0')}`,
  }),
  /**
   * An interviewer's bookings: one item per scheduled interview they are on, sorted by start time,
   * a copy of the interview. Their list is one Query, and a conflict check one Query of a range.
   */
  interviewerPartition: (tenantId: string, userId: string) => `${t(tenantId)}#IVR#${userId}`,
  booking: (tenantId: string, userId: string, start: string, interviewId: string): Key => ({
    PK: `${t(tenantId)}#IVR#${userId}`,
    SK: `${start}#${interviewId}`,
  }),
  /** The mark that an application's confirmation was sent (lib/store/confirmations.ts): ids only, gone by TTL. */
  confirmationSent: (tenantId: string, candidateId: string): Key => ({ PK: t(tenantId), SK: `APPMAIL#${candidateId}` }),
  /** Who was sent the calendar invitation of one change of an interview (member ids, `candidate`): a retry sends the rest. */
  invitationsSent: (tenantId: string, id: string, sequence: number): Key => ({
    PK: t(tenantId),
    SK: `IVMAIL#${id}#${String(sequence).padStart(6, '0')}`,
  }),
  /** A calendar's event id (by digest), claimed by the interview it made: the create's idempotency. */
  externalEvent: (tenantId: string, digest: string): Key => ({ PK: t(tenantId), SK: `IVEXT#${digest}` }),
  /**
   * Webhook endpoints and their delivery attempts live in the tenant's own webhook partition,
   * so that IAM can let the delivery function write there (dynamodb:LeadingKeys) and nowhere else.
   */
  webhook: (tenantId: string, id: string): Key => ({ PK: webhookPartition(tenantId), SK: `WH#${id}` }),
  webhookPrefix: 'WH#',
  /**
   * The workspace's webhook counters (`counter.activeEndpoints`). In the webhook partition, not on
   * STATS, because the delivery function disables endpoints and may write nowhere else.
   */
  webhookCounts: (tenantId: string): Key => ({ PK: webhookPartition(tenantId), SK: 'COUNTS' }),
  attempt: (tenantId: string, webhookId: string, attemptId: string): Key => ({
    PK: webhookPartition(tenantId),
    SK: `ATT#${webhookId}#${attemptId}`,
  }),
  attemptPrefix: (webhookId: string) => `ATT#${webhookId}#`,
  /**
   * An event's exact body, kept longer than its attempts (32 days) so resend and replay work after
   * the retries are exhausted. One item per event and tenant, shared by all its endpoints.
   */
  event: (tenantId: string, eventId: string): Key => ({ PK: webhookPartition(tenantId), SK: `EVT#${eventId}` }),
  /** The endpoint's latest replay job: one item, so "one running job per endpoint" is one condition. */
  replay: (tenantId: string, webhookId: string): Key => ({ PK: webhookPartition(tenantId), SK: `REPLAY#${webhookId}` }),
  replayPrefix: 'REPLAY#',
  webhookPartition: (tenantId: string) => webhookPartition(tenantId),
  candidatePrefix: 'CAND#',
  /**
   * A candidate's stage moves, one immutable item each, oldest first by sort key. Not under
   * `CAND#`, so candidate listings never see them.
   */
  stageMove: (tenantId: string, candidateId: string, at: string, moveId: string): Key => ({
    PK: t(tenantId),
    SK: `HIST#${candidateId}#${at}#${moveId}`,
  }),
  stageMovePrefix: (candidateId: string) => `HIST#${candidateId}#`,
  tenantPartition: t,
  /**
   * The workspace audit log (lib/store/audit.ts): its own partition, so that IAM can deny every
   * function but the audit consumer PutItem there, and every function UpdateItem and DeleteItem
   * (dynamodb:LeadingKeys `T#*#AUDIT`).
   */
  auditPartition: (tenantId: string) => `${t(tenantId)}${AUDIT_PARTITION_SUFFIX}`,
  auditRecord: (tenantId: string, sk: string): Key => ({ PK: `${t(tenantId)}${AUDIT_PARTITION_SUFFIX}`, SK: sk }),
  /**
   * An audit intent (lib/store/audit.ts): the records of one change, put in the change's own
   * transaction into one of AUDIT_INTENT_SHARDS partitions chosen at random, so a workspace's
   * changes are not capped by one partition's write capacity. The stream consumer expands it.
   */
  auditIntent: (tenantId: string, shard: string, id: string): Key => ({ PK: auditIntentPartition(tenantId, shard), SK: id }),
  /**
   * A candidate was erased (or is being erased: the marker comes first): a marker in the webhook
   * partition, so the delivery function (which may read nowhere else) drops queued deliveries of
   * the candidate's events, and every write of a copy of its data checks it in the same
   * transaction (lib/store/copies.ts). No personal data; it outlives every kept event body
   * (ERASED_MARKER_TTL_S).
   */
  erasedMarker: (tenantId: string, candidateId: string): Key => ({ PK: webhookPartition(tenantId), SK: `ERASED#${candidateId}` }),
  erasedMarkerPrefix: 'ERASED#',
  /**
   * The copy ledger (lib/store/copies.ts): one item per write that made copies of a candidate's
   * personal data, listing their keys, written in that write's own transaction, so erasure lists
   * every copy with one consistent Query. In the webhook partition, the one partition the delivery
   * function and the fan-out may write; no personal data (keys only).
   */
  copyLedger: (tenantId: string, candidateId: string, entryId: string): Key => ({
    PK: webhookPartition(tenantId),
    SK: `COPY#${candidateId}#${entryId}`,
  }),
  copyLedgerPrefix: (candidateId: string) => `COPY#${candidateId}#`,
  /**
   * An erasure's follow-up sweep, due once the longest write in flight at the erasure has ended
   * (lib/store/erasure.ts). Global, ordered by when it is due, so the scheduled run finds every
   * due one with one Query; ids only.
   */
  erasureFollowUp: (tenantId: string, candidateId: string, dueAt: string): Key => ({
    PK: ERASURE_FOLLOW_UPS,
    SK: `${dueAt}#${tenantId}#${candidateId}`,
  }),
  erasureFollowUpPartition: () => ERASURE_FOLLOW_UPS,
  /**
   * A screening's rejection, due when its delay has passed (lib/store/screening.ts): written in
   * the candidate's own create transaction, global and ordered by due time so the scheduled run
   * finds every due one with one Query; ids only.
   */
  screeningRejection: (tenantId: string, candidateId: string, dueAt: string): Key => ({
    PK: SCREENING_REJECTIONS_DUE,
    SK: `${dueAt}#${tenantId}#${candidateId}`,
  }),
  screeningRejectionPartition: () => SCREENING_REJECTIONS_DUE,
  /** Idempotency-Key records (lib/store/idempotency.ts): the tenant's own partition, never shared. */
  idempotencyPartition: (tenantId: string) => `${t(tenantId)}#IDEM`,
  /**
   * One slot of a caller's costly requests in flight (lib/store/leases.ts), `holder` naming the
   * token or member. A partition of its own, so IAM lets the candidate list write there and
   * nowhere else (dynamodb:LeadingKeys `T#*#LEASES`).
   */
  lease: (tenantId: string, holder: string, slot: number): Key => ({
    PK: `${t(tenantId)}${LEASE_PARTITION_SUFFIX}`,
    SK: `${holder}#${slot}`,
  }),
  leasePartition: (tenantId: string) => `${t(tenantId)}${LEASE_PARTITION_SUFFIX}`,
  /**
   * Everything that belongs to one person (lib/store/people.ts) lives in one partition: the
   * person item (`PERSON`), and under their own sort-key prefixes the duplicate guards
   * (`GUARD#`), notes, activity and files. Erasing the person deletes the whole partition.
   */
  personPartition: (tenantId: string, personId: string) => personPartition(tenantId, personId),
  person: (tenantId: string, personId: string): Key => ({ PK: personPartition(tenantId, personId), SK: 'PERSON' }),
  /**
   * The duplicate guard: one item per requisition a person is a candidate on (`none` for a
   * candidate without one), naming the candidate, put if absent in the create's transaction.
   */
  personGuard: (tenantId: string, personId: string, reqId: string | undefined): Key => ({
    PK: personPartition(tenantId, personId),
    SK: `${PERSON_GUARD_PREFIX}${reqId ?? 'none'}`,
  }),
  personGuardPrefix: PERSON_GUARD_PREFIX,
  /**
   * An email's claim: which person of the workspace owns it. Keyed by a digest of the email as
   * matched (case and accent blind), so no address is written in a key; one partition per email,
   * so claims never share a partition's write capacity.
   */
  emailClaim: (tenantId: string, emailDigest: string): Key => ({ PK: `${t(tenantId)}#EMAIL#${emailDigest}`, SK: 'CLAIM' }),
};

/** GSI1: candidates of one stage ordered by stage entry time (oldest first = longest waiting). */
export const stageIndexKey = (tenantId: string, stage: Stage, enteredAt: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byStageOrStatus, stagePartition(tenantId, stage), `${enteredAt}#${id}`);
export const stagePartition = (tenantId: string, stage: Stage) => `${t(tenantId)}#STAGE#${stage}`;

/** GSI3: where a candidate sits in its tenant's stuck index; `stuckAt` = stage entry + threshold. */
export const stuckIndexKey = (tenantId: string, stuckAt: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byStuckAt, stuckPartition(tenantId), `${stuckAt}#${id}`);
export const stuckPartition = (tenantId: string) => `${t(tenantId)}#STUCK`;

/** `stuck_job` on the STATS item while the stuck index lags the thresholds (lib/store/stuck.ts). */
export const STUCK_JOB_PENDING = 'pending';
/** The stuck re-index function's timeout (seconds), as deployed and as the local runtime enforces it. */
export const REINDEX_TIMEOUT_S = 60;

/**
 * Sparse: an audit record's actor, target and action views (lib/store/audit.ts, audit-query.ts),
 * one entry each on an index other items use, under partition values no other item has
 * (`T#<tenant>#AUDIT#A#<actor id>`, `#O#<target id>`, `#X#<action>`), sorted `<at>#<id>`.
 */
export const AUDIT_VIEW_INDEXES = {
  actor: TABLE_DEF.indexes.byStageOrStatus,
  target: TABLE_DEF.indexes.byRequisitionOrUser,
  action: TABLE_DEF.indexes.byRequisitionStage,
} as const;
export type AuditIndexedView = keyof typeof AUDIT_VIEW_INDEXES;
const AUDIT_VIEW_TAGS: Record<AuditIndexedView, string> = { actor: 'A', target: 'O', action: 'X' };
export const auditViewPartition = (tenantId: string, view: AuditIndexedView, value: string) =>
  `${t(tenantId)}${AUDIT_PARTITION_SUFFIX}#${AUDIT_VIEW_TAGS[view]}#${value}`;
export const auditViewIndexKey = (tenantId: string, view: AuditIndexedView, value: string, at: string, id: string) =>
  indexKey(AUDIT_VIEW_INDEXES[view], auditViewPartition(tenantId, view, value), `${at}#${id}`);

/** GSI1: requisitions of one status, newest first by UUIDv7 id. */
export const reqStatusIndexKey = (tenantId: string, status: ReqStatus, id: string) =>
  indexKey(TABLE_DEF.indexes.byStageOrStatus, reqStatusPartition(tenantId, status), id);
export const reqStatusPartition = (tenantId: string, status: ReqStatus) => `${t(tenantId)}#REQSTATUS#${status}`;

/** GSI2: candidates of one requisition, newest first by UUIDv7 id. */
export const reqCandidatesIndexKey = (tenantId: string, reqId: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byRequisitionOrUser, reqCandidatesPartition(tenantId, reqId), id);
export const reqCandidatesPartition = (tenantId: string, reqId: string) => `${t(tenantId)}#REQ#${reqId}`;

/** GSI2: a candidate's offers, oldest first by UUIDv7 id (the offer items only, not their versions). */
export const candidateOffersIndexKey = (tenantId: string, candidateId: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byRequisitionOrUser, candidateOffersPartition(tenantId, candidateId), id);
export const candidateOffersPartition = (tenantId: string, candidateId: string) => `${t(tenantId)}#OFFERS#${candidateId}`;

/** GSI5: a requisition's candidates in one stage, by the time they entered it. */
export const reqStageIndexKey = (tenantId: string, reqId: string, stage: Stage, enteredAt: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byRequisitionStage, reqStagePartition(tenantId, reqId, stage), `${enteredAt}#${id}`);
export const reqStagePartition = (tenantId: string, reqId: string, stage: Stage) => `${t(tenantId)}#REQ#${reqId}#STAGE#${stage}`;

/** GSI2: a user's sessions, so that removing the user or resetting a password ends them all. */
export const userSessionsIndexKey = (tenantId: string, userId: string, createdAt: string) =>
  indexKey(TABLE_DEF.indexes.byRequisitionOrUser, userSessionsPartition(tenantId, userId), createdAt);
export const userSessionsPartition = (tenantId: string, userId: string) => `${t(tenantId)}#SESSIONS#${userId}`;

/**
 * GSI2, sparse: items that copied a candidate's personal data (a kept webhook body, a delivery
 * attempt, a placement, an idempotency record) before the copy ledger (`keys.copyLedger`) carry
 * this key; no write sets it now, and every erasure sweep also Queries it (lib/store/scrub.ts).
 * An index is read eventually consistently, so it can never be the only way to a recent copy.
 * The partition prefix `COPIES#` cannot meet a requisition's or a user's.
 */
export const copyIndexKey = (tenantId: string, candidateId: string, sk: string) =>
  indexKey(TABLE_DEF.indexes.byRequisitionOrUser, copiesPartition(tenantId, candidateId), sk);
export const copiesPartition = (tenantId: string, candidateId: string) => `${t(tenantId)}#COPIES#${candidateId}`;

/** GSI4: a tenant's candidates ordered by `updated_at` (ties by id); every write to a candidate moves it. */
export const changeIndexKey = (tenantId: string, updatedAt: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byChange, changesPartition(tenantId), `${updatedAt}#${id}`);
export const changesPartition = (tenantId: string) => `${t(tenantId)}#CHANGES`;

/** GSI6: a person's candidates, by candidate id (only candidates of a person carry it). */
export const personCandidatesIndexKey = (tenantId: string, personId: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byPerson, personCandidatesPartition(tenantId, personId), id);
export const personCandidatesPartition = (tenantId: string, personId: string) => `${t(tenantId)}#P#${personId}`;

/** Counter attribute names. Top-level numbers so that ADD works on them. */
export const counter = {
  stage: (stage: Stage) => `n_${stage}`,
  reqStatus: (status: ReqStatus) => `r_${status}`,
  /** A requisition's offers in `sent` (its `offers_pending`), changed with the offer's status. */
  offersSent: 'o_sent',
  /** Active webhook endpoints, on the `keys.webhookCounts` item. */
  activeEndpoints: 'active_endpoints',
};

/**
 * GSI4, sparse: a tenant's placements ordered by `updated_at` (ties by id), one partition apart
 * from the candidates' feed: GET /placements (and its `updated_after`) is one Query per page.
 */
export const placementChangeIndexKey = (tenantId: string, updatedAt: string, id: string) =>
  indexKey(TABLE_DEF.indexes.byChange, placementChangesPartition(tenantId), `${updatedAt}#${id}`);
export const placementChangesPartition = (tenantId: string) => `${t(tenantId)}#PLACEMENTS`;
