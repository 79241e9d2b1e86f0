import { setOwnTimeZone } from '../lib/domain/account';
import { apiHandler, data } from '../lib/http';
import * as sessionApi from '../lib/api/session';

export const handler = apiHandler(sessionApi.setTimeZone, async ({ principal, body }) =>
  data(await setOwnTimeZone(principal, body.time_zone)),
);
