import { getPipelineSettings } from '../lib/domain/settings';
import { apiHandler, route } from '../lib/http';

export const handler = apiHandler(route('get-pipeline-settings'), async ({ principal }) => getPipelineSettings(principal.tenantId));
