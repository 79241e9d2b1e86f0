/**
 * A person's activity feed: one route and its schemas. Kinds are open-ended (a later kind reaches
 * callers with no change here): an item is `{ id, kind, at, actor, candidate_id? }` and the
 * kind's own fields beside them.
 */
import * as z from 'zod/mini';
import { nextCursor } from './fields';
import { PageQuery, PersonParam } from './notes';
import { DOCS, type Route } from './route';

/** Who did it: a member (`user`, name their email), an API token (name its name) or the service (`system`). */
export const ActivityActor = z.object({ type: z.string(), id: z.string(), name: z.optional(z.string()) });

/**
 * One feed item. Kinds so far: `candidate.created`, `candidate.imported` (import_id),
 * `candidate.stage_changed` (from, to, and rejection_reason_id, rejection_reason_label,
 * rejection_type on a rejection that gave one), `candidate.requisition_changed` (from_req_id,
 * to_req_id), `candidate.edited` (fields: the names of the fields changed, never their values),
 * `note.created`, `note.edited`, `note.deleted` (note_id, visibility; a private note's items reach
 * its author alone), and `person.*` kinds (fields, and the values that are not personal). Treat
 * an unknown kind as an item to show by its kind, actor and time.
 */
export const ActivityItem = z.looseObject({
  id: z.string(),
  kind: z.string(),
  at: z.string(),
  actor: ActivityActor,
  candidate_id: z.optional(z.string()),
});

/** A page of the feed; it may hold fewer than `limit` (items the caller may not see are left out): follow `next_cursor` until null. */
export const ActivityPage = z.object({ data: z.array(ActivityItem), next_cursor: nextCursor });

export const listActivity = {
  method: 'GET',
  path: '/api/v1/people/{id}/activity',
  console: true,
  handler: 'list-activity',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary:
    DOCS && "A person's activity feed, newest first, with an opaque cursor: moves, requisition changes, edits, notes, imports, merges",
  params: PersonParam,
  query: PageQuery,
  ...(DOCS && { errors: { 404: 'A person not in this workspace (code not_found)' } }),
  status: 200,
  response: ActivityPage,
} as const satisfies Route;
