import { overturnScreening } from '../lib/domain/screening';
import { apiHandler, data } from '../lib/http';
import * as screeningApi from '../lib/api/screening';

export const handler = apiHandler(screeningApi.overturnScreening, async ({ principal, params }) =>
  data(await overturnScreening(principal, params.id)),
);
