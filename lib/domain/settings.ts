/** Pipeline settings a workspace admin changes in the console: the stuck threshold per stage and the retention rules. */
import { NotFoundError } from '../errors';
import { DEFAULT_STUCK_DAYS, STUCK_STAGES, type Stage } from '../model';
import type { PipelineSettings, PipelineSettingsBody, PipelineSettingsQuery, PipelineSettingsSaved } from '../schemas';
import { previewRetention } from './retention';
import { retentionOf } from '../store/retention';
import { getStatsItem } from '../store/stats';
import { getTenant, setStuckDays } from '../store/tenants';
import { auditBy, type Principal } from './principal';
import { rejectionSettingsOf } from './rejection-rules';

type StuckStage = (typeof STUCK_STAGES)[number];
const defaults = Object.fromEntries(STUCK_STAGES.map((s) => [s, DEFAULT_STUCK_DAYS[s] ?? 0])) as Record<StuckStage, number>;

/** The thresholds in force: the workspace's overrides on top of the defaults (0: off). */
export const stuckDaysInForce = (overrides: Partial<Record<Stage, number>> = {}) =>
  Object.fromEntries(STUCK_STAGES.map((s) => [s, overrides[s] ?? defaults[s]])) as Record<StuckStage, number>;

export async function getPipelineSettings(p: Principal, q: PipelineSettingsQuery = {}): Promise<PipelineSettings> {
  const wantsPreview = q.preview_rejected_days !== undefined || q.preview_inactive_days !== undefined;
  const [stats, retention_preview] = await Promise.all([
    getStatsItem(p.tenantId),
    wantsPreview
      ? previewRetention(p.tenantId, { rejected_days: q.preview_rejected_days ?? null, inactive_days: q.preview_inactive_days ?? null })
      : undefined,
  ]);
  if (!stats.exists) throw new NotFoundError('workspace');
  // A tenant from before the stuck index keeps its thresholds on the tenant item until it saves.
  const overrides = stats.stuckDays ?? (await getTenant(p.tenantId))?.stuck_days;
  const rejection = rejectionSettingsOf(stats.item);
  return {
    stuck_days: stuckDaysInForce(overrides),
    defaults,
    retention: retentionOf(stats.item),
    rejection_reasons: [...rejection.reasons],
    require_rejection_reason: rejection.required,
    auto_interview_stages: stats.item.auto_interview_stages !== false,
    offer_required: stats.item.offer_required === true,
    ...(retention_preview && { retention_preview }),
  };
}

/** Replaces the overrides: a stage left out goes back to its default. Only values that differ are kept. */
export async function updatePipelineSettings(p: Principal, body: PipelineSettingsBody): Promise<PipelineSettingsSaved> {
  const overrides = Object.fromEntries(
    Object.entries(body.stuck_days).filter(([stage, days]) => days !== undefined && days !== defaults[stage as StuckStage]),
  ) as Partial<Record<Stage, number>>;
  const stuck_days = stuckDaysInForce(overrides);
  // A rule left out of `retention` is off; `retention` left out keeps the rules, and the answer
  // then leaves them out too (the write is one transaction with its audit record, which answers
  // nothing; GET has them).
  const retention = body.retention && {
    rejected_days: body.retention.rejected_days ?? null,
    inactive_days: body.retention.inactive_days ?? null,
  };
  // Rejection settings left out stay as saved (or default).
  const also = {
    ...(body.rejection_reasons && { rejection_reasons: body.rejection_reasons }),
    ...(body.require_rejection_reason !== undefined && { require_rejection_reason: body.require_rejection_reason }),
    ...(body.auto_interview_stages !== undefined && { auto_interview_stages: body.auto_interview_stages }),
    ...(body.offer_required !== undefined && { offer_required: body.offer_required }),
  };
  const changes = [
    { field: 'stuck_days', after: stuck_days },
    ...(retention ? [{ field: 'retention', after: retention }] : []),
    ...Object.entries(also).map(([field, after]) => ({ field, after })),
  ];
  await setStuckDays(p.tenantId, overrides, {
    retention,
    also,
    audit: auditBy(p, 'settings.pipeline_changed', { type: 'workspace', id: p.tenantId }, changes),
  });
  return { stuck_days, defaults, ...(retention && { retention }), ...also };
}
