import { updateNote } from '../lib/domain/notes';
import { apiHandler, data } from '../lib/http';
import * as notesApi from '../lib/api/notes';

export const handler = apiHandler(notesApi.updateNote, async ({ principal, params, body }) =>
  data(await updateNote(principal, params.id, params.note_id, body)),
);
