import { getPipelineSettings } from '../lib/domain/settings';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('get-pipeline-settings'), async ({ principal, query }) =>
  data(await getPipelineSettings(principal, query)),
);
