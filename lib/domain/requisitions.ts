/** Requisition listing: one index Query for the page, one GetItem for the exact count. */
import type { ListRequisitionsQuery, Requisition } from '../schemas';
import { queryRequisitionsByStatus, toRequisition } from '../store/requisitions';
import { getStats } from '../store/stats';

export async function listRequisitions(
  tenantId: string,
  q: ListRequisitionsQuery,
  counters = getStats(tenantId),
): Promise<{ data: Requisition[]; count: number }> {
  const [items, stats] = await Promise.all([queryRequisitionsByStatus(tenantId, q.status, q.limit), counters]);
  return { data: items.map(toRequisition), count: stats.reqStatus(q.status) };
}
