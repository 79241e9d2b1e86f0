/**
 * Deployment stages (`cdk deploy -c stage=dev|prod`). The stage names the stack
 * (`TalentPipeline-<stage>`), so a dev and a prod stack can live side by side in one account and
 * region: nothing in the stack has a fixed physical name. What differs is what is kept.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';

export const STAGE_NAMES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

export interface StageConfig {
  name: StageName;
  /**
   * POWERTOOLS_SERVICE_NAME of every function (lib/env.ts SERVICE_NAME): the `service` dimension
   * of the EMF metrics and the `service` key of the log lines. One per stage, so that stages in
   * one account keep apart the metrics in the shared `TalentPipeline` namespace, and each stage's
   * alarms and dashboard read only its own (infra/constructs/monitoring.ts).
   */
  serviceName: string;
  /** The table: kept (and protected from deletion) in prod, deleted with a dev stack. */
  tableRemovalPolicy: RemovalPolicy;
  tableDeletionProtection: boolean;
  /** Function, execution and deployment logs. */
  logRetention: logs.RetentionDays;
  /** API Gateway access logs: who called what, kept longer in prod for incident reviews. */
  accessLogRetention: logs.RetentionDays;
  /** Log groups: deleted with a dev stack; kept in prod, where they may be evidence. */
  logRemovalPolicy: RemovalPolicy;
}

export const STAGES: Record<StageName, StageConfig> = {
  dev: {
    name: 'dev',
    serviceName: 'talent-pipeline-dev',
    tableRemovalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    logRetention: logs.RetentionDays.ONE_WEEK,
    accessLogRetention: logs.RetentionDays.ONE_WEEK,
    logRemovalPolicy: RemovalPolicy.DESTROY,
  },
  prod: {
    name: 'prod',
    serviceName: 'talent-pipeline-prod',
    tableRemovalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    logRetention: logs.RetentionDays.ONE_MONTH,
    accessLogRetention: logs.RetentionDays.THREE_MONTHS,
    logRemovalPolicy: RemovalPolicy.RETAIN,
  },
};

/** The stage a `-c stage=...` value names; anything else is refused before synth. */
export function stageNamed(value: unknown): StageName {
  if (typeof value === 'string' && (STAGE_NAMES as readonly string[]).includes(value)) return value as StageName;
  throw new Error(`Unknown stage ${JSON.stringify(value)}: use -c stage=${STAGE_NAMES.join('|')}`);
}

/** A boolean context flag: `-c waf=false` arrives as the string "false". */
export function flag(value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`Expected true or false, got ${JSON.stringify(value)}`);
}
