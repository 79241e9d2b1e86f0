/**
 * The interview follow-ups (lib/domain/interview-moves.ts, interview-reminders.ts): two functions,
 * each invoked by an EventBridge schedule every five minutes, over the interviews' due items: the
 * move to interviewed after the last interview (no mail client) and the scorecard reminders (no
 * stage-move code). One function doing both passed the 400 KB bundle budget; split, each carries
 * only its own code. Both live, with their roles, log groups, rules, invoke permissions and error
 * alarms (infra/constructs/monitoring.ts puts each alarm in its function's stack), in the nested
 * stack `InterviewFollowUps`, so the root stack grows by that one resource. The reminders need
 * mail: they are deployed only with `-c mailDomain` (infra/constructs/mail.ts); without it the
 * remind items leave by their TTL and candidates still move.
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

export const INTERVIEW_MOVES_MODULE = 'interview-moves';
export const SCORECARD_REMINDERS_MODULE = 'scorecard-reminders';
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

export interface InterviewFollowUpFunctions {
  moves: NodejsFunction;
  /** Only where the deploy sends mail. */
  reminders?: NodejsFunction;
}

/** Adds the nested stack `InterviewFollowUps` with the two functions (construct ids `InterviewMoves`, `ScorecardReminders`) and their schedules. */
export function addInterviewFollowUps(scope: Construct, props: InterviewFollowUpProps): InterviewFollowUpFunctions {
  const nested = new NestedStack(scope, 'InterviewFollowUps', { description: 'Talent pipeline: the interview follow-up runs' });
  const scheduled = (id: string, module: string, description: string, ruleDescription: string) => {
    // Stage moves are transactions of puts, updates and condition checks; reminders claim and give
    // back their markers; both delete the due items: the route functions' `write` access, no more.
    const fn = new TableFunction(nested, id, {
      module,
      table: props.table,
      access: 'write',
      timeout: INTERVIEW_FOLLOW_UP_TIMEOUT,
      description,
      stage: props.stage,
    }).fn;
    new events.Rule(nested, `${id}Schedule`, {
      description: ruleDescription,
      schedule: INTERVIEW_FOLLOW_UP_SCHEDULE,
      // A missed run is caught up by the next: the due items stay until handled.
      targets: [new targets.LambdaFunction(fn, { retryAttempts: 1, maxEventAge: Duration.minutes(10) })],
    });
    return fn;
  };
  const moves = scheduled(
    'InterviewMoves',
    INTERVIEW_MOVES_MODULE,
    'Interview follow-ups: the move to interviewed after the last interview (every 5 minutes)',
    'Moves candidates whose last interview ended to interviewed',
  );
  if (!props.mail.identity) return { moves };
  const reminders = scheduled(
    'ScorecardReminders',
    SCORECARD_REMINDERS_MODULE,
    'Interview follow-ups: scorecard reminders at 9:00 the first working day after an interview (every 5 minutes)',
    'Reminds interviewers of their missing scorecards',
  );
  reminders.addEnvironment('CONSOLE_URL', props.consoleUrl);
  props.mail.allowSending(reminders);
  return { moves, reminders };
}
