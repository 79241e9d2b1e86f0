/**
 * Screening on a candidate: its answer shape (on GET /candidates/{id}) and the one action that
 * overturns an automatic decision. Apart from the candidate schemas so that only the functions
 * that answer it bundle it.
 */
import * as z from 'zod/mini';
import { IdParam, dataOf, timestamp } from './fields';
import { DOCS, type Route } from './route';

/**
 * An application's screening by its posting's knockout rules. `reasons`: each failed rule in plain
 * words with the answer given (personal data, gone once erased); `action`: what the posting's
 * outcome made of the result; `reject_at`: a rejection still pending (null once it ran, was
 * overturned or a person moved the candidate first).
 */
export const Screening = z.object({
  result: z.enum(['passed', 'failed']),
  action: z.enum(['move_to_ai_screened', 'stay', 'flag', 'reject_after_delay']),
  reasons: z.array(z.string()),
  flagged: z.boolean(),
  reject_at: z.nullable(timestamp),
  rejected_at: z.nullable(timestamp),
  overturned_at: z.nullable(timestamp),
  screened_at: timestamp,
});
export type Screening = z.infer<typeof Screening>;

/**
 * What an application sent (personal data, gone once erased): its answers by question id (yes_no
 * a boolean, number a number, single_choice and text a string, multi_choice the options chosen),
 * the consent the applicant accepted, and when it was received.
 */
export const ApplicationAnswer = z.object({
  answers: z.record(z.string(), z.union([z.boolean(), z.number(), z.string(), z.array(z.string())])),
  consent: z.object({ accepted: z.boolean(), text: z.string(), version: z.string() }),
  received_at: timestamp,
});
export type ApplicationAnswer = z.infer<typeof ApplicationAnswer>;

export const overturnScreening = {
  method: 'POST',
  path: '/api/v1/candidates/{id}/screening/overturn',
  console: true,
  handler: 'overturn-screening',
  auth: 'token',
  scope: 'pipeline:write',
  access: 'write',
  summary:
    DOCS &&
    "Overturn a screening's decision: cancel its pending rejection, take the candidate back to applied from its rejection, or clear its review flag",
  params: IdParam,
  ...(DOCS && {
    errors: {
      409: 'Nothing to overturn: the candidate was not screened, passed, was already overturned, or has moved since screening rejected them (code nothing_to_overturn); or it changed meanwhile, try again',
    },
  }),
  status: 200,
  response: dataOf(Screening),
} as const satisfies Route;
