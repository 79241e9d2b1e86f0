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
  /** Overloaded indexes; each access pattern below names the one it uses. */
  indexes: {
    /** Candidates by stage, ordered by the time they entered it; requisitions by status. */
    byStatus: { name: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    /** Candidates by requisition, newest first. */
    byRequisition: { name: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  },
  stream: 'NEW_AND_OLD_IMAGES',
  ttlAttribute: 'expires_at',
} as const;

export type Key = { PK: string; SK: string };

const t = (tenantId: string) => `T#${tenantId}`;

export const keys = {
  tenant: (tenantId: string): Key => ({ PK: t(tenantId), SK: 'TENANT' }),
  /** Counters for the whole tenant: candidates per stage, requisitions per status. */
  stats: (tenantId: string): Key => ({ PK: t(tenantId), SK: 'STATS' }),
  slug: (slug: string): Key => ({ PK: `SLUG#${slug}`, SK: 'SLUG' }),
  token: (digest: string): Key => ({ PK: `TOKEN#${digest}`, SK: 'TOKEN' }),
  tenantToken: (tenantId: string, tokenId: string): Key => ({ PK: t(tenantId), SK: `TOKEN#${tokenId}` }),
  tokenPrefix: 'TOKEN#',
  user: (tenantId: string, userId: string): Key => ({ PK: t(tenantId), SK: `USER#${userId}` }),
  /** Emails are unique across the service; this item points at the user. */
  email: (email: string): Key => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' }),
  /** Failed-login counter per account, keyed by a digest of the email so it exists for unknown ones too. */
  loginFailures: (emailDigest: string): Key => ({ PK: `LOGINFAIL#${emailDigest}`, SK: 'LOGINFAIL' }),
  session: (digest: string): Key => ({ PK: `SESSION#${digest}`, SK: 'SESSION' }),
  requisition: (tenantId: string, id: string): Key => ({ PK: t(tenantId), SK: `REQ#${id}` }),
  candidate: (tenantId: string, id: string): Key => ({ PK: t(tenantId), SK: `CAND#${id}` }),
  candidatePrefix: 'CAND#',
  reqPrefix: 'REQ#',
  tenantPartition: t,
};

/** GSI1: candidates of one stage ordered by stage entry time (oldest first = longest waiting). */
export const stageIndexKey = (tenantId: string, stage: Stage, enteredAt: string, id: string) => ({
  GSI1PK: `${t(tenantId)}#STAGE#${stage}`,
  GSI1SK: `${enteredAt}#${id}`,
});
export const stagePartition = (tenantId: string, stage: Stage) => `${t(tenantId)}#STAGE#${stage}`;

/** GSI1: requisitions of one status, newest first by UUIDv7 id. */
export const reqStatusIndexKey = (tenantId: string, status: ReqStatus, id: string) => ({
  GSI1PK: reqStatusPartition(tenantId, status),
  GSI1SK: id,
});
export const reqStatusPartition = (tenantId: string, status: ReqStatus) =>
  `${t(tenantId)}#REQSTATUS#${status}`;

/** GSI2: candidates of one requisition, newest first by UUIDv7 id. */
export const reqCandidatesIndexKey = (tenantId: string, reqId: string, id: string) => ({
  GSI2PK: reqCandidatesPartition(tenantId, reqId),
  GSI2SK: id,
});
export const reqCandidatesPartition = (tenantId: string, reqId: string) => `${t(tenantId)}#REQ#${reqId}`;

/** Counter attribute names. Top-level numbers so that ADD works on them. */
export const counter = {
  stage: (stage: Stage) => `n_${stage}`,
  reqStatus: (status: ReqStatus) => `r_${status}`,
};
