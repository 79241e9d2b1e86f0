/**
 * People: one person above their candidates (one candidate per requisition). The person's page
 * and its schemas; the person's personal fields are declared in lib/entities/person.ts.
 */
import * as z from 'zod/mini';
import { STAGES } from '../model';
import { IdParam, dataOf, timestamp, uuid } from './fields';
import { DOCS, type Route } from './route';

/** One of the person's candidates, as the person's page lists it. */
export const PersonCandidate = z.object({
  id: z.uuid(),
  req_id: z.nullable(z.uuid()),
  req_title: z.nullable(z.string()),
  stage: z.enum(STAGES),
  updated_at: timestamp,
});
export type PersonCandidate = z.infer<typeof PersonCandidate>;

/**
 * A person: their personal fields (each candidate of theirs shows the same), and every candidate
 * of theirs, oldest first.
 */
export const Person = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  resume_url: z.nullable(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  candidates: z.array(PersonCandidate),
});
export type Person = z.infer<typeof Person>;

export const getPerson = {
  method: 'GET',
  path: '/api/v1/people/{id}',
  console: true,
  handler: 'get-person',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && 'One person with every candidate of theirs (requisition, stage, last change)',
  params: IdParam,
  status: 200,
  response: dataOf(Person),
} as const satisfies Route;

export const MergePersonBody = z.strictObject({ from: uuid('from') });

export const mergePerson = {
  method: 'POST',
  path: '/api/v1/people/{id}/merge',
  console: true,
  handler: 'merge-person',
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  summary:
    DOCS &&
    "Merge another person (`from`) into this one: their candidates (ids unchanged) become this person's and show this person's fields, their notes, activity and files move here, their emails match this person from then on, and they are deleted",
  params: IdParam,
  body: MergePersonBody,
  ...(DOCS && {
    errors: {
      400: '`from` names this same person (code validation_error, field from)',
      404: 'Either person is not in this workspace (code not_found; field from when it is the other one)',
      409: "Both people have a candidate on the same requisition, or both one without a requisition (code duplicate_candidate, existing_id: this person's candidate); together they would pass the cap on a person's candidates, or are too many to merge in one write (code person_limit); or too many concurrent writes",
    },
  }),
  // The files' bytes move to this person's keys.
  files: ['read', 'write', 'delete'],
  timeoutSeconds: 28,
  status: 200,
  response: dataOf(Person),
} as const satisfies Route;
