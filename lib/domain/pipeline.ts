/** Pipeline summary: stage counts from the counter item, stuck candidates from the stage index. */
import { NotFoundError } from '../errors';
import { ACTIVE_STAGES, DEFAULT_STUCK_DAYS, STAGES, STUCK_LIMIT, type Stage } from '../model';
import type { PipelineSummary, StuckCandidate } from '../schemas';
import { queryStageEnteredBefore } from '../store/candidates';
import { getStats } from '../store/stats';
import { getTenant } from '../store/tenants';

const DAY_MS = 86_400_000;

/** Thresholds in force for a tenant: its overrides on top of the defaults. */
export function stuckThresholds(overrides: Partial<Record<Stage, number>> = {}): [Stage, number][] {
  const merged = { ...DEFAULT_STUCK_DAYS, ...overrides };
  return STAGES.flatMap((s) => {
    const days = merged[s];
    return typeof days === 'number' && days > 0 ? [[s, days] as [Stage, number]] : [];
  });
}

export const daysBetween = (from: string, now: number) => Math.floor((now - Date.parse(from)) / DAY_MS);

/**
 * A fixed number of calls whatever the tenant's size: two GetItems, then one bounded Query
 * per stage that has a threshold.
 */
export async function getPipeline(tenantId: string, now = Date.now(), counters = getStats(tenantId)): Promise<PipelineSummary> {
  const [tenant, stats] = await Promise.all([getTenant(tenantId), counters]);
  if (!tenant) throw new NotFoundError('tenant');
  const perStage = await Promise.all(
    stuckThresholds(tenant.stuck_days).map(([stage, days]) =>
      queryStageEnteredBefore(tenantId, stage, new Date(now - days * DAY_MS).toISOString(), STUCK_LIMIT),
    ),
  );
  const stuck: StuckCandidate[] = perStage
    .flat()
    .sort((a, b) => String(a.stage_entered_at).localeCompare(String(b.stage_entered_at)))
    .slice(0, STUCK_LIMIT)
    .map((item) => ({
      id: item.id as string,
      name: item.name as string,
      stage: item.stage as Stage,
      days_in_stage: daysBetween(item.stage_entered_at as string, now),
      req_title: (item.req_title as string | undefined) ?? null,
    }));
  const stage_counts = Object.fromEntries(STAGES.map((s) => [s, stats.stage(s)])) as Record<Stage, number>;
  return {
    stage_counts,
    total_active: ACTIVE_STAGES.reduce((sum, s) => sum + stats.stage(s), 0),
    stuck_candidates: stuck,
  };
}
