/**
 * The workspace's pipeline settings: stuck thresholds and retention rules.
 * One module per API resource: its route lines and its schemas (lib/api/route.ts says what a line
 * is). A handler imports its own line from here; lib/routes.ts lists every line.
 */
import * as z from 'zod/mini';
import {
  MAX_REJECTION_REASONS,
  MAX_RETENTION_DAYS,
  MAX_STUCK_DAYS,
  REJECTION_LABEL_MAX,
  REJECTION_TYPES,
  RETENTION_RULES,
  type RetentionRule,
  STUCK_STAGES,
} from '../model';
import { dataOf, intParam, reasonId, text } from './fields';
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

/** One rejection reason: a stable id (kept on the moves that chose it), its label and its type. */
export const RejectionReason = z.strictObject({
  id: reasonId('id'),
  label: text('label', REJECTION_LABEL_MAX),
  type: z.enum(REJECTION_TYPES, { error: `type must be one of ${REJECTION_TYPES.join(', ')}` }),
});
const rejectionReasonsError = `rejection_reasons must be a list of 1 to ${MAX_REJECTION_REASONS} reasons`;
const RejectionReasons = z.array(RejectionReason, { error: rejectionReasonsError }).check(
  z.minLength(1, { error: rejectionReasonsError }),
  z.maxLength(MAX_REJECTION_REASONS, { error: rejectionReasonsError }),
  z.refine((list) => new Set(list.map((r) => r.id)).size === list.length, { error: 'rejection_reasons must not repeat an id' }),
);

export const PipelineSettingsBody = z.strictObject({
  /** Stages left out go back to their default; 0 turns a stage's alert off. */
  stuck_days: z.strictObject(stuckDaysShape, { error: 'stuck_days must be an object of stage: days' }),
  /**
   * Retention rules: erase candidates `rejected_days` after they were rejected, or after
   * `inactive_days` without any change; null is off. Left out, the rules stay as they are.
   */
  retention: z.optional(z.strictObject({ rejected_days: retentionDays, inactive_days: retentionDays })),
  /** The workspace's rejection reasons, replacing the saved list (or the defaults); left out, they stay. */
  rejection_reasons: z.optional(RejectionReasons),
  /** A move into `rejected` must name a reason; left out, the setting stays. */
  require_rejection_reason: z.optional(z.boolean({ error: 'require_rejection_reason must be true or false' })),
  /** Scheduling a candidate's first interview moves them to interview_scheduled; left out, the setting stays. */
  auto_interview_stages: z.optional(z.boolean({ error: 'auto_interview_stages must be true or false' })),
  /** A move into `offer_sent` needs an approved or sent offer; left out, the setting stays. */
  offer_required: z.optional(z.boolean({ error: 'offer_required must be true or false' })),
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
    /** The reasons a rejection may give: the workspace's own, or the default list until it saves one. */
    rejection_reasons: z.array(RejectionReason),
    require_rejection_reason: z.boolean(),
    /** Interviews move candidates (the first scheduled: interview_scheduled); on unless turned off. */
    auto_interview_stages: z.boolean(),
    /** A move into `offer_sent` needs an approved or sent offer (off unless the workspace turns it on). */
    offer_required: z.boolean(),
    /** Only when the request asked for a preview (preview_rejected_days, preview_inactive_days). */
    retention_preview: z.optional(RetentionPreview),
  }),
);
export type PipelineSettings = z.infer<typeof PipelineSettings>['data'];
/**
 * PUT's answer: the thresholds in force, and the retention rules and rejection settings when the request set them (the
 * save is one transaction with its audit record, which answers no item; GET has the rules).
 */
export const PipelineSettingsSaved = dataOf(
  z.object({
    stuck_days: stuckDaysMap,
    defaults: stuckDaysMap,
    retention: z.optional(RetentionSettings),
    rejection_reasons: z.optional(z.array(RejectionReason)),
    require_rejection_reason: z.optional(z.boolean()),
    auto_interview_stages: z.optional(z.boolean()),
    offer_required: z.optional(z.boolean()),
  }),
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
  summary:
    'Set the stuck thresholds (a stage left out goes back to its default; 0 turns it off) and, when given, the retention rules and the rejection reasons',
  body: PipelineSettingsBody,
  status: 200,
  response: PipelineSettingsSaved,
} as const satisfies Route;
