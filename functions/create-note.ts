import { createNote } from '../lib/domain/notes';
import { apiHandler, data } from '../lib/http';
import * as notesApi from '../lib/api/notes';

export const handler = apiHandler(notesApi.createNote, async ({ principal, params, body }) =>
  data(await createNote(principal, params.id, body)),
);
