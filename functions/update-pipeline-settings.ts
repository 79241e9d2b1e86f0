import { updatePipelineSettings } from '../lib/domain/settings';
import { apiHandler, data, route } from '../lib/http';

export const handler = apiHandler(route('update-pipeline-settings'), async ({ principal, body }) =>
  data(await updatePipelineSettings(principal, body)),
);
