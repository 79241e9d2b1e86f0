/**
 * The screening rejections run (lib/domain/screening.ts rejectDueScreenings): an EventBridge
 * schedule invokes the function every minute; it queries the due partition (keys by due time,
 * written with each candidate) and rejects what is due. Function, role, policy, log group, rule
 * and its error alarm (infra/constructs/monitoring.ts, in the function's stack) live in a nested
 * stack of their own, so the stack grows by that one resource.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import { TableFunction } from './table-function';

export const SCREENING_REJECTIONS_MODULE = 'screening-rejections';
/** A run takes at most SCREENING_RUN_LIMIT due rejections, each a few writes. */
export const SCREENING_REJECTIONS_TIMEOUT = Duration.seconds(60);
/** Every minute: a rejection is due to the minute its delay ends; a run with nothing due is one Query. */
export const SCREENING_REJECTIONS_SCHEDULE = events.Schedule.rate(Duration.minutes(1));

export interface ScreeningRejectionsProps {
  table: dynamodb.ITable;
  stage: StageConfig;
}

/** Adds the nested stack `ScreeningRejections` with the function and its schedule. */
export function addScreeningRejections(scope: Construct, props: ScreeningRejectionsProps): NodejsFunction {
  const stack = new NestedStack(scope, 'ScreeningRejections');
  // It reads candidates and the due partition, moves candidates (counters, history, search
  // entries, audit intents) and deletes due items: the route functions' `write` access, no more.
  const fn = new TableFunction(stack, 'ScreeningRejections', {
    module: SCREENING_REJECTIONS_MODULE,
    table: props.table,
    access: 'write',
    timeout: SCREENING_REJECTIONS_TIMEOUT,
    description: 'Screening: reject the candidates whose screening delay has passed (every minute)',
    stage: props.stage,
  }).fn;
  new events.Rule(stack, 'ScreeningRejectionsSchedule', {
    description: 'Rejects the candidates whose screening delay has passed, unless a person acted first',
    schedule: SCREENING_REJECTIONS_SCHEDULE,
    // A missed minute is caught up by the next: a due item stays until its run.
    targets: [new targets.LambdaFunction(fn, { retryAttempts: 2, maxEventAge: Duration.minutes(10) })],
  });
  return fn;
}
