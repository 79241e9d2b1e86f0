import { getNoteWithHistory } from '../lib/domain/notes';
import { apiHandler, data } from '../lib/http';
import * as notesApi from '../lib/api/notes';

export const handler = apiHandler(notesApi.getNote, async ({ principal, params }) =>
  data(await getNoteWithHistory(principal, params.id, params.note_id)),
);
