import * as careersSettingsApi from '../lib/api/careers-settings';
import { updateCareersSettings } from '../lib/domain/careers-settings';
import { apiHandler, data } from '../lib/http';

export const handler = apiHandler(careersSettingsApi.updateCareersSettings, async ({ principal, body }) =>
  data(await updateCareersSettings(principal, body)),
);
