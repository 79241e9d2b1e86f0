import { setPipelineSettings } from '../lib/domain/settings';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('update-pipeline-settings'), async ({ principal, body }) =>
  setPipelineSettings(principal.tenantId, body),
);
