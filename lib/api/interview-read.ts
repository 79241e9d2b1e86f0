/**
 * One interview as its own read answers it: the interview, its step's kit and scorecard template,
 * and `feedback_overdue`. Apart from lib/api/interviews.ts so that the other interview functions
 * do not bundle this schema (a schema built at load time stays in every bundle that imports its module).
 */
import * as z from 'zod/mini';
import { IdParam, dataOf } from './fields';
import { Interview } from './interviews';
import { DOCS, type Route } from './route';

/** One interview as GET /api/v1/interviews/{id} answers it. */
export const InterviewRead = z.object({
  ...Interview.shape,
  /**
   * True once the interview's reminder time has passed (9:00 on the first working day after it, in
   * its time zone) while an interviewer's scorecard is missing; answered to whoever reads every
   * scorecard of the requisition (admins, its hiring managers, its recruiter), absent for others.
   */
  feedback_overdue: z.optional(z.boolean()),
  /**
   * The step's kit (preparation notes and questions, Markdown) as the requisition's plan holds it
   * now, for everyone who reads the interview; null once the step is no longer in the plan.
   */
  kit: z.nullable(z.string()),
  /** The step's scorecard template (attributes rated, free questions), as the plan holds it now; null once the step is gone. */
  scorecard_template: z.nullable(z.object({ attributes: z.array(z.object({ name: z.string() })), questions: z.array(z.string()) })),
});

// ---- routes ------------------------------------------------------------------------------

export const getInterview = {
  method: 'GET',
  path: '/api/v1/interviews/{id}',
  console: true,
  handler: 'get-interview',
  auth: 'token',
  scope: 'interviews:read',
  access: 'read',
  summary: DOCS && 'One interview',
  params: IdParam,
  status: 200,
  response: dataOf(InterviewRead),
} as const satisfies Route;
