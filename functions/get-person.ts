import { getPerson } from '../lib/domain/people';
import { apiHandler, data } from '../lib/http';
import * as peopleApi from '../lib/api/people';

export const handler = apiHandler(peopleApi.getPerson, async ({ principal, params }) => data(await getPerson(principal, params.id)));
