/**
 * Requisition rules: listing (one index Query for the page, one GetItem for the exact count),
 * creation, one requisition with its status history, field changes and status changes. The
 * matrix, the reason rule and the filled rule are pure functions in requisition-rules.ts.
 */
import { NotFoundError, StaleRequisitionError } from '../errors';
import { newId } from '../ids';
import type {
  ChangeRequisitionStatusBody,
  CreateRequisitionBody,
  ListRequisitionsQuery,
  RequisitionDetail,
  RequisitionFull,
  UpdateRequisitionBody,
} from '../schemas';
import {
  createRequisition as putRequisition,
  getRequisitionWithHistory,
  queryRequisitionsByStatus,
  reqHeadcount,
  reqStageCount,
  reqVersion,
  SYSTEM,
  toRequisition,
  type ReqActor,
  type ReqStatusChange,
  type RequisitionItem,
} from '../store/requisitions';
import { getStats } from '../store/stats';
import { actorOf, auditBy, type AuditBase, type Principal } from './principal';
import { diffFields } from '../store/audit';
import { checkReason } from './requisition-rules';
import { checkedTeam, teamOf } from './requisition-team';
import { maySee, seesAll, viewerOf } from './visibility';
import { visibleRequisitions } from './visible-lists';
import { changeStatus, REQ_AUDIT_FIELDS, updateRequisitionFields } from './requisition-writes';

/** The service itself, for tools that act without a token or a session (the admin CLI). */
export interface SystemPrincipal {
  kind: 'system';
  tenantId: string;
}
export type RequisitionCaller = Principal | SystemPrincipal;

const actorOfCaller = (p: RequisitionCaller): ReqActor => (p.kind === 'system' ? SYSTEM : actorOf(p));

/** The audit record of a requisition change; the admin CLI's changes are the `system` actor's. */
const audited = (p: RequisitionCaller, action: string, id: string): AuditBase =>
  p.kind === 'system'
    ? { action, actor: { type: 'system', id: 'admin-cli' }, target: { type: 'requisition', id } }
    : auditBy(p, action, { type: 'requisition', id });

export interface RequisitionPage {
  /** With headcount and hires, so a list shows how full each requisition is without a read per row. */
  items: RequisitionFull[];
  count: number;
}

export async function listRequisitions(p: Principal, q: ListRequisitionsQuery): Promise<RequisitionPage> {
  const v = viewerOf(p);
  return seesAll(v) ? requisitionPage(p.tenantId, q) : seenRequisitionPage(await visibleRequisitions(p.tenantId, v), q);
}

/** The page of a caller who sees only some requisitions: those of the status asked, counted. */
export function seenRequisitionPage(seen: readonly RequisitionItem[], q: ListRequisitionsQuery): RequisitionPage {
  const ofStatus = seen.filter((r) => r.status === q.status);
  return { items: ofStatus.slice(0, q.limit).map(toRequisitionFull), count: ofStatus.length };
}

/** `counters` lets a caller that reads the STATS item anyway (the overview) share its read. */
export async function requisitionPage(tenantId: string, q: ListRequisitionsQuery, counters = getStats(tenantId)): Promise<RequisitionPage> {
  const [items, stats] = await Promise.all([queryRequisitionsByStatus(tenantId, q.status, q.limit), counters]);
  return { items: items.map(toRequisitionFull), count: stats.reqStatus(q.status) };
}

/** The ETag of a requisition's version: it changes with every field or status change. */
export const etagOf = (item: RequisitionItem) => `"${reqVersion(item)}"`;

/** The version an If-Match names: `*` (or no header) checks nothing; anything unknown matches no version. */
export function versionOfIfMatch(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const m = /^\s*"(\d{1,10})"\s*$/.exec(ifMatch);
  return m ? Number(m[1]) : -1;
}

export function toRequisitionFull(item: RequisitionItem): RequisitionFull {
  const base = toRequisition(item);
  return {
    ...base,
    headcount: reqHeadcount(item),
    hires: reqStageCount(item, 'placed'),
    updated_at: typeof item.updated_at === 'string' ? item.updated_at : base.created_at,
    ...teamOf(item),
  };
}

const toChange = (c: ReqStatusChange) => ({ from: c.from, to: c.to, reason: c.reason, actor: c.actor, at: c.at });

/** Create a requisition: no read, one transaction. The admin CLI calls this too. */
export async function createRequisition(principal: RequisitionCaller, input: CreateRequisitionBody): Promise<RequisitionFull> {
  const fields = {
    title: input.title,
    ...(input.department !== undefined && { department: input.department }),
    ...(input.location !== undefined && { location: input.location }),
    ...(input.job_type !== undefined && { job_type: input.job_type }),
    status: input.status,
    headcount: input.headcount,
    ...withoutNulls(await checkedTeam(principal.tenantId, input)),
  };
  const id = newId();
  const audit = { ...audited(principal, 'requisition.created', id), changes: diffFields(REQ_AUDIT_FIELDS, undefined, fields) };
  const created = await putRequisition(principal.tenantId, { ...fields, actor: actorOfCaller(principal) }, id, audit);
  return { ...created, headcount: input.headcount, hires: 0, updated_at: created.created_at, ...teamOf(fields) };
}

/** A create leaves an unnamed owner out rather than storing null. */
const withoutNulls = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as { [K in keyof T]: Exclude<T[K], null> };

/** One requisition with its status history: one Query over the requisition's sort-key range. */
export async function getRequisition(principal: RequisitionCaller, id: string): Promise<{ requisition: RequisitionDetail; etag: string }> {
  const found = await getRequisitionWithHistory(principal.tenantId, id);
  if (!found || !maySee(viewerOf(principal), { kind: 'requisition', requisition: found.item })) throw new NotFoundError('requisition');
  return { requisition: { ...toRequisitionFull(found.item), status_history: found.history.map(toChange) }, etag: etagOf(found.item) };
}

/** Change fields; `ifMatch` (the If-Match header) must name the current version when given. */
export async function updateRequisition(
  principal: RequisitionCaller,
  id: string,
  input: UpdateRequisitionBody,
  ifMatch?: string,
): Promise<{ requisition: RequisitionFull; etag: string }> {
  const ifVersion = versionOfIfMatch(ifMatch);
  if (ifVersion === -1) throw new StaleRequisitionError();
  const team = await checkedTeam(principal.tenantId, input);
  const { item } = await updateRequisitionFields(
    principal.tenantId,
    id,
    { ...input, ...team },
    {
      ifVersion,
      actor: actorOfCaller(principal),
      audit: audited(principal, 'requisition.updated', id),
    },
  );
  return { requisition: toRequisitionFull(item), etag: etagOf(item) };
}

/**
 * Change the status along the published matrix. The reason is checked before anything is read;
 * `from_status`, the no-op and the matrix are judged on the requisition as it is.
 */
export async function changeRequisitionStatus(
  principal: RequisitionCaller,
  id: string,
  input: ChangeRequisitionStatusBody,
): Promise<{ requisition: RequisitionFull; etag: string }> {
  const reason = checkReason(input.status, input.reason);
  const v = viewerOf(principal);
  const { item } = await changeStatus(principal.tenantId, id, input.status, {
    reason,
    // Decided on the requisition as read: one the caller does not see is the 404 of none.
    visible: (r) => maySee(v, { kind: 'requisition', requisition: r }),
    fromStatus: input.from_status,
    actor: actorOfCaller(principal),
    audit: audited(principal, 'requisition.status_changed', id),
  });
  return { requisition: toRequisitionFull(item), etag: etagOf(item) };
}
