/**
 * The daily retention run (lib/domain/retention.ts): an EventBridge schedule invokes the function
 * once a day; it visits every workspace with a rule on and erases what the rules match. A second
 * schedule invokes it every minute for the erasures' due follow-up sweeps (lib/domain/erasure.ts).
 * Its errors alarm like every function's (infra/constructs/monitoring.ts), once it is in the
 * stack's map.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import { ERASURE_FOLLOW_UP_KIND, RETENTION_TIMEOUT_S } from '../../lib/model';
import { TableFunction } from './table-function';

export const RETENTION_MODULE = 'retention';
/** A run erases at most 1,000 candidates per workspace. */
export const RETENTION_TIMEOUT = Duration.seconds(RETENTION_TIMEOUT_S);
/** Daily, at a quiet hour (UTC). */
export const RETENTION_SCHEDULE = events.Schedule.cron({ minute: '17', hour: '3' });
/**
 * Every minute: an erasure's follow-up is due a minute after it (the longest write in flight);
 * a run with nothing due is one Query.
 */
export const ERASURE_FOLLOW_UP_SCHEDULE = events.Schedule.rate(Duration.minutes(1));

export interface RetentionProps {
  table: dynamodb.ITable;
  stage: StageConfig;
}

/** Adds the function (construct id `Retention`) with the table access erasure needs, and its schedule. */
export function addRetention(scope: Construct, props: RetentionProps): NodejsFunction {
  // Erasure reads indexes (the copy index, the rejected stage, the change feed), scrubs in place
  // and deletes search entries: the route functions' `write` access, no more.
  const fn = new TableFunction(scope, 'Retention', {
    module: RETENTION_MODULE,
    table: props.table,
    access: 'write',
    timeout: RETENTION_TIMEOUT,
    description: 'Retention rules: erase the candidates each workspace rule matches (daily)',
    stage: props.stage,
  }).fn;
  new events.Rule(scope, 'RetentionSchedule', {
    description: 'Runs the workspaces’ retention rules once a day',
    schedule: RETENTION_SCHEDULE,
    // A failed run is retried, then left to the next day; its error alarms meanwhile.
    targets: [new targets.LambdaFunction(fn, { retryAttempts: 2, maxEventAge: Duration.hours(6) })],
  });
  new events.Rule(scope, 'ErasureFollowUpSchedule', {
    description: 'Sweeps each erasure again once the writes in flight at it have ended',
    schedule: ERASURE_FOLLOW_UP_SCHEDULE,
    // A missed minute is caught up by the next: the follow-ups stay until swept.
    targets: [
      new targets.LambdaFunction(fn, {
        event: events.RuleTargetInput.fromObject({ kind: ERASURE_FOLLOW_UP_KIND }),
        retryAttempts: 2,
        maxEventAge: Duration.minutes(10),
      }),
    ],
  });
  return fn;
}
