/**
 * The scorecard reminders (an EventBridge schedule every few minutes in the stack, deployed only
 * with a mail domain; `npm start` runs it on a timer): interviewers whose scorecard is missing at
 * 9:00 the first working day after the interview get one email; see
 * lib/domain/interview-reminders.ts. Logs counts only. A failure throws, so the function's error
 * alarm fires.
 */
import { sendScorecardReminders } from '../lib/domain/interview-reminders';
import { sendEmail } from '../lib/email/send';
import { lambdaHandler } from '../lib/lambda';

export const handler = lambdaHandler(() => sendScorecardReminders(Date.now(), sendEmail));
