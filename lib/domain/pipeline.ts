/**
 * Pipeline summary: stage counts and thresholds from the STATS item (one GetItem), stuck
 * candidates from the stuck index (one Query). See lib/store/stuck.ts.
 */
import { NotFoundError } from '../errors';
import { ACTIVE_STAGES, DEFAULT_STUCK_DAYS, STAGES, STUCK_LIMIT, type Stage } from '../model';
import type { PipelineSummary, StuckCandidate } from '../schemas';
import { queryStageEnteredBefore } from '../store/candidate-lists';
import { getStats } from '../store/stats';
import { queryStuck, stuckAt } from '../store/stuck';
import { getTenant } from '../store/tenants';
import type { Principal } from './principal';
import { reqStageCount, type RequisitionItem } from '../store/requisitions';
import { seesAll, viewerOf } from './visibility';
import { visibleRequisitions } from './visible-lists';

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
 * Two calls whatever the tenant's size: the STATS GetItem and one Query of the stuck index.
 * While a threshold change is still being applied to the index (in the background), the stuck
 * list comes from one bounded Query per stage with a threshold instead (GSI1, with the
 * thresholds in force), so the answer is right during the re-index too; a tenant from before
 * the index also reads its tenant item, where its thresholds were kept.
 */
export async function getPipeline(p: Principal): Promise<PipelineSummary> {
  const v = viewerOf(p);
  return pipelineSummary(p.tenantId, Date.now(), getStats(p.tenantId), seesAll(v) ? undefined : await visibleRequisitions(p.tenantId, v));
}

/**
 * `counters` lets a caller that reads the STATS item anyway (the overview) share its read.
 * `only`: the requisitions a hiring manager or interviewer sees (lib/domain/visibility.ts): the
 * counts are theirs (each requisition keeps its own per stage), the stuck list only their candidates.
 */
export async function pipelineSummary(
  tenantId: string,
  now = Date.now(),
  counters = getStats(tenantId),
  only?: readonly RequisitionItem[],
): Promise<PipelineSummary> {
  const stats = await counters;
  if (!stats.exists) throw new NotFoundError('tenant');
  let overrides = stats.stuckDays;
  let items: Record<string, unknown>[];
  if (stats.stuckIndexReady) {
    items = await queryStuck(tenantId, now, STUCK_LIMIT);
  } else {
    overrides ??= (await getTenant(tenantId))?.stuck_days ?? {};
    const perStage = await Promise.all(
      stuckThresholds(overrides).map(([stage, days]) =>
        queryStageEnteredBefore(tenantId, stage, new Date(now - days * DAY_MS).toISOString(), STUCK_LIMIT),
      ),
    );
    // The index's order: longest past its threshold first (within a stage, oldest entry first).
    const key = (c: Record<string, unknown>) => `${stuckAt(overrides!, c.stage as Stage, c.stage_entered_at as string)}#${c.id}`;
    items = perStage
      .flat()
      .sort((a, b) => key(a).localeCompare(key(b)))
      .slice(0, STUCK_LIMIT);
  }
  const seen = only && new Set(only.map((r) => r.id));
  if (seen) items = items.filter((item) => typeof item.req_id === 'string' && seen.has(item.req_id));
  const stuck: StuckCandidate[] = items.map((item) => ({
    id: item.id as string,
    name: item.name as string,
    stage: item.stage as Stage,
    days_in_stage: daysBetween(item.stage_entered_at as string, now),
    req_title: (item.req_title as string | undefined) ?? null,
  }));
  const countOf = (stage: Stage) => (only ? only.reduce((sum, r) => sum + reqStageCount(r, stage), 0) : stats.stage(stage));
  const stage_counts = Object.fromEntries(STAGES.map((s) => [s, countOf(s)])) as Record<Stage, number>;
  return {
    stage_counts,
    total_active: ACTIVE_STAGES.reduce((sum, s) => sum + countOf(s), 0),
    stuck_candidates: stuck,
  };
}
