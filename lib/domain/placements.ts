/**
 * The placement routes: the list (a sync feed by last change, filtered by requisition or status)
 * and one placement. Roles are the route table's (lib/permissions.ts); a token needs offers:read,
 * since a placement holds the accepted offer's compensation. A hiring manager reads the
 * placements of the requisitions whose team names them now (lib/domain/visibility.ts); another
 * is the 404 a record of another workspace is.
 */
import type { ListPlacementsQuery, Placement } from '../api/placements';
import { NotFoundError } from '../errors';
import { getPlacementItem, placementPageKey, queryPlacements } from '../store/placements';
import { getRequisition } from '../store/requisitions';
import { decodeCursor, encodeCursor } from './cursor';
import type { Principal } from './principal';
import { maySee, seesAll, viewerOf } from './visibility';
import { seenRequisition, visibleRequisitions } from './visible-lists';

type Item = Record<string, unknown>;

const orNull = <T>(v: unknown) => (v ?? null) as T | null;

/** A placement item as the API answers it. */
export function toPlacement(p: Item): Placement {
  return {
    id: String(p.id),
    candidate_id: String(p.candidate_id),
    candidate_name: typeof p.candidate_name === 'string' ? p.candidate_name : '',
    person_id: orNull(p.person_id),
    req_id: orNull(p.req_id),
    req_title: orNull(p.req_title),
    status: (p.status as Placement['status'] | undefined) ?? 'active',
    offer_id: orNull(p.offer_id),
    offer_version: orNull(p.offer_version),
    start_date: orNull(p.start_date),
    end_date: orNull(p.end_date),
    compensation: typeof p.currency === 'string' ? { amount: orNull(p.amount), currency: p.currency, period: p.period as 'year' } : null,
    employment_type: orNull(p.employment_type),
    location: orNull(p.location),
    recruiter_id: orNull(p.recruiter_id),
    hiring_manager_ids: Array.isArray(p.hiring_manager_ids) ? (p.hiring_manager_ids as string[]) : [],
    source: orNull(p.source),
    hired_at: String(p.placed_at),
    cancelled_at: orNull(p.cancelled_at),
    cancel_reason: orNull(p.cancel_reason),
    created_at: String(p.created_at),
    updated_at: String(p.updated_at ?? p.created_at),
    ...(typeof p.erased_at === 'string' && { erased_at: p.erased_at }),
  };
}

/** One page: one Query of the placements' index, whatever the filters. */
export async function listPlacements(p: Principal, q: ListPlacementsQuery): Promise<{ items: Placement[]; next_cursor: string | null }> {
  // Stored times are toISOString() values: compare in that form, whatever offset was given.
  const since = q.updated_after !== undefined ? new Date(q.updated_after).toISOString() : undefined;
  const scope = {
    tenantId: p.tenantId,
    filters: JSON.stringify(['placements', since ?? null, q.req_id ?? null, q.status ?? null]),
    key: placementPageKey(p.tenantId),
  };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  const reqIds = await readableRequisitions(p, q.req_id);
  if (reqIds?.length === 0) return { items: [], next_cursor: null };
  const { items, lastKey } = await queryPlacements(p.tenantId, { since, reqId: q.req_id, reqIds, status: q.status }, q.limit, startKey);
  return { items: items.map(toPlacement), next_cursor: lastKey ? encodeCursor(scope, lastKey) : null };
}

/**
 * The requisitions whose placements the caller reads: undefined for every one (admins and
 * recruiters); a hiring manager's team requisitions (the one asked for, a 404 when not theirs).
 */
async function readableRequisitions(p: Principal, reqId: string | undefined): Promise<string[] | undefined> {
  const v = viewerOf(p);
  if (seesAll(v)) return undefined;
  if (reqId !== undefined) return [(await seenRequisition(p.tenantId, v, reqId, 'req_id')).id];
  return (await visibleRequisitions(p.tenantId, v)).map((r) => r.id);
}

export async function getPlacement(p: Principal, id: string): Promise<Placement> {
  const item = await getPlacementItem(p.tenantId, id);
  if (!item || !(await mayRead(p, item))) throw new NotFoundError('placement');
  return toPlacement(item);
}

async function mayRead(p: Principal, item: Item): Promise<boolean> {
  const v = viewerOf(p);
  if (seesAll(v)) return true;
  const r = typeof item.req_id === 'string' ? await getRequisition(p.tenantId, item.req_id) : undefined;
  return r !== undefined && maySee(v, { kind: 'requisition', requisition: r });
}
