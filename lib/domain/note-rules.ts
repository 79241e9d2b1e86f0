/**
 * Who sees, writes, edits and deletes a note, and who a note may mention: pure rules on the
 * principal and what was read. Every route, the activity feed and the mention inbox answer a note
 * (or a trace of it) only through `maySeeNote`, so a private note reaches its author alone.
 */
import { ValidationError } from '../errors';
import { MAX_MENTIONS, type NoteVisibility } from '../entities/note';
import type { Principal } from './principal';

/**
 * Who is reading. A session is a member with a role. A token reads as itself: it has no role, so
 * it sees `team` notes and the notes written through it, never another's private or admins note
 * (a workspace token is shared by integrations; its creator's private notes are not theirs).
 */
export interface Reader {
  /** The signed-in member; absent for a token. */
  userId?: string;
  tokenId?: string;
  admin: boolean;
}

export const readerOf = (p: Principal): Reader =>
  p.kind === 'session' ? { userId: p.userId, admin: p.role === 'admin' } : { tokenId: p.tokenId, admin: false };

/** Who a note is written by (a member, or a token no member made), and the token it came through. */
export interface Author {
  type: 'user' | 'token';
  id: string;
  email?: string;
  viaTokenId?: string;
}

/**
 * A session writes as its member; a token as the member who made it (personal or workspace token
 * alike: the token item records its creator). A token made by the admin CLI has no member behind
 * it: it writes as itself, and no private note (nobody could read it but the token).
 */
export function authorOf(p: Principal, visibility: NoteVisibility): Author {
  if (p.kind === 'session') return { type: 'user', id: p.userId, email: p.email };
  if (p.creator) return { type: 'user', id: p.creator.id, ...(p.creator.email && { email: p.creator.email }), viaTokenId: p.tokenId };
  if (visibility === 'private')
    throw new ValidationError('this token has no member behind it (made by the admin CLI), so it cannot write a private note', {
      field: 'visibility',
    });
  return { type: 'token', id: p.tokenId, viaTokenId: p.tokenId };
}

/** What the visibility rules read of a note (a note, or an activity item about one). */
export interface NoteSight {
  person_id: string;
  visibility: NoteVisibility;
  author_id: string;
  via_token_id?: string;
}

/**
 * Whether the reader may see the person at all. The routes that read a person's notes and feed
 * judge it first (lib/domain/person-sight.ts `seenPerson`: a hiring manager or an interviewer
 * sees a person through the candidates they see), so every note reaching this rule is of a person
 * the reader sees; the mention inbox answers ids only.
 */
export const mayReadPerson = (_r: Reader, _personId: string): boolean => true;

/** The note's own author, as the reader: the member who wrote it, or the token it came through. */
const isAuthor = (r: Reader, n: NoteSight) =>
  (r.userId !== undefined && r.userId === n.author_id) || (r.tokenId !== undefined && r.tokenId === n.via_token_id);

export function maySeeNote(r: Reader, n: NoteSight): boolean {
  if (!mayReadPerson(r, n.person_id)) return false;
  if (n.visibility === 'team') return true;
  if (n.visibility === 'admins') return r.admin || isAuthor(r, n);
  return isAuthor(r, n);
}

/** Only the author edits a note. */
export const mayEditNote = (r: Reader, n: NoteSight): boolean => maySeeNote(r, n) && isAuthor(r, n);

/** The author, or a workspace admin who may see it, deletes a note. */
export const mayDeleteNote = (r: Reader, n: NoteSight): boolean => maySeeNote(r, n) && (isAuthor(r, n) || r.admin);

/** A member as the mention rule reads them. */
export interface MemberSight {
  id: string;
  role: string;
  deactivated_at?: string;
}

/**
 * The members a new note mentions, each once, in the order given. Each must be an active member
 * of the workspace who may see the note: a mention never grants sight, so a private note mentions
 * nobody and an `admins` note only admins.
 */
export function decideMentions(ids: readonly string[], members: readonly MemberSight[], visibility: NoteVisibility): string[] {
  const unique = [...new Set(ids)];
  if (unique.length > MAX_MENTIONS) throw new ValidationError(`mentions names at most ${MAX_MENTIONS} members`, { field: 'mentions' });
  if (unique.length && visibility === 'private')
    throw new ValidationError('a private note is seen by its author alone, so it cannot mention anyone', { field: 'mentions' });
  const byId = new Map(members.map((m) => [m.id, m]));
  for (const id of unique) {
    const m = byId.get(id);
    if (!m || m.deactivated_at) throw new ValidationError('mentions must name active members of this workspace', { field: 'mentions' });
    if (visibility === 'admins' && m.role !== 'admin')
      throw new ValidationError('an admins note may mention workspace admins only: a mention never grants sight', { field: 'mentions' });
  }
  return unique;
}

/**
 * A mention never grants sight of the person either: a hiring manager or an interviewer is
 * mentioned only on a person (and a candidate) they see.
 */
export function refuseUnseenMentions(mentioned: readonly string[], seeing: ReadonlySet<string>): void {
  if (mentioned.some((id) => !seeing.has(id)))
    throw new ValidationError('mentions may name only members who see this person and candidate: a mention never grants sight', {
      field: 'mentions',
    });
}

/** A mention in a member's inbox, as answered: only to that member, and only while they may see the note. */
export const mayAnswerMention = (r: Reader, mention: { user_id: string }, n: NoteSight): boolean =>
  r.userId === mention.user_id && maySeeNote(r, n);
