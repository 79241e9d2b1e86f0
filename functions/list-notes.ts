import { listNotes } from '../lib/domain/notes';
import { apiHandler, page } from '../lib/http';
import * as notesApi from '../lib/api/notes';

export const handler = apiHandler(notesApi.listNotes, async ({ principal, params, query }) =>
  page(await listNotes(principal, params.id, query)),
);
