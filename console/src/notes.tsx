/**
 * The Notes section of a person's page: write a note (visibility, members to mention), edit your
 * own, delete your own (or any you see, as an admin). The API decides who sees what: this shows
 * what it answers.
 */
import { useState } from 'preact/hooks';
import { api, errorText, unwrap } from './api/client';
import { isAdmin, useMay, useSession } from './session';
import { ConfirmDialog, Empty, ErrorBox, Loaded, useLoad, useOlderPages, When } from './ui';

const VISIBILITIES = [
  ['team', 'Team: every member'],
  ['admins', 'Admins: workspace admins and you'],
  ['private', 'Private: only you'],
] as const;
type Visibility = (typeof VISIBILITIES)[number][0];

const fetchNotes = (personId: string, cursor?: string) =>
  unwrap(api.GET('/api/people/{id}/notes', { params: { path: { id: personId }, query: { limit: 20, ...(cursor && { cursor }) } } }));
type Note = Awaited<ReturnType<typeof fetchNotes>>['data'][number];

const fetchMembers = async () => (await unwrap(api.GET('/api/members'))).data;

export function Notes({ personId, candidateId }: { personId: string; candidateId?: string }) {
  const [load, reload, pending] = useLoad(() => fetchNotes(personId), [personId]);
  const [older, more] = useOlderPages(load, pending, (cursor) => fetchNotes(personId, cursor), 'older notes');
  const writes = useMay()('POST /api/people/{id}/notes');
  return (
    <section class="card" aria-labelledby="notes-h">
      <h2 id="notes-h">Notes</h2>
      {writes && <NewNote personId={personId} candidateId={candidateId} onAdded={reload} />}
      <Loaded load={load} what="the notes" retry={reload}>
        {(page) =>
          page.data.length + older.length === 0 ? (
            <Empty>No notes yet.</Empty>
          ) : (
            <ul class="notes">
              {[...page.data, ...older].map((n) => (
                <NoteItem key={n.id} personId={personId} note={n} onChanged={reload} />
              ))}
            </ul>
          )
        }
      </Loaded>
      {more}
    </section>
  );
}

function NewNote({ personId, candidateId, onAdded }: { personId: string; candidateId?: string; onAdded: () => Promise<void> }) {
  const [members] = useLoad(fetchMembers, []);
  const { session } = useSession();
  const [body, setBody] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('team');
  const [mentions, setMentions] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // A mention never grants sight: the picker offers only members who may see the note.
  const mentionable =
    members.state === 'ok'
      ? members.data.filter((m) => m.id !== session.user.id && !m.deactivated_at && (visibility !== 'admins' || m.role === 'admin'))
      : [];
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await unwrap(
        api.POST('/api/people/{id}/notes', {
          params: { path: { id: personId } },
          body: {
            body,
            visibility,
            ...(candidateId && { candidate_id: candidateId }),
            ...(visibility !== 'private' && mentions.length && { mentions }),
          },
        }),
      );
      setBody('');
      setMentions([]);
      await onAdded();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="note-form" onSubmit={submit}>
      <div class="field">
        <label for="note-body">New note</label>
        <textarea id="note-body" rows={3} maxLength={10_000} required value={body} onInput={(e) => setBody(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="note-visibility">Who sees it</label>
        <select id="note-visibility" value={visibility} onChange={(e) => setVisibility(e.currentTarget.value as Visibility)}>
          {VISIBILITIES.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {visibility !== 'private' && mentionable.length > 0 && (
        <fieldset class="mentions">
          <legend>Mention (they are notified)</legend>
          {mentionable.map((m) => (
            <label key={m.id} class="check">
              <input
                type="checkbox"
                checked={mentions.includes(m.id)}
                onChange={(e) => setMentions((all) => (e.currentTarget.checked ? [...all, m.id] : all.filter((x) => x !== m.id)))}
              />{' '}
              {m.email}
            </label>
          ))}
        </fieldset>
      )}
      {error && <ErrorBox message={error} />}
      <button type="submit" class="primary" disabled={busy || !body.trim()}>
        Add note
      </button>
    </form>
  );
}

function NoteItem({ personId, note, onChanged }: { personId: string; note: Note; onChanged: () => Promise<void> }) {
  const { session } = useSession();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(note.body);
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string>();
  const can = useMay();
  const mine = note.author.type === 'user' && note.author.id === session.user.id && can('PATCH /api/people/{id}/notes/{note_id}');
  const path = { id: personId, note_id: note.id };
  const save = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      await unwrap(api.PATCH('/api/people/{id}/notes/{note_id}', { params: { path }, body: { body: draft } }));
      setEditing(false);
      await onChanged();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <li class="note">
      <p class="note-meta">
        {note.author.email ?? 'An API token'} · <When iso={note.created_at} />
        {note.edited_at && ' · edited'} {note.visibility !== 'team' && <span class="badge">{note.visibility}</span>}
      </p>
      {editing ? (
        <form onSubmit={save}>
          <label for={`edit-${note.id}`} class="sr-only">
            Edit note
          </label>
          <textarea id={`edit-${note.id}`} rows={3} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
          <button type="submit" class="primary" disabled={!draft.trim()}>
            Save
          </button>{' '}
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <p class="note-body">{note.body}</p>
      )}
      {error && <ErrorBox message={error} />}
      {!editing && (mine || isAdmin(session)) && (
        <p class="note-actions">
          {mine && (
            <button type="button" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}{' '}
          <button type="button" class="danger" onClick={() => setConfirm(true)}>
            Delete
          </button>
        </p>
      )}
      <ConfirmDialog
        open={confirm}
        title="Delete this note?"
        confirmLabel="Delete"
        danger
        onClose={() => setConfirm(false)}
        onConfirm={async () => {
          await unwrap(api.DELETE('/api/people/{id}/notes/{note_id}', { params: { path } }));
          await onChanged();
        }}
      >
        <p>The note and its earlier versions are deleted.</p>
      </ConfirmDialog>
    </li>
  );
}
