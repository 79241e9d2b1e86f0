/** Requisition listing: one index Query for the page, one GetItem for the exact count. */
import type { ListRequisitionsQuery, Requisition } from '../schemas';
import { queryRequisitionsByStatus, toRequisition } from '../store/requisitions';
import { getStats } from '../store/stats';
import type { Principal } from './principal';

export interface RequisitionPage {
  items: Requisition[];
  count: number;
}

export const listRequisitions = (p: Principal, q: ListRequisitionsQuery): Promise<RequisitionPage> => requisitionPage(p.tenantId, q);

/** `counters` lets a caller that reads the STATS item anyway (the overview) share its read. */
export async function requisitionPage(tenantId: string, q: ListRequisitionsQuery, counters = getStats(tenantId)): Promise<RequisitionPage> {
  const [items, stats] = await Promise.all([queryRequisitionsByStatus(tenantId, q.status, q.limit), counters]);
  return { items: items.map(toRequisition), count: stats.reqStatus(q.status) };
}
