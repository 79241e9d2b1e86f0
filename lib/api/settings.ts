/**
 * The workspace's pipeline settings: stuck thresholds and retention rules.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import { MAX_RETENTION_DAYS, MAX_STUCK_DAYS, RETENTION_RULES, type RetentionRule, STUCK_STAGES } from '../model';
import { dataOf, intParam } from './fields';
import { DOCS, type Route } from './route';

const stuckDaysValue = (stage: string) =>
  z
    .number({ error: `stuck_days.${stage} must be a whole number of days` })
    .check(
      z.int({ error: `stuck_days.${stage} must be a whole number of days` }),
      z.gte(0, { error: `stuck_days.${stage} must be between 0 and ${MAX_STUCK_DAYS}` }),
      z.lte(MAX_STUCK_DAYS, { error: `stuck_days.${stage} must be between 0 and ${MAX_STUCK_DAYS}` }),
    );
const stuckDaysShape = Object.fromEntries(STUCK_STAGES.map((st) => [st, z.optional(stuckDaysValue(st))])) as {
  [K in (typeof STUCK_STAGES)[number]]: z.ZodMiniOptional<ReturnType<typeof stuckDaysValue>>;
};

const retentionError = `retention days must be null or 1 to ${MAX_RETENTION_DAYS}`;
const retentionDays = z.optional(
  z.nullable(
    z
      .number({ error: retentionError })
      .check(z.int({ error: retentionError }), z.gte(1, { error: retentionError }), z.lte(MAX_RETENTION_DAYS, { error: retentionError })),
  ),
);

export const PipelineSettingsBody = z.strictObject({
  /** Stages left out go back to their default; 0 turns a stage's alert off. */
  stuck_days: z.strictObject(stuckDaysShape, { error: 'stuck_days must be an object of stage: days' }),
  /**
   * Retention rules: erase candidates `rejected_days` after they were rejected, or after
   * `inactive_days` without any change; null is off. Left out, the rules stay as they are.
   */
  retention: z.optional(z.strictObject({ rejected_days: retentionDays, inactive_days: retentionDays })),
});
export type PipelineSettingsBody = z.output<typeof PipelineSettingsBody>;

const stuckDaysMap = z.object(
  Object.fromEntries(STUCK_STAGES.map((st) => [st, z.int()])) as Record<(typeof STUCK_STAGES)[number], z.ZodMiniInt>,
);
/** The retention rules in force: days, or null when the rule is off (the default). */
const perRule = <T extends z.ZodMiniType>(t: T) =>
  z.object(Object.fromEntries(RETENTION_RULES.map((r) => [r, t])) as Record<RetentionRule, T>);
export const RetentionSettings = perRule(z.nullable(z.int()));

/**
 * Rules to preview before saving them (the console's dry run): with either, the answer adds
 * `retention_preview`; a rule left out is off.
 */
export const PipelineSettingsQuery = z.strictObject({
  preview_rejected_days: z.optional(intParam('preview_rejected_days', 1, MAX_RETENTION_DAYS)),
  preview_inactive_days: z.optional(intParam('preview_inactive_days', 1, MAX_RETENTION_DAYS)),
});
export type PipelineSettingsQuery = z.output<typeof PipelineSettingsQuery>;

/** How many candidates the next run would erase under each rule (a candidate matched by both counts once, under rejected_days). */
export const RetentionPreview = z.object({
  ...perRule(z.int()).shape,
  total: z.int(),
  /** A rule matched more than the preview counts: the numbers are lower bounds. */
  capped: z.boolean(),
});
export type RetentionPreview = z.infer<typeof RetentionPreview>;
export const PipelineSettings = dataOf(
  z.object({
    stuck_days: stuckDaysMap,
    defaults: stuckDaysMap,
    retention: RetentionSettings,
    /** Only when the request asked for a preview (preview_rejected_days, preview_inactive_days). */
    retention_preview: z.optional(RetentionPreview),
  }),
);
export type PipelineSettings = z.infer<typeof PipelineSettings>['data'];
/**
 * PUT's answer: the thresholds in force, and the retention rules when the request set them (the
 * save is one transaction with its audit record, which answers no item; GET has the rules).
 */
export const PipelineSettingsSaved = dataOf(
  z.object({ stuck_days: stuckDaysMap, defaults: stuckDaysMap, retention: z.optional(RetentionSettings) }),
);
export type PipelineSettingsSaved = z.infer<typeof PipelineSettingsSaved>['data'];

// ---- routes ------------------------------------------------------------------------------

export const getPipelineSettings = {
  method: 'GET',
  path: '/api/settings/pipeline',
  handler: 'get-pipeline-settings',
  auth: 'session',
  access: 'read',
  summary: DOCS && 'The stuck threshold per stage, with the defaults',
  query: PipelineSettingsQuery,
  status: 200,
  response: PipelineSettings,
} as const satisfies Route;

export const updatePipelineSettings = {
  method: 'PUT',
  path: '/api/settings/pipeline',
  handler: 'update-pipeline-settings',
  auth: 'session',
  role: 'admin',
  access: 'write',
  summary: 'Set the stuck thresholds (a stage left out goes back to its default; 0 turns it off) and, when given, the retention rules',
  body: PipelineSettingsBody,
  status: 200,
  response: PipelineSettingsSaved,
} as const satisfies Route;
