import * as careersSettingsApi from '../lib/api/careers-settings';
import { getCareersSettingsOf } from '../lib/domain/careers-settings';
import { apiHandler, data } from '../lib/http';

export const handler = apiHandler(careersSettingsApi.getCareersSettings, async ({ principal }) =>
  data(await getCareersSettingsOf(principal)),
);
