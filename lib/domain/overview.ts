/**
 * The console's landing page: the pipeline summary and the open requisitions, read by the same
 * domain functions the Bearer routes use, in one round trip for the page.
 */
import type { Overview } from '../schemas';
import type * as z from 'zod/mini';
import { getStats } from '../store/stats';
import { getPipeline } from './pipeline';
import { listRequisitions } from './requisitions';

export async function overview(tenantId: string): Promise<z.infer<typeof Overview>> {
  // One read of the counters serves both halves.
  const counters = getStats(tenantId);
  const [pipeline, open] = await Promise.all([
    getPipeline(tenantId, Date.now(), counters),
    listRequisitions(tenantId, { status: 'open', limit: 50 }, counters),
  ]);
  return { data: { pipeline, requisitions: open.data, open_requisitions: open.count } };
}
