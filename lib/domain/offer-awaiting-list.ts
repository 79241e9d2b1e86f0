/**
 * The offers waiting for a member's decision (the console's Approvals page and its header count):
 * one Query of the member's list (lib/store/offer-awaiting.ts), then one TransactGetItems of the page's
 * offers, candidates and requisitions, the workspace's chain and the count. An entry is answered
 * only while it is true and readable now: the offer still pending approval and still waiting for
 * the member (its own `awaiting`, written with the list), the member still an approver of that step
 * in the chain in force, and the offer readable by them (lib/domain/offer-access.ts: a hiring
 * manager taken off the requisition's team no longer sees it). A member whose role reads no offer
 * has an empty list without a read.
 */
import { awaitedOfferFromItem } from '../entities/offer';
import type { Item } from '../item';
import { awaitingPageKey, queryAwaiting, readAwaitingContext } from '../store/offer-awaiting';
import { decodeCursor, encodeCursor } from './cursor';
import { mayReadOffer, readNeedsRequisition } from './offer-access';
import { stepsFor, type ApprovalStep } from './offer-approvals';
import { decodeAwaiting } from './offer-awaiting';
import { toOffer } from './offers';
import type { SessionPrincipal } from './principal';

const managersOf = (req: Item | undefined): string[] =>
  Array.isArray(req?.hiring_manager_ids) ? req.hiring_manager_ids.filter((x): x is string => typeof x === 'string') : [];

export async function listAwaitingOffers(p: SessionPrincipal, q: { limit: number; cursor?: string }) {
  const caller = { role: p.role, userId: p.userId };
  const scope = { tenantId: p.tenantId, filters: JSON.stringify(['awaiting', p.userId]), key: awaitingPageKey(p.tenantId, p.userId) };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  if (!mayReadOffer(caller) && !readNeedsRequisition(caller)) return { items: [], count: 0, next_cursor: null };
  const page = await queryAwaiting(p.tenantId, p.userId, q.limit, startKey);
  const ctx = await readAwaitingContext(p.tenantId, p.userId, page.entries);
  const chain = Array.isArray(ctx.chain) ? (ctx.chain as ApprovalStep[]) : [];
  const items = page.entries.flatMap((e) => {
    const item = ctx.offers.get(e.offer_id);
    if (!item) return [];
    const o = awaitedOfferFromItem(item);
    const waits = decodeAwaiting(o.awaiting);
    if (o.status !== 'pending_approval' || !waits?.users.includes(p.userId)) return [];
    if (!stepsFor(chain, o)[waits.step]?.approvers.includes(p.userId)) return [];
    const req = o.req_id ? ctx.requisitions.get(o.req_id) : undefined;
    if (!mayReadOffer(caller, managersOf(req))) return [];
    const cand = ctx.candidates.get(o.candidate_id);
    return [
      {
        offer: toOffer(o),
        candidate: { id: o.candidate_id, name: typeof cand?.name === 'string' ? cand.name : null },
        requisition: o.req_id ? { id: o.req_id, title: typeof req?.title === 'string' ? req.title : null } : null,
        step: waits.step,
        waiting_since: waits.round,
      },
    ];
  });
  return { items, count: ctx.count, next_cursor: page.lastKey ? encodeCursor(scope, page.lastKey) : null };
}
