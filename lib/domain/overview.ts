/**
 * The console's landing page: the pipeline summary and the open requisitions, read by the same
 * domain functions the Bearer routes use, in one round trip for the page.
 */
import type { Overview } from '../schemas';
import type * as z from 'zod/mini';
import { getStats } from '../store/stats';
import { pipelineSummary } from './pipeline';
import type { Principal } from './principal';
import { requisitionPage } from './requisitions';

export async function getOverview(p: Principal): Promise<z.infer<typeof Overview>['data']> {
  // One read of the counters serves both halves.
  const counters = getStats(p.tenantId);
  const [pipeline, open] = await Promise.all([
    pipelineSummary(p.tenantId, Date.now(), counters),
    requisitionPage(p.tenantId, { status: 'open', limit: 50 }, counters),
  ]);
  return { pipeline, requisitions: open.items, open_requisitions: open.count };
}
