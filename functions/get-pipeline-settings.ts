import { getPipelineSettings } from '../lib/domain/settings';
import { apiHandler, data } from '../lib/http';
import * as settingsApi from '../lib/api/settings';

export const handler = apiHandler(settingsApi.getPipelineSettings, async ({ principal, query }) =>
  data(await getPipelineSettings(principal, query)),
);
