/**
 * A note on a person (optionally about one of their candidates), and the earlier bodies its edits
 * replaced. Both live in the person's partition (lib/store/notes.ts), so the person's erasure,
 * which deletes the partition, takes every body with it. The body is personal data: audited by
 * name only, never logged, never in an event. The request and answer schemas are written in
 * lib/api/notes.ts (a body is multi-line text, which the declaration's `text` kind refuses).
 */
import { defineEntity, field, fromItem, type RecordOf } from '../entity';
import type { Item } from '../item';

export const NOTE_VISIBILITIES = ['team', 'private', 'admins'] as const;
export type NoteVisibility = (typeof NOTE_VISIBILITIES)[number];
/** The most characters a body holds. */
export const NOTE_BODY_MAX = 10_000;
/** The most members one note mentions. */
export const MAX_MENTIONS = 20;
/** Earlier bodies kept per note: the oldest leaves when an edit would keep more (a delete stays one transaction). */
export const NOTE_HISTORY_MAX = 50;

export const note = defineEntity('note', {
  id: field.uuid({ audit: 'none' }),
  person_id: field.uuid(),
  candidate_id: field.uuid({ optional: true }),
  body: field.string({ personal: true }),
  visibility: field.oneOf(NOTE_VISIBILITIES),
  /** A member (a token writes as the member who made it), or a token no member made (the admin CLI's). */
  author_type: field.oneOf(['user', 'token']),
  author_id: field.string(),
  author_email: field.string({ optional: true, audit: 'none' }),
  /** The API token it was written through, when it was. */
  via_token_id: field.string({ optional: true, absent: 'omitted', audit: 'none' }),
  created_at: field.time({ audit: 'none' }),
  updated_at: field.time({ audit: 'none' }),
  /** When the body was last edited; null for a note never edited. */
  edited_at: field.time({ optional: true, audit: 'none' }),
  /** Edits so far: the number of earlier bodies written (the oldest may have left, NOTE_HISTORY_MAX). */
  version: field.int({ audit: 'none', ifAbsent: 0 }),
});

/** An earlier body of a note: what an edit replaced, when, and by whom (its author). */
export const noteVersion = defineEntity('note_version', {
  note_id: field.uuid(),
  version: field.int(),
  body: field.string({ personal: true }),
  /** When this body was written (the note's creation or the edit before). */
  written_at: field.time(),
  /** When the edit replaced it. */
  replaced_at: field.time(),
});

export type NoteRecord = RecordOf<typeof note.fields> & { mentions: NoteMention[] };
export type NoteVersionRecord = RecordOf<typeof noteVersion.fields>;

/** A mention the note made: the member, and the id of their inbox item (lib/store/mentions.ts). */
export interface NoteMention {
  user_id: string;
  mention_id: string;
}

const mentionsOf = (item: Item): NoteMention[] =>
  Array.isArray(item.mentions)
    ? (item.mentions as Item[]).map((m) => ({ user_id: String(m.user_id), mention_id: String(m.mention_id) }))
    : [];

export const noteFromItem = (item: Item): NoteRecord => ({ ...fromItem(note, item), mentions: mentionsOf(item) });
export const noteVersionFromItem = (item: Item): NoteVersionRecord => fromItem(noteVersion, item);
