/**
 * The interview follow-up run (lib/domain/interview-follow-up.ts): an EventBridge schedule invokes
 * the function every few minutes; it moves candidates whose last interview ended to interviewed
 * and sends the reminders of missing scorecards. The function, its role, log group, schedule and
 * invoke permission live in a nested stack of their own, so the root stack grows by that one
 * resource; its error alarm goes there too (infra/constructs/monitoring.ts puts each alarm in its
 * function's stack), once it is in the stack's map. Mail: with `-c mailDomain` it may send
 * (infra/constructs/mail.ts); without, it moves candidates and sends no reminder.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import type { Mail } from './mail';
import { TableFunction } from './table-function';

export const INTERVIEW_FOLLOW_UP_MODULE = 'interview-follow-up';
/** A run handles at most 500 due items, ten at a time. */
export const INTERVIEW_FOLLOW_UP_TIMEOUT = Duration.minutes(2);
/** Every five minutes: a move follows an interview's end by at most that; a run with nothing due is one Query. */
export const INTERVIEW_FOLLOW_UP_SCHEDULE = events.Schedule.rate(Duration.minutes(5));

export interface InterviewFollowUpProps {
  table: dynamodb.ITable;
  stage: StageConfig;
  mail: Mail;
  /** The console's origin, for the reminder's link. */
  consoleUrl: string;
}

/** Adds the nested stack `InterviewFollowUps` with the function (construct id `InterviewFollowUp`) and its schedule. */
export function addInterviewFollowUp(scope: Construct, props: InterviewFollowUpProps): NodejsFunction {
  const nested = new NestedStack(scope, 'InterviewFollowUps', { description: 'Talent pipeline: the interview follow-up run' });
  // Stage moves are transactions of puts, updates and condition checks; the due items are deleted:
  // the route functions' `write` access, no more.
  const fn = new TableFunction(nested, 'InterviewFollowUp', {
    module: INTERVIEW_FOLLOW_UP_MODULE,
    table: props.table,
    access: 'write',
    timeout: INTERVIEW_FOLLOW_UP_TIMEOUT,
    description: 'Interview follow-ups: the move to interviewed after the last interview, and scorecard reminders (every 5 minutes)',
    stage: props.stage,
  }).fn;
  fn.addEnvironment('CONSOLE_URL', props.consoleUrl);
  if (props.mail.identity) props.mail.allowSending(fn);
  new events.Rule(nested, 'InterviewFollowUpSchedule', {
    description: 'Moves candidates whose last interview ended, and reminds missing scorecards',
    schedule: INTERVIEW_FOLLOW_UP_SCHEDULE,
    // A missed run is caught up by the next: the due items stay until handled.
    targets: [new targets.LambdaFunction(fn, { retryAttempts: 1, maxEventAge: Duration.minutes(10) })],
  });
  return fn;
}
