/**
 * People: one person above their candidates (one candidate per requisition). The person's page
 * and its schemas; the person's personal fields are declared in lib/entities/person.ts.
 */
import * as z from 'zod/mini';
import { STAGES } from '../model';
import { IdParam, dataOf, timestamp } from './fields';
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
