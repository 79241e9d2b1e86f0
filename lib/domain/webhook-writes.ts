/**
 * Webhook endpoint writes: the active-endpoint cap and the endpoint's own state decided here, in
 * the read-decide-write loop (retry.ts), over the store's named parts (endpoint, count, audit;
 * lib/store/webhook-endpoints.ts). The count's condition holds the cap exact under races; its
 * refusal is the cap, answered as a 409.
 */
import { ConflictError, NotFoundError } from '../errors';
import type { AuditEntry } from '../store/audit';
import {
  endpointFromItem,
  getEndpoint,
  MAX_ACTIVE_ENDPOINTS,
  markDeleted,
  newEndpoint,
  rotateSecret,
  updateEndpoint,
  writeNewEndpoint,
  type Endpoint,
} from '../store/webhook-endpoints';
import { decideAndWrite, type Decision } from './retry';

const BUSY = 'webhook endpoints are being changed concurrently; try again';

/** The cap: a write that switches an endpoint on is refused once the workspace has MAX_ACTIVE_ENDPOINTS. */
export const activeCapReached = () => new ConflictError(`a workspace can have at most ${MAX_ACTIVE_ENDPOINTS} active webhook endpoints`);

/** What an endpoint write decides on: the endpoint as read, and whether the count refused it. */
export interface EndpointState {
  endpoint: Endpoint | undefined;
  capped?: boolean;
}

/** A change to an endpoint: refused when it is gone or deleted, or when it switches one on at the cap. */
export function decideEndpointChange(state: EndpointState, changes: { active?: boolean }): Decision<Endpoint, never> {
  const e = state.endpoint;
  if (!e) return { refuse: new NotFoundError('webhook') };
  if (e.deleted_at || e.disabled_reason === 'deleted')
    return { refuse: new ConflictError('webhook was deleted; create a new endpoint instead') };
  if (state.capped && changes.active === true && !e.active) return { refuse: activeCapReached() };
  return { write: e };
}

/** Create an active endpoint; the cap is a 409. */
export function putEndpoint(
  tenantId: string,
  e: Pick<Endpoint, 'url' | 'secret' | 'events' | 'description'>,
  audit?: (id: string) => AuditEntry,
): Promise<Endpoint> {
  const endpoint = newEndpoint(tenantId, e);
  const entry = audit?.(endpoint.id);
  return decideAndWrite({
    state: { endpoint, capped: false } as EndpointState,
    decide: (s): Decision<Endpoint, Endpoint> => (s.capped ? { refuse: activeCapReached() } : { write: endpoint }),
    write: async (plan) => ({ outcome: await writeNewEndpoint(tenantId, plan, entry), result: plan }),
    again: (s, lost) => {
      if ('conflict' in lost) return s;
      if (lost.refused === 'count') return { ...s, capped: true };
      // A fresh UUIDv7 is never taken; if it were, this is no request's fault.
      throw new Error('webhook endpoint id already in use');
    },
    busy: BUSY,
  });
}

/**
 * Apply changes to an endpoint: read, decide, write on condition that it is still as read; when
 * it changed in between, decide again on what it is now (whether the write switches it on or
 * off, and so counts towards the cap, depends on what it was).
 */
export function changeEndpoint(
  tenantId: string,
  first: Endpoint,
  changes: Parameters<typeof updateEndpoint>[2],
  auditOf: (before: Endpoint) => AuditEntry,
): Promise<{ before: Endpoint; e: Endpoint }> {
  return decideAndWrite({
    state: { endpoint: first } as EndpointState,
    decide: (s) => decideEndpointChange(s, changes),
    write: async (before) => {
      const { outcome, endpoint } = await updateEndpoint(tenantId, before, changes, auditOf(before));
      return { outcome, result: { before, e: endpoint } };
    },
    again: async (s, lost) => {
      if ('conflict' in lost) return s;
      if (lost.refused === 'count') return { ...s, capped: true };
      return { endpoint: await getEndpoint(tenantId, first.id) };
    },
    busy: BUSY,
  });
}

/** Soft delete (lib/store/webhook-endpoints.ts markDeleted); a missing endpoint is a 404. */
export function deleteEndpoint(tenantId: string, id: string, audit?: AuditEntry): Promise<void> {
  return decideAndWrite<{ active: boolean } | undefined, boolean, void, string>({
    // Unread: most deletes are of an active endpoint, and a refusal shows the item.
    state: { active: true },
    decide: (s) => (s ? { write: s.active } : { refuse: new NotFoundError('webhook') }),
    write: async (active) => ({ outcome: await markDeleted(tenantId, id, active, audit) }),
    again: (s, lost) => {
      if ('conflict' in lost || lost.refused !== 'endpoint') return s;
      return lost.seen && { active: endpointFromItem(lost.seen).active };
    },
    busy: 'webhook is being changed concurrently; try again',
  });
}

/** Replace an endpoint's secret; gone or deleted is a 404. */
export function replaceSecret(tenantId: string, id: string, secret: string, expires: string | null, audit?: AuditEntry): Promise<void> {
  return decideAndWrite<boolean, true, void, string>({
    state: true,
    decide: (there) => (there ? { write: true } : { refuse: new NotFoundError('webhook') }),
    write: async () => ({ outcome: await rotateSecret(tenantId, id, secret, expires, audit) }),
    again: (there, lost) => ('refused' in lost ? false : there),
    busy: BUSY,
  });
}
