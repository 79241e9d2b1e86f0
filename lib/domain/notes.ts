/**
 * Notes on a person: write (with mentions), list, read with the edit history, edit (the author),
 * delete (the author or an admin). What a reader may see is lib/domain/note-rules.ts's alone.
 */
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { noteFromItem, type NoteRecord, type NoteVisibility } from '../entities/note';
import { newId, nowIso } from '../ids';
import type { AuditChange } from '../store/audit';
import { mentionPuts, mentionRemovals, type MentionRecord } from '../store/mentions';
import {
  editNote,
  getNote,
  insertNote,
  NOTE_PREFIX,
  notePageKey,
  queryPage,
  queryNoteVersions,
  removeNote,
  sightFilter,
} from '../store/notes';
import { keys } from '../store/table';
import { listUsers } from '../store/users';
import { decodeCursor, encodeCursor } from './cursor';
import {
  authorOf,
  decideMentions,
  mayDeleteNote,
  mayEditNote,
  maySeeNote,
  readerOf,
  type Reader,
  refuseUnseenMentions,
} from './note-rules';
import { membersWhoSee, seenPerson } from './person-sight';
import { auditBy, type Principal } from './principal';
import { seesPersonRecord } from './visibility';

export interface NoteAnswer {
  id: string;
  person_id: string;
  candidate_id: string | null;
  body: string;
  visibility: NoteVisibility;
  author: { type: 'user' | 'token'; id: string; email: string | null };
  mentions: string[];
  created_at: string;
  updated_at: string;
  edited_at: string | null;
}

export const noteAnswer = (n: NoteRecord): NoteAnswer => ({
  id: n.id,
  person_id: n.person_id,
  candidate_id: n.candidate_id,
  body: n.body,
  visibility: n.visibility,
  author: { type: n.author_type, id: n.author_id, email: n.author_email },
  mentions: n.mentions.map((m) => m.user_id),
  created_at: n.created_at,
  updated_at: n.updated_at,
  edited_at: n.edited_at,
});

/** What every audit record of a note names: ids and its visibility, the body by name only when it changes. */
const noteChanges = (n: NoteRecord, body: boolean): AuditChange[] => [
  ...(body ? [{ field: 'body' }] : []),
  { field: 'person_id', after: n.person_id },
  { field: 'visibility', after: n.visibility },
  { field: 'author_id', after: n.author_id },
  ...(n.candidate_id ? [{ field: 'candidate_id', after: n.candidate_id }] : []),
  ...(n.via_token_id ? [{ field: 'via_token_id', after: n.via_token_id }] : []),
];

export interface NewNote {
  body: string;
  visibility: NoteVisibility;
  candidate_id?: string;
  mentions?: string[];
}

export async function createNote(p: Principal, personId: string, input: NewNote): Promise<NoteAnswer> {
  const ids = input.mentions ?? [];
  // The person first, so that a person not in the workspace (or not seen) is a 404 whatever else the request says.
  const [sight, members] = await Promise.all([seenPerson(p, personId), ids.length ? listUsers(p.tenantId) : []]);
  if (!seesPersonRecord(sight, input.candidate_id)) throw noSuchCandidate();
  const author = authorOf(p, input.visibility);
  const mentioned = decideMentions(ids, members, input.visibility);
  if (mentioned.length) {
    const named = members.filter((m) => mentioned.includes(m.id));
    refuseUnseenMentions(mentioned, await membersWhoSee(p.tenantId, personId, named, input.candidate_id));
  }
  const now = nowIso();
  const id = newId();
  const mentions: MentionRecord[] = mentioned.map((userId) => ({
    id: newId(),
    user_id: userId,
    note_id: id,
    person_id: personId,
    ...(input.candidate_id && { candidate_id: input.candidate_id }),
    visibility: input.visibility,
    author_id: author.id,
    ...(author.email && { author_email: author.email }),
    ...(author.viaTokenId && { via_token_id: author.viaTokenId }),
    at: now,
  }));
  const note: NoteRecord = {
    id,
    person_id: personId,
    candidate_id: input.candidate_id ?? null,
    body: input.body,
    visibility: input.visibility,
    author_type: author.type,
    author_id: author.id,
    author_email: author.email ?? null,
    ...(author.viaTokenId && { via_token_id: author.viaTokenId }),
    created_at: now,
    updated_at: now,
    edited_at: null,
    version: 0,
    mentions: mentions.map((m) => ({ user_id: m.user_id, mention_id: m.id })),
  };
  const audit = auditBy(p, 'note.created', { type: 'note', id }, [
    ...noteChanges(note, true),
    ...(mentioned.length ? [{ field: 'mentions', after: mentioned }] : []),
  ]);
  const outcome = await insertNote(p.tenantId, note, mentionPuts(p.tenantId, mentions), audit);
  if ('refused' in outcome) {
    if (outcome.refused === 'person') throw new NotFoundError('person');
    if (outcome.refused === 'candidate') throw noSuchCandidate();
    throw new ConflictError('the note could not be written; try again');
  }
  if ('conflict' in outcome) throw new ConflictError('too many concurrent writes; try again');
  return noteAnswer(note);
}

