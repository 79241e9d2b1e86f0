/**
 * Notes on a person: their routes (write, list, read with history, edit, delete) and schemas. A
 * body is multi-line text: line breaks and tabs are kept, other control characters refused.
 */
import * as z from 'zod/mini';
import { MAX_MENTIONS, NOTE_BODY_MAX, NOTE_VISIBILITIES } from '../entities/note';
import { dataOf, hasVisible, intParam, nextCursor, pageCursor, Success, timestamp, uuid } from './fields';
import { DOCS, type Route } from './route';

// Line breaks and tabs are the only control characters a body keeps.
const body = z.string({ error: 'body must be a string' }).check(
  z.minLength(1, { error: 'body must not be empty' }),
  z.maxLength(NOTE_BODY_MAX, { error: `body must be at most ${NOTE_BODY_MAX} characters` }),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  z.regex(/^[^\p{Cs}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/u, {
    error: 'body must not contain control characters other than line breaks and tabs',
  }),
  z.regex(/^[^\u202A-\u202E\u2066-\u2069]*$/, { error: 'body must not contain bidirectional control characters' }),
  z.refine(hasVisible, { error: 'body must contain a visible character' }),
);
const visibility = z.enum(NOTE_VISIBILITIES, { error: `visibility must be one of ${NOTE_VISIBILITIES.join(', ')}` });

/**
 * `visibility`: `team` (every member, and API tokens), `private` (its author alone), `admins`
 * (workspace admins and its author). `mentions`: member ids, each notified in the console; each
 * must be an active member who may see the note (so a private note mentions nobody).
 */
export const CreateNoteBody = z.strictObject({
  body,
  visibility,
  candidate_id: z.optional(uuid('candidate_id')),
  mentions: z.optional(
    z
      .array(uuid('mentions'), { error: 'mentions must be an array of member ids' })
      .check(z.maxLength(MAX_MENTIONS, { error: `mentions names at most ${MAX_MENTIONS} members` })),
  ),
});
export type CreateNoteBody = z.output<typeof CreateNoteBody>;

export const UpdateNoteBody = z.strictObject({ body });

export const PersonParam = z.strictObject({ id: uuid('id') });
export const NoteParams = z.strictObject({ id: uuid('id'), note_id: uuid('note_id') });

export const PageQuery = z.strictObject({
  limit: z._default(intParam('limit', 1, 100), 20),
  cursor: pageCursor,
});

/**
 * A note. `author`: the member who wrote it (`user`; a token writes as the member who made it), or
 * the token itself (`token`) when no member made it (the admin CLI's tokens; they write no private note).
 * `edited_at`: when its body was last edited, null if never.
 */
export const Note = z.object({
  id: z.uuid(),
  person_id: z.uuid(),
  candidate_id: z.nullable(z.uuid()),
  body: z.string(),
  visibility,
  author: z.object({ type: z.enum(['user', 'token']), id: z.string(), email: z.nullable(z.string()) }),
  mentions: z.array(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  edited_at: z.nullable(timestamp),
});

/** A body an edit replaced: when it was written, and when the edit replaced it. */
export const NoteVersion = z.object({ body: z.string(), written_at: timestamp, replaced_at: timestamp });
export const NoteWithHistory = z.object({ ...Note.shape, history: z.array(NoteVersion) });

/** A page of notes; it may hold fewer than `limit` (notes the caller may not see are left out): follow `next_cursor` until null. */
export const NotePage = z.object({ data: z.array(Note), next_cursor: nextCursor });

const NOT_VISIBLE = DOCS ? 'A person, or a note, that is not in this workspace or that the caller may not see (code not_found)' : '';
// A line's own 403 replaces the one its auth gives, so it names the scope (and the twin's cross-site refusal) too.
const REFUSED = DOCS ? 'The token lacks the scope `candidates:write` (code missing_scope)' : '';
const CROSS_SITE = DOCS ? "or, on the console's route, a cross-site request" : '';
const NOT_AUTHOR = DOCS ? `${REFUSED}; the caller is not the note's author (code forbidden); ${CROSS_SITE}` : '';
const NEITHER_AUTHOR_NOR_ADMIN = DOCS
  ? `${REFUSED}; the caller is neither the note's author nor an admin (code forbidden); ${CROSS_SITE}`
  : '';

export const createNote = {
  method: 'POST',
  path: '/api/v1/people/{id}/notes',
  console: true,
  handler: 'create-note',
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  summary: DOCS && 'Write a note on a person, optionally about one of their candidates, mentioning members',
  params: PersonParam,
  body: CreateNoteBody,
  ...(DOCS && { errors: { 404: NOT_VISIBLE } }),
  status: 201,
  response: dataOf(Note),
} as const satisfies Route;

export const listNotes = {
  method: 'GET',
  path: '/api/v1/people/{id}/notes',
  console: true,
  handler: 'list-notes',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && "A person's notes the caller may see, newest first, with an opaque cursor",
  params: PersonParam,
  query: PageQuery,
  ...(DOCS && { errors: { 404: NOT_VISIBLE } }),
  status: 200,
  response: NotePage,
} as const satisfies Route;

export const getNote = {
  method: 'GET',
  path: '/api/v1/people/{id}/notes/{note_id}',
  console: true,
  handler: 'get-note',
  auth: 'token',
  scope: 'candidates:read',
  access: 'read',
  summary: DOCS && 'One note with the bodies its edits replaced, oldest first',
  params: NoteParams,
  ...(DOCS && { errors: { 404: NOT_VISIBLE } }),
  status: 200,
  response: dataOf(NoteWithHistory),
} as const satisfies Route;

export const updateNote = {
  method: 'PATCH',
  path: '/api/v1/people/{id}/notes/{note_id}',
  console: true,
  handler: 'update-note',
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  summary: DOCS && "Edit a note's body (its author only); the body it replaces is kept in its history",
  params: NoteParams,
  body: UpdateNoteBody,
  ...(DOCS && {
    errors: { 403: NOT_AUTHOR, 404: NOT_VISIBLE, 409: 'The note changed meanwhile; read it again' },
  }),
  status: 200,
  response: dataOf(Note),
} as const satisfies Route;

export const deleteNote = {
  method: 'DELETE',
  path: '/api/v1/people/{id}/notes/{note_id}',
  console: true,
  handler: 'delete-note',
  auth: 'token',
  scope: 'candidates:write',
  access: 'write',
  summary: DOCS && 'Delete a note with its history and mentions (its author, or a workspace admin); audited by id',
  params: NoteParams,
  ...(DOCS && { errors: { 403: NEITHER_AUTHOR_NOR_ADMIN, 404: NOT_VISIBLE } }),
  status: 200,
  response: Success,
} as const satisfies Route;
