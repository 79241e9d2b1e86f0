import { mergePeople } from '../lib/domain/person-merge';
import { apiHandler, data } from '../lib/http';
import * as peopleApi from '../lib/api/people';

export const handler = apiHandler(peopleApi.mergePerson, async ({ principal, params, body }) =>
  data(await mergePeople(principal, params.id, body.from)),
);
