import { deleteNote } from '../lib/domain/notes';
import { apiHandler } from '../lib/http';
import * as notesApi from '../lib/api/notes';

export const handler = apiHandler(notesApi.deleteNote, ({ principal, params }) => deleteNote(principal, params.id, params.note_id));
