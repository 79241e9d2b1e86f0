import { updatePipelineSettings } from '../lib/domain/settings';
import { apiHandler, data } from '../lib/http';
import * as settingsApi from '../lib/api/settings';

export const handler = apiHandler(settingsApi.updatePipelineSettings, async ({ principal, body }) =>
  data(await updatePipelineSettings(principal, body)),
);
