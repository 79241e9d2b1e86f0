/** A member's mentions (the console's inbox): session routes only, each member their own. */
import * as z from 'zod/mini';
import { dataOf, nextCursor, timestamp, uuid } from './fields';
import { PageQuery } from './notes';
import { DOCS, type Route } from './route';

/** A mention: the note and the person it is on, who wrote it, when; `read_at` null while unread. */
export const Mention = z.object({
  id: z.uuid(),
  note_id: z.uuid(),
  person_id: z.uuid(),
  candidate_id: z.nullable(z.uuid()),
  author: z.object({ id: z.string(), email: z.nullable(z.string()) }),
  at: timestamp,
  read_at: z.nullable(timestamp),
});

/** Unread first, each part newest first; `unread`: how many are unread (the header's count). */
export const MentionPage = z.object({ data: z.array(Mention), unread: z.int(), next_cursor: nextCursor });

export const listMentions = {
  method: 'GET',
  path: '/api/mentions',
  handler: 'list-mentions',
  auth: 'session',
  access: 'read',
  summary: DOCS && 'Your mentions, unread first, with the unread count',
  query: PageQuery,
  status: 200,
  response: MentionPage,
} as const satisfies Route;

export const readMention = {
  method: 'POST',
  path: '/api/mentions/{id}/read',
  handler: 'read-mention',
  auth: 'session',
  access: 'write',
  summary: DOCS && 'Mark one of your mentions read (again: no change)',
  params: z.strictObject({ id: uuid('id') }),
  ...(DOCS && { errors: { 404: 'No such mention of yours, or one on a note you may no longer see (code not_found)' } }),
  status: 200,
  response: dataOf(Mention),
} as const satisfies Route;
