import { getOverview } from '../lib/domain/overview';
import { apiHandler, data } from '../lib/http';
import * as overviewApi from '../lib/api/overview';

export const handler = apiHandler(overviewApi.getOverview, async ({ principal }) => data(await getOverview(principal)));
