/**
 * The console's landing page: the pipeline summary and the open requisitions, read by the same
 * domain functions the Bearer routes use, in one round trip for the page.
 */
import type { Overview } from '../schemas';
import type * as z from 'zod/mini';
import { getStats } from '../store/stats';
import { pipelineSummary } from './pipeline';
import type { Principal } from './principal';
import { requisitionPage, seenRequisitionPage } from './requisitions';
import { seesAll, viewerOf } from './visibility';
import { visibleRequisitions } from './visible-lists';

export async function getOverview(p: Principal): Promise<z.infer<typeof Overview>['data']> {
  // One read of the counters serves both halves.
  const counters = getStats(p.tenantId);
  const v = viewerOf(p);
  if (!seesAll(v)) {
    // Only what the caller sees: the requisitions they are on, and counts of those alone.
    const seen = await visibleRequisitions(p.tenantId, v);
    const [pipeline, open] = [
      await pipelineSummary(p.tenantId, Date.now(), counters, seen),
      seenRequisitionPage(seen, { status: 'open', limit: 50 }),
    ];
    return { pipeline, requisitions: open.items, open_requisitions: open.count };
  }
  const [pipeline, open] = await Promise.all([
    pipelineSummary(p.tenantId, Date.now(), counters),
    requisitionPage(p.tenantId, { status: 'open', limit: 50 }, counters),
  ]);
  return { pipeline, requisitions: open.items, open_requisitions: open.count };
}
