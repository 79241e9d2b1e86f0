import { getSession } from '../lib/domain/sessions';
import { apiHandler, data } from '../lib/http';
import * as sessionApi from '../lib/api/session';

export const handler = apiHandler(sessionApi.getSession, async ({ principal }) => data(await getSession(principal)));