/** A candidate the caller does not see reads as one that is not the person's. */
const noSuchCandidate = () => new ValidationError('candidate_id names no candidate of this person', { field: 'candidate_id' });

/**
 * A note the reader may see, of a person they see, or a 404 (the same answer as a note that does
 * not exist: a note's existence is not told). A note about a candidate the caller does not see is
 * not seen.
 */
async function visibleNote(p: Principal, reader: Reader, personId: string, noteId: string): Promise<NoteRecord> {
  const [sight, n] = await Promise.all([seenPerson(p, personId), getNote(p.tenantId, personId, noteId)]);
  if (!n || !maySeeNote(reader, n) || !seesPersonRecord(sight, n.candidate_id)) throw new NotFoundError('note');
  return n;
}

/**
 * A page of the person's notes the reader may see, newest first: the person read (lib/domain/
 * person-sight.ts) and ONE Query, side by side; a page may be short (notes the reader may not see are left out), `next_cursor`
 * null marks the end.
 */
export async function listNotes(p: Principal, personId: string, q: { limit: number; cursor?: string }) {
  const reader = readerOf(p);
  const scope = { tenantId: p.tenantId, filters: JSON.stringify(['notes', personId]), key: notePageKey(p.tenantId, personId) };
  const startKey = q.cursor !== undefined ? decodeCursor(q.cursor, scope) : undefined;
  const [sight, page] = await Promise.all([
    seenPerson(p, personId),
    queryPage(keys.personPartition(p.tenantId, personId), NOTE_PREFIX, sightFilter(reader), q.limit, startKey),
  ]);
  const items = page.items.map(noteFromItem).filter((n) => maySeeNote(reader, n) && seesPersonRecord(sight, n.candidate_id));
  return { items: items.map(noteAnswer), next_cursor: page.lastKey ? encodeCursor(scope, page.lastKey) : null };
}

/** One note with the bodies its edits replaced (oldest first): to whoever may read the note. */
export async function getNoteWithHistory(p: Principal, personId: string, noteId: string) {
  const [n, versions] = await Promise.all([visibleNote(p, readerOf(p), personId, noteId), queryNoteVersions(p.tenantId, personId, noteId)]);
  return { ...noteAnswer(n), history: versions.map((v) => ({ body: v.body, written_at: v.written_at, replaced_at: v.replaced_at })) };
}

export async function updateNote(p: Principal, personId: string, noteId: string, input: { body: string }): Promise<NoteAnswer> {
  const reader = readerOf(p);
  const n = await visibleNote(p, reader, personId, noteId);
  if (!mayEditNote(reader, n)) throw new ForbiddenError('only its author may edit a note');
  if (n.body === input.body) return noteAnswer(n);
  const at = nowIso();
  const outcome = await editNote(
    p.tenantId,
    n,
    input.body,
    at,
    auditBy(p, 'note.edited', { type: 'note', id: n.id }, noteChanges(n, true)),
  );
  if (!('written' in outcome)) throw new ConflictError('the note changed while it was being edited; read it again and retry');
  return noteAnswer({ ...n, body: input.body, edited_at: at, updated_at: at, version: n.version + 1 });
}

export async function deleteNote(p: Principal, personId: string, noteId: string): Promise<{ success: true }> {
  const reader = readerOf(p);
  for (let attempt = 1; ; attempt++) {
    const n = await visibleNote(p, reader, personId, noteId);
    if (!mayDeleteNote(reader, n)) throw new ForbiddenError('only its author or a workspace admin may delete a note');
    const [versions, mentions] = await Promise.all([
      queryNoteVersions(p.tenantId, personId, noteId),
      mentionRemovals(p.tenantId, n.mentions),
    ]);
    // The audit names the note, never its body.
    const audit = auditBy(p, 'note.deleted', { type: 'note', id: n.id }, noteChanges(n, false));
    const outcome = await removeNote(p.tenantId, n, versions, mentions, audit);
    if ('written' in outcome) return { success: true };
    // A mention read, or the note edited, meanwhile: read again.
    if (attempt >= 5) throw new ConflictError('the note kept changing while it was being deleted; try again');
  }
}
